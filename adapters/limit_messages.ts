/**
 * The screen structure of the limit detectors that is not a message: the marks, notices and titles
 * that frame an agent's limit (Claude's own notices after its limit row, OpenCode's limit dialog
 * titles), and the messages of the agents that have no limit data yet (Auggie, aider, Crush). The
 * messages of the eight agents with data live in `adapters/limits/<agent>.json`, read through
 * `limit_data.ts`. docs/detection.md lists these.
 *
 * @module
 */

/**
 * Claude Code says it will go on by itself at the reset: the footer's `Continuing automatically at
 * 9:44pm · Esc to cancel` (2.1.332). With a limit row on screen, a Claude that waits for its own
 * reset is at its limit.
 */
export const CLAUDE_WAITS_FOR_RESET: RegExp = /\bcontinu(?:e|ing) automatically\b/i;

/**
 * Claude Code's own `●` notices after its limit row (2.1.332: `● Usage limit reached · set to
 * continue automatically at 9:44pm`, `● Automatic continue cancelled · /rate-limit-options to wait
 * again`): they leave the limit row the last thing the turn shows.
 */
export const CLAUDE_NOTICES: RegExp =
  /\blimit\b|\bcontinue automatically\b|\bautomatic continue\b/i;

/**
 * The titles of OpenCode's "Free limit reached" / "Go limit reached" dialogs: their text counts
 * only under one.
 */
export const OPENCODE_DIALOG_TITLES: RegExp = /^(?:Free|Go) limit reached\b/;

/**
 * Auggie: a `⚠️` account row (reported, diegosouzapw/OmniRoute#6304, cubezhao/augment-code-auto#14,
 * BasicProtein/AugmentCode-Free#74): out of usage, an inactive subscription, restricted access.
 */
export const AUGGIE_ACCOUNT: RegExp =
  /^⚠️?\s*((?:You have run out of usage|Your subscription for \S+ is inactive|Your access has been restricted|Your account \S+ has been suspended)\b.*?)(?:\s*⚠️)?$/u;

/** Auggie: the final `❌` row, and the retry row it shows while it retries. */
export const AUGGIE_FINAL: RegExp = /^❌\s*(Rate limit exceeded: .*)$/;
/** Auggie's retry row (after its spinner glyph). */
export const AUGGIE_RETRY: RegExp =
  /^(?:[^\p{L}\p{N}\s]\s*)?(Rate limit reached\. Retrying in (\d+)s…?)/u;

/** aider: its error rows (column 0) and the retry notice below them. */
export const AIDER_ERROR: RegExp =
  /^((?:litellm\.)?RateLimitError: .*|The API provider has rate limited you\..*)$/;
/** aider's retry notice. */
export const AIDER_RETRY: RegExp = /^Retrying in (\d+(?:\.\d+)?) seconds/;

/**
 * Crush: its `ERROR` tag at the start of a row, titled "Too Many Requests" (its provider's 429,
 * charmbracelet/crush#3024) or, from its source (internal/agent/agent.go), "No credits",
 * "Payment Required", "Monthly quota reached" (Hyper).
 */
export const CRUSH_ERROR: RegExp =
  /^ERROR\s+((?:Too many requests|No credits|Payment Required|Monthly quota reached)\b.*)$/i;

/** Crush titles that are a usage limit whatever the provider's text says. */
export const CRUSH_USAGE_TITLES: RegExp =
  /^(?:No credits|Payment Required|Monthly quota reached)\b/i;

/** Words that make a rate-limit text a usage (quota) limit, for agents that print one kind. */
export const USAGE_WORDS: RegExp = /quota|insufficient_quota|billing|credits|plan\b/i;
