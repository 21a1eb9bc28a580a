/**
 * Recognises the agents' usage-limit messages (PROVIDERS.md §4) inside structured error texts,
 * and finds the reset time they state. Only applied to texts the stream marks as errors, never to
 * conversation, so talk about rate limits is not a limit.
 *
 * @module
 */
import { parseResetTime } from "../reset_time.ts";
import { type LimitRule, matchRule } from "../screen_text.ts";
// The agents' own messages: the same data as their screens (adapters/limits/<agent>.json).
import { limitRules, surfaceMessages, surfaces } from "../limit_data.ts";

/** Usage-limit messages of all agents (apostrophes ASCII or U+2019). */
const _LIMIT_PATTERNS: readonly RegExp[] = [
  // Claude
  /You['’]ve hit your (?:[\w'’ .-]+? )?limit/,
  /\b\d+-hour limit reached/,
  /Claude (?:AI )?usage limit reached/,
  /You['’]re out of usage credits/,
  /API Error: Request rejected \(429\)/,
  // Codex
  /You['’]ve hit your usage limit/,
  /Usage limit reached\. You['’]ve reached your usage limit/,
  /Quota exceeded\. Check your plan and billing details/,
  // Gemini
  /Usage limit reached for /,
  /You have exhausted your (?:daily quota|capacity)/,
  /You have reached your daily quota limit/,
  /RESOURCE_EXHAUSTED|Resource has been exhausted/,
  // OpenCode / Kilo, Qwen (provider texts)
  /Free usage exceeded/,
  /usage limit reached\. It will reset/i,
  /exceeded your current quota/i,
  /Quota exhausted/i,
  /Qwen OAuth quota exceeded/,
  /\bRate limit (?:reached|exceeded)\b/i,
  /\btoo many requests\b/i,
  // Copilot
  /you(?:['’]ve| have) (?:hit (?:your|the|a) (?:session )?rate limit|reached your weekly rate limit|been rate[- ]limited|run out of your (?:included )?AI credits|exceeded your \d+ hour session limits|reached the spending limit)/i,
  /user_(?:weekly|global|model)_rate_limited/,
];

/** Texts that look like limits but are not the user's usage limit. */
const _NOT_LIMIT: readonly RegExp[] = [/not your usage limit/i];

/** Whether an error text is a usage-limit message. */
export function isLimitText(text: string): boolean {
  if (_NOT_LIMIT.some((re) => re.test(text))) return false;
  return _LIMIT_PATTERNS.some((re) => re.test(text));
}

/**
 * A limit event for an error text, or null when it is not a limit. The reset time is resolved
 * against `now` when the text states one.
 */
export function limitFromText(
  text: string,
  now: Date = new Date(),
): { kind: "limit"; message: string; resetsAt: string | null } | null {
  if (!isLimitText(text)) return null;
  const message = text.trim();
  return { kind: "limit", message, resetsAt: parseResetTime(message, now) };
}

/** What an agent's error text means: the user's quota (`usage`) or a passing rate limit (`rate`). */
export interface ClassifiedLimit {
  kind: "limit";
  /** `usage`: the account's quota, nothing comes of waiting; `rate`: a passing rate limit. */
  limitKind: "usage" | "rate";
  message: string;
  resetsAt: string | null;
}

/**
 * Each agent's rules for the error texts its structured mode carries, from its data on every
 * surface: its hard messages as they are, its transient ones (it retries) as a passing rate limit;
 * its fallbacks, warnings and notices are look-alikes. Made once per agent.
 */
function _agentRules(agent: string): { rules: readonly LimitRule[]; not: readonly RegExp[] } {
  const known = _ruleCache.get(agent);
  if (known) return known;
  const all = surfaces(agent).flatMap((s) => surfaceMessages(agent, s));
  const made = {
    rules: [
      ...surfaces(agent).flatMap((s) => limitRules(agent, s)),
      ...all.filter((m) => m.class === "transient").map((m) => ({
        re: m.re,
        kind: "rate" as const,
      })),
    ],
    not: all.filter((m) => ["fallback", "warning", "notice"].includes(m.class)).map((m) => m.re),
  };
  _ruleCache.set(agent, made);
  return made;
}

const _ruleCache = new Map<string, { rules: readonly LimitRule[]; not: readonly RegExp[] }>();

/**
 * The one classification of an error text an agent's stream (or stderr) marks as an error: its
 * own rule list first (the same data its screen is read with), then the shared limit texts above
 * (a usage limit). Null when the text is no limit. The reset is resolved against `now`.
 */
export function classifyLimit(
  agent: string,
  text: string,
  now: Date = new Date(),
): ClassifiedLimit | null {
  const message = text.trim();
  const own = surfaces(agent).length ? _agentRules(agent) : undefined;
  if (message === "" || [..._NOT_LIMIT, ...(own?.not ?? [])].some((re) => re.test(message))) {
    return null;
  }
  const rule = own ? matchRule(message, own.rules) : null;
  const limitKind = rule ? rule.kind : isLimitText(message) ? "usage" : null;
  if (limitKind === null) return null;
  return { kind: "limit", limitKind, message, resetsAt: parseResetTime(message, now) };
}
