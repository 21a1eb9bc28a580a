/**
 * The usage-limit messages of the real CLIs, as they render them (PROVIDERS.md §4.1), with the
 * reset time the simulation shows. Pure.
 *
 * @module
 */

/** The Claude Code limit line under the prompt echo (`⎿`, a space, U+00A0). */
export function claudeLimitLine(resetAt?: string): string {
  return `  ⎿ \u00a0You've hit your session limit · resets ${resetAt ?? "3:01am"} (UTC)`;
}

/** The Claude Code `/rate-limit-options` menu choices. */
export const CLAUDE_LIMIT_OPTIONS: readonly string[] = [
  "Stop and wait for limit to reset",
  "Upgrade your plan",
];

/** The Codex CLI 0.171 limit message (U+2019 apostrophe; soft-wraps at 120 columns). */
export function codexLimitLine(resetAt?: string): string {
  return "■ You\u2019ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), " +
    "visit https://chatgpt.com/settings/usage to purchase more credits or try again at " +
    `${resetAt ?? "3:02 AM"}.`;
}

/** The Gemini CLI quota dialog body (inside a rounded box), before its choices. */
export function geminiLimitLines(resetAt?: string): string[] {
  return [
    "",
    "Usage limit reached for all Pro models.",
    `Access resets at ${resetAt ?? "3:06 AM"} UTC.`,
    "/stats model for usage details",
    "/model to switch models.",
    "/auth to switch to API key.",
    "",
    "",
  ];
}

/** The Gemini quota dialog choices. */
export const GEMINI_LIMIT_OPTIONS: readonly string[] = ["Keep trying", "Stop"];

/** The provider text OpenCode shows in its retry footer unless the test names another. */
export const OPENCODE_PROVIDER_TEXT = "Rate limit reached for requests";

/** The OpenCode retry footer for attempt `n`, with the provider's `text`. */
export function opencodeRetryLine(attempt: number, text = OPENCODE_PROVIDER_TEXT): string {
  return `${text} [retrying in 13s attempt #${attempt}]`;
}

/** The Qwen Code quota error line. */
export function qwenLimitLine(attempt = 1): string {
  return "✕ [API Error: 429 You exceeded your current quota, please check your plan and billing " +
    `details.] (Retrying in 37s… (attempt ${attempt}/10))`;
}

/** The Copilot CLI rate-limit line, or its error line with `text` (e.g. a provider's 429). */
export function copilotLimitLine(resetAt?: string, text?: string): string {
  return `✗ ${text ?? `You've hit your rate limit. Your limit resets ${resetAt ?? "at 3:04 AM"}.`}`;
}

/**
 * Where to cut a frame that shows a limit so that the cut falls inside its reset clause (just
 * after the clause's first digit: "resets 3" | ":01am"), or -1 when it shows none.
 */
export function resetClauseCut(frame: string): number {
  const m = /(?:resets?|try again at|reset after) (?:at )?\d/.exec(frame);
  return m ? m.index + m[0].length : -1;
}
