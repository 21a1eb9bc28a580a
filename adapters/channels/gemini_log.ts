/**
 * Gemini CLI's debug log (`GEMINI_DEBUG_LOG_FILE`), read as a second road for the 429s it retries.
 * Measured on 0.61.0 against the mock (docs/channels.md, testdata/channels/gemini-0.61.0/debug-log):
 * each entry is `[<ISO time>] [<LEVEL>] <text>`, an object's dump running on over the next lines.
 * A quota it retries (a per-minute one) writes, 66 ms after each 429,
 * `Attempt 1 failed: You exceeded your current quota, … Retrying after 5099ms...`; its generic
 * path `Attempt N failed with status 429. Retrying with backoff...`; a daily quota writes no such
 * line (its dialog at once). So such a line is Gemini retrying: a rate limit with its attempt and
 * wait, which the policy weighs like a retry row on a screen; a usage limit only when its text is
 * one of Gemini's own hard-quota messages (the `dialog` messages of adapters/limits/gemini.json). A retried 5xx, and every other
 * line (startup, memory discovery, dumps), is nothing. It carries no prompt or reply. Pure.
 *
 * A capacity error (Code Assist's `MODEL_CAPACITY_EXHAUSTED`, "No capacity available for model
 * …": the `log` messages of gemini.json marked `endless`) writes such a line for its two silent
 * retries only; then Gemini retries it at once, without end and without a line (measured against
 * the mock's `gemini-capacity` lane, 2026-12-05). Its event is a rate limit marked `endless`: the
 * retry-loop rule (src/detect/retry_loop.ts) hands off once nothing else happens.
 *
 * @module
 */
import process from "node:process";
import type { AgentDebugLog, ChannelCheck, ChannelEvent, ChannelParseOptions } from "../channel.ts";
import { endlessRetries, limitRules, surfaceMessages } from "../limit_data.ts";
import type { LimitRule } from "../screen_text.ts";

// Gemini's own hard-quota words: its dialogs' and the `exhausted-*` texts of its error rows, not
// the error rows' generic provider patterns (any "quota", any 429), which a per-minute limit has too.
const _OWN_HARD: readonly LimitRule[] = [
  ...limitRules("gemini", "dialog"),
  ...surfaceMessages("gemini", "error")
    .filter((m) => m.class === "hard" && m.id.startsWith("exhausted-"))
    .map((m) => ({ re: m.re, kind: m.kind ?? "usage" })),
];
import { limitHit, matchRule, normalizeSpace } from "../screen_text.ts";

// The errors Gemini retries without end (its capacity loop), from gemini.json's `log` surface.
const _ENDLESS: readonly RegExp[] = endlessRetries("gemini", "log");

/** The variable naming Gemini's debug-log file. */
export const GEMINI_DEBUG_LOG_ENV = "GEMINI_DEBUG_LOG_FILE";

// `[2026-12-04T18:49:50.829Z] [WARN] Attempt 1 failed…`: one entry's first line.
const _ENTRY = /^\[[0-9T:.Z+-]{10,40}\] \[[A-Z]{3,8}\] (.*)$/;
// Its retry lines, both paths: `Attempt N failed with status 429. …`, `… failed with 429 error …`,
// `Attempt N failed: <message> … Retrying after 5099ms...`.
const _ATTEMPT =
  /^Attempt (\d{1,4}) failed(?: with status (\d{3})\.| with (\d{3}) error\b| with 5xx error\b)?:?\s*(.*)$/;
const _AFTER_MS = /Retrying after (\d{1,9})ms/;

/**
 * The events of one line of Gemini's debug log: a retried 429 (or a retried quota error) as a
 * limit; anything else none.
 */
export function geminiDebugLine(text: string, opts: ChannelParseOptions): ChannelEvent[] {
  const entry = _ENTRY.exec(text);
  if (!entry) return [];
  const m = _ATTEMPT.exec(entry[1]);
  if (!m) return [];
  const attempt = Number(m[1]);
  const status = Number(m[2] ?? m[3] ?? NaN);
  const rest = normalizeSpace(m[4] ?? "").slice(0, 2000);
  const quota = /quota|RESOURCE_EXHAUSTED|\b429\b/i.test(rest);
  const endless = _ENDLESS.some((re) => re.test(rest));
  if (
    !(status === 429 || (Number.isNaN(status) && (quota || endless) && !/5xx/.test(entry[1])))
  ) return [];
  const message = rest.replace(/\s*Retrying (?:after \d+ms|with backoff)\.*\s*$/, "") ||
    `${status} (retried)`;
  const after = _AFTER_MS.exec(rest);
  const base = { status: 429, code: "RESOURCE_EXHAUSTED" };
  // Gemini retries it by itself, however long a reset its text states: not its own hard words.
  if (endless) {
    return [{
      type: "limit",
      ...limitHit("rate", message.replace(/\.$/, ""), opts, {
        attempt,
        ...(after ? { waitSeconds: Math.round(Number(after[1]) / 1000) } : {}),
        endless: true,
      }),
      ...base,
    }];
  }
  const hard = matchRule(message, _OWN_HARD);
  if (hard?.kind === "usage") {
    return [{ type: "limit", ...limitHit("usage", message, opts), ...base }];
  }
  return [{
    type: "limit",
    ...limitHit("rate", message, opts, {
      attempt,
      ...(after ? { waitSeconds: Math.round(Number(after[1]) / 1000) } : {}),
    }),
    ...base,
  }];
}

/** Why the debug log cannot be uuldana's for this launch: the user names their own file. */
export function geminiDebugLogOffReason({ env }: ChannelCheck): string | null {
  const own = env[GEMINI_DEBUG_LOG_ENV] ?? process.env[GEMINI_DEBUG_LOG_ENV];
  if (own) return `${GEMINI_DEBUG_LOG_ENV} names your own file (${own}); uuldana leaves it to you`;
  return null;
}

/** Gemini CLI's debug-log declaration. */
export const GEMINI_DEBUG_LOG: AgentDebugLog = {
  env: GEMINI_DEBUG_LOG_ENV,
  offReason: geminiDebugLogOffReason,
  parser: () => ({ line: geminiDebugLine }),
};
