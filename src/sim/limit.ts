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

/** The OpenCode retry footer for attempt `n`. */
export function opencodeRetryLine(attempt: number): string {
  return `Rate limit reached for requests [retrying in 13s attempt #${attempt}]`;
}

/** The Qwen Code quota error line. */
export function qwenLimitLine(attempt = 1): string {
  return "✕ [API Error: 429 You exceeded your current quota, please check your plan and billing " +
    `details.] (Retrying in 37s… (attempt ${attempt}/10))`;
}

/** The Copilot CLI rate-limit line. */
export function copilotLimitLine(resetAt?: string): string {
  return `✗ You've hit your rate limit. Your limit resets ${resetAt ?? "at 3:04 AM"}.`;
}
