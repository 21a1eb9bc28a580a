/**
 * The agents' limit messages as data (`adapters/limits/<agent>.json`, issue 29): each message an
 * agent shows about its limits, classified from the code that shows it. This module reads those
 * files (imported as JSON, so a compiled binary carries them) and gives each detector what it
 * needs on one of its surfaces (where that agent draws the text): the hard messages as
 * {@linkcode LimitRule}s, every other class as a veto, and the warnings with their reset for the
 * limit ledger. Within a surface the file's order is kept: the first entry that matches wins.
 * docs/limit-data.md says how the data is made and how to add a release's messages. Pure.
 *
 * @module
 */
import claude from "./limits/claude.json" with { type: "json" };
import codex from "./limits/codex.json" with { type: "json" };
import copilot from "./limits/copilot.json" with { type: "json" };
import gemini from "./limits/gemini.json" with { type: "json" };
import kilo from "./limits/kilo.json" with { type: "json" };
import opencode from "./limits/opencode.json" with { type: "json" };
import pi from "./limits/pi.json" with { type: "json" };
import qwen from "./limits/qwen.json" with { type: "json" };
import type { LimitHit } from "./adapter.ts";
import { readResetTime } from "./reset_time.ts";
import type { LimitRule } from "./screen_text.ts";

/** How a message was classified (adapters/limits/limits.schema.json says what each means). */
export type LimitClass = "hard" | "transient" | "warning" | "notice" | "fallback";

/** One message of an agent's file, as stored (the schema's `message`). */
export interface LimitMessage {
  /** Unique in its file, stable across releases. */
  id: string;
  /** hard: the work stops; the others never fire. */
  class: LimitClass;
  /** Hard only: the hit's kind. */
  kind?: LimitHit["kind"];
  /** Hard only: the agent stopped retrying when it shows this. */
  final?: boolean;
  /** Transient only: the agent retries it without a bound of its own (the retry-loop rule). */
  endless?: boolean;
  /** Where the agent draws it (each adapter names its surfaces). */
  surface: string;
  /** The text as shipped, fills as `${name}`. */
  template: string;
  /** The regular expression's source, matched on the surface's text. */
  match: string;
  /** Its flags (`i`, `s`, `u`). */
  matchFlags?: string;
  /** Realistic fillings; the data-driven tests draw each one in the agent's screen. */
  examples: string[];
  /** What the text states about its reset. */
  reset: "none" | "clock" | "date" | "relative";
  /** The reset of `examples[0]` at the tests' fixed clock, or null. */
  resetExample: string | null;
  /** The mined releases that ship this exact text. */
  versions: string[];
  /** Where the package shows it, or where users reported it. */
  source: { file: string; offset?: number; code: string } | { reported: string; seen?: string };
  /** Why this class, in one line. */
  decided: string;
}

/** An agent's whole file (the schema's root). */
export interface LimitFile {
  /** The adapter's name. */
  agent: string;
  /** The package the agent ships as. */
  package: string;
  /** The releases the file was mined from, newest last. */
  mined: { version: string; date: string; files: string[] }[];
  /** Its messages, in the order detection tries them. */
  messages: LimitMessage[];
}

/** The agents that have a file, by adapter name. */
export const LIMIT_FILES: Readonly<Record<string, LimitFile>> = {
  claude: claude as LimitFile,
  codex: codex as LimitFile,
  copilot: copilot as LimitFile,
  gemini: gemini as LimitFile,
  kilo: kilo as LimitFile,
  opencode: opencode as LimitFile,
  pi: pi as LimitFile,
  qwen: qwen as LimitFile,
};

/** A message with its regular expression compiled. */
export interface CompiledMessage extends LimitMessage {
  /** `match` with `matchFlags`. */
  re: RegExp;
}

const _compiled = new Map<string, readonly CompiledMessage[]>();

/** The messages an agent's file holds on `surface`, in file order, compiled once. */
export function surfaceMessages(agent: string, surface: string): readonly CompiledMessage[] {
  const key = `${agent}\n${surface}`;
  const known = _compiled.get(key);
  if (known) return known;
  const file = LIMIT_FILES[agent];
  if (!file) throw new Error(`no limit data for agent "${agent}"`);
  const list = file.messages
    .filter((m) => m.surface === surface)
    .map((m) => ({ ...m, re: new RegExp(m.match, m.matchFlags ?? "") }));
  if (list.length === 0) throw new Error(`${agent}.json has no message on surface "${surface}"`);
  _compiled.set(key, list);
  return list;
}

/** The surfaces an agent's file names, in first-seen order. */
export function surfaces(agent: string): string[] {
  return [...new Set((LIMIT_FILES[agent]?.messages ?? []).map((m) => m.surface))];
}

const _rules = new Map<string, readonly LimitRule[]>();
const _vetoes = new Map<string, readonly RegExp[]>();

/** The hard messages on `surface` as detector rules (their pattern, kind, and `final`). */
export function limitRules(agent: string, surface: string): readonly LimitRule[] {
  const key = `${agent}\n${surface}`;
  let rules = _rules.get(key);
  if (!rules) {
    rules = surfaceMessages(agent, surface)
      .filter((m) => m.class === "hard")
      .map((m) => ({ re: m.re, kind: m.kind ?? "usage", ...(m.final ? { final: true } : {}) }));
    _rules.set(key, rules);
  }
  return rules;
}

/** The texts on `surface` that are not a limit (transient, warning, notice, fallback): vetoes. */
export function limitVetoes(agent: string, surface: string): readonly RegExp[] {
  const key = `${agent}\n${surface}`;
  let vetoes = _vetoes.get(key);
  if (!vetoes) {
    vetoes = surfaceMessages(agent, surface).filter((m) => m.class !== "hard").map((m) => m.re);
    _vetoes.set(key, vetoes);
  }
  return vetoes;
}

/**
 * The messages on `surface` the agent retries without end (`endless`: Gemini CLI's capacity
 * loop), as their patterns: a report of one starts the retry-loop rule.
 */
export function endlessRetries(agent: string, surface: string): readonly RegExp[] {
  return surfaceMessages(agent, surface).filter((m) => m.endless).map((m) => m.re);
}

/** One surface's messages as detection uses them. */
export interface SurfaceRules {
  /** The hard messages: what is a limit. */
  rules: readonly LimitRule[];
  /** The others: what is not, even when a rule matches too. */
  vetoes: readonly RegExp[];
}

/** {@linkcode limitRules} and {@linkcode limitVetoes} of one surface together. */
export function surfaceRules(agent: string, surface: string): SurfaceRules {
  return { rules: limitRules(agent, surface), vetoes: limitVetoes(agent, surface) };
}

/**
 * The message of `agent`'s file that `text` shows on `surface`: the first non-hard one that
 * matches (a veto wins over a hard rule, as detection has it), else the first hard one; null
 * when none does.
 */
export function classifyText(
  agent: string,
  surface: string,
  text: string,
): CompiledMessage | null {
  const list = surfaceMessages(agent, surface);
  return list.find((m) => m.class !== "hard" && m.re.test(text)) ??
    list.find((m) => m.re.test(text)) ?? null;
}

/** A usage warning an agent showed: which message, and the reset it states. */
export interface LimitWarning {
  /** The message's id in its agent's file. */
  id: string;
  /** The text as shown. */
  message: string;
  /** The reset it states (ISO-8601, UTC), or null. */
  resetsAt: string | null;
}

/**
 * The usage warning `text` is on `surface` ("You've used 90% of your session limit · resets
 * 3pm"), with its reset read against `now` in `timeZone`; null when the text is not one of the
 * agent's warnings. For the limit ledger's *near its limit* state.
 */
export function warningIn(
  agent: string,
  surface: string,
  text: string,
  now: Date,
  timeZone?: string,
): LimitWarning | null {
  const m = classifyText(agent, surface, text);
  if (m?.class !== "warning") return null;
  return { id: m.id, message: text, resetsAt: readResetTime(text, now, timeZone).at };
}

/**
 * The usage warning `text` is on any of `agent`'s surfaces (for a text a channel carried, which
 * names no surface), as {@linkcode warningIn} reads it; null when it is none of its warnings.
 */
export function warningAnywhere(
  agent: string,
  text: string,
  now: Date,
  timeZone?: string,
): LimitWarning | null {
  if (!LIMIT_FILES[agent]) return null;
  for (const surface of surfaces(agent)) {
    const warning = warningIn(agent, surface, text, now, timeZone);
    if (warning) return warning;
  }
  return null;
}
