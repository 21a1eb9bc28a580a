/**
 * The usage-limit messages each agent prints, as data: the texts that mean a limit (matched only
 * where that agent draws its own errors; the anchors live in each adapter's detector) and the
 * look-alikes that are deliberately not a limit. Sources: PROVIDERS.md §4 and the messages users
 * reported in 2025–2026 (issue 14, issue 17). docs/detection.md lists these.
 *
 * @module
 */
import type { LimitRule } from "./screen_text.ts";

/** Claude Code: the text of the `⎿` row answering the latest prompt (anchored at its start). */
export const CLAUDE_LIMITS: readonly LimitRule[] = [
  // You've hit your limit · resets 11pm (America/Anchorage); … session / weekly / Opus limit …
  { re: /^You['’]ve hit your (?:[\w'’ .-]+? )?limit\b/, kind: "usage" },
  // You're out of extra usage · resets 7pm (Europe/Madrid); You're out of usage credits
  { re: /^You['’]re out of (?:extra )?usage\b/, kind: "usage" },
  // 5-hour limit reached ∙ resets 5am (older)
  {
    re: /^(?:\d+-hour|[Ww]eekly|Opus(?: weekly)?|Sonnet(?: weekly)?) limit reached/,
    kind: "usage",
  },
  // Claude usage limit reached. Your limit will reset at 9am (America/Chicago). (older)
  { re: /^Claude (?:AI )?usage limit reached/, kind: "usage" },
  { re: /^API Error: Request rejected \(429\)/, kind: "rate", final: true },
];

/** Claude Code texts on the same row that are not the user's limit. */
export const CLAUDE_NOT_LIMITS: readonly RegExp[] = [
  // API Error: Server is temporarily limiting requests (not your usage limit) · …
  /not your usage limit/,
  // You've used 90% of your session limit · resets … (a warning; the turn goes on)
  /^You['’]ve used \d+% of/,
  // Approaching your 5-hour usage limit — Claude will wrap up the current step. (2.1.246);
  // Approaching Opus usage limit · /model to use best available model (1.0.31)
  /^Approaching\b/i,
  // Claude Opus limit reached, now using Sonnet 4.5 (it fell back to another model and goes on)
  /\bnow using\b/i,
];

/**
 * Claude Code 2.1.332's footer under the input box while it waits for its own reset
 * (`⚠ Usage limit reached · limit resets 9:44pm`), matched besides CLAUDE_LIMITS: any "… limit
 * reached / hit / exceeded" or "out of usage" wording, since only Claude draws there.
 */
export const CLAUDE_FOOTER_LIMITS: readonly LimitRule[] = [
  { re: /^(?:[\w'’ -]+ )?limits? (?:reached|hit|exceeded)\b/i, kind: "usage" },
  { re: /^(?:You['’]re )?out of (?:extra |included )?usage\b/i, kind: "usage" },
];

/** Footer texts that are not a limit: the warnings and fallbacks above, and a transient retry. */
export const CLAUDE_FOOTER_NOT_LIMITS: readonly RegExp[] = [
  ...CLAUDE_NOT_LIMITS,
  /\bretrying\b|\bretry in\b/i,
];

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

/** Codex CLI: the text of a `■ ` history cell (column 0). */
export const CODEX_LIMITS: readonly LimitRule[] = [
  // You’ve hit your usage limit. Upgrade to Pro (…) or try again at 3:02 AM. / … in 5 days …
  { re: /^You['’]ve hit your usage limit/, kind: "usage" },
  { re: /^Usage limit reached\. You['’]ve reached your usage limit/, kind: "usage" },
  { re: /^Quota exceeded\. Check your plan and billing details/, kind: "usage" },
  // You hit your spend cap set by the owner of your workspace. Ask an owner to increase … (no reset)
  { re: /^You hit your spend cap\b/, kind: "usage" },
  { re: /^exceeded retry limit, last status: 429/, kind: "rate", final: true },
];

/** Gemini CLI: a paragraph of the limit dialog (a box that offers `● 1. …`). */
export const GEMINI_DIALOG_LIMITS: readonly LimitRule[] = [
  { re: /Usage limit reached for [^.\n]+\./, kind: "usage" },
  { re: /You have exhausted your daily quota/, kind: "usage" },
  { re: /You have reached your daily quota limit/, kind: "usage" },
  { re: /You have exhausted your capacity on this model/, kind: "usage" },
  { re: /We are currently experiencing high demand for/, kind: "rate", final: true },
];

/** Gemini CLI: the text of its own `✕ [API Error: …]` row. */
export const GEMINI_ERROR_LIMITS: readonly LimitRule[] = [
  // [API Error: You have exhausted your capacity on this model. Your quota will reset after 8h44m7s.]
  {
    re: /RESOURCE_EXHAUSTED|Resource has been exhausted|quota|exhausted your capacity/i,
    kind: "usage",
  },
  { re: /\b429\b|rate limit/i, kind: "rate", final: true },
];

/** Gemini CLI texts that are not a limit to hand off: it falls back to another model by itself. */
export const GEMINI_NOT_LIMITS: readonly RegExp[] = [
  // You have reached your daily gemini-2.5-pro quota limit. / Automatically switching from
  // gemini-2.5-pro to gemini-2.5-flash for the remainder of this session.
  /Automatically switching from \S+ to \S+/,
];

/** Qwen Code: the text of its own `✕ [API Error: …]` row. */
export const QWEN_API_LIMITS: readonly LimitRule[] = [
  // [API Error: 429 Free allocated quota exceeded.]; … You exceeded your current quota …
  { re: /quota|exhausted|billing|free tier has been discontinued/i, kind: "usage" },
  { re: /\b429\b|rate limit/i, kind: "rate", final: true },
];

/** Qwen Code: the text of its own `✕` row that is not an API error line. */
export const QWEN_LINE_LIMITS: readonly LimitRule[] = [
  { re: /^Quota exhausted: /, kind: "usage" },
  // Qwen OAuth free tier quota exceeded. / Qwen OAuth quota exceeded: …
  {
    re: /^Qwen OAuth (?:(?:free tier )?quota exceeded|free tier has been discontinued)/,
    kind: "usage",
  },
];

/** GitHub Copilot CLI: the text of its own `✗` row (column 0), from its start. */
export const COPILOT_LIMITS: readonly LimitRule[] = [
  {
    re:
      /^(?:Sorry, )?you(?:['’]ve| have) (?:hit (?:your|the|a) (?:session )?rate limit|reached your weekly rate limit|been rate[- ]limited|run out of your (?:included )?AI credits|exceeded your \d+ hour session limits|reached the spending limit)/i,
    kind: "usage",
  },
  // 402 {"error":{"message":"You have no quota","code":"quota_exceeded"}}
  {
    re: /^(?:\w+ ?(?:error|failed):? )?40[29] .*(?:quota_exceeded|You have no quota)/i,
    kind: "usage",
  },
  // Failed to get response from the AI model; retried 5 times … Last error: 429 You exceeded
  // your current quota … (a user's own provider)
  {
    re:
      /^Failed to get response from the AI model; retried \d+ times.*Last error: .*(?:quota|insufficient_quota|billing)/i,
    kind: "usage",
  },
  {
    re: /^Failed to get response from the AI model; retried \d+ times.*Last error: 429\b/i,
    kind: "rate",
    final: true,
  },
  { re: /user_(?:weekly|global|model)_rate_limited/, kind: "usage" },
];

/** OpenCode / Kilo: the provider text in the retry footer or the final `┃` error block. */
export const OPENCODE_PROVIDER_LIMITS: readonly LimitRule[] = [
  // OpenAI's per-minute limit ends "…adding a payment method … /account/billing": not a quota.
  { re: /^Rate limit reached for \S+ .*\bper (?:min|minute|day)\b/i, kind: "rate" },
  {
    re:
      /quota|usage limit|free usage exceeded|billing|credits|insufficient_quota|limit reached\. It will reset/i,
    kind: "usage",
  },
  {
    re: /rate.?limit|too many requests|\b429\b|overloaded|limit reached|try again shortly/i,
    kind: "rate",
  },
];

/** OpenCode / Kilo provider texts that are connection trouble, neither kind of limit. */
export const OPENCODE_NOT_LIMITS: readonly RegExp[] = [
  /Cannot connect to API|Unable to connect|ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|network error|socket hang up|getaddrinfo/i,
];

/** OpenCode: the text of its "Free limit reached" / "Go limit reached" dialogs. */
export const OPENCODE_DIALOG_LIMITS: readonly LimitRule[] = [
  { re: /Free usage exceeded, subscribe to Go/, kind: "usage" },
  { re: /\busage limit reached\. It will reset in [^.]+/, kind: "usage" },
];

/** The title rows of those dialogs: a dialog's text counts only under one. */
export const OPENCODE_DIALOG_TITLES: RegExp = /^(?:Free|Go) limit reached\b/;

/** Kilo adds these fixed strings (footer, error block or dialog). */
export const KILO_EXTRA_LIMITS: readonly LimitRule[] = [
  { re: /You need to sign up to keep going/, kind: "usage" },
  { re: /Provider rate limit exceeded\. Please try again shortly\./, kind: "rate" },
];

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

/**
 * pi: the provider's text on its own `Error: …` row (after `Error: ` and, once its retries are
 * spent, `Retry failed after N attempts: `). pi shows the provider's error as the provider sent
 * it, so these are the providers' own quota wordings.
 */
export const PI_LIMITS: readonly LimitRule[] = [
  // 429 You exceeded your current quota, please check your plan and billing details. …;
  // Codex error: {"type":"error","error":{"type":"usage_limit_reached",…}}; 429 rate_limit_error:
  // This request would exceed your account's monthly spend limit. Please try again later.
  {
    re:
      /usage_limit_reached|insufficient_quota|exceeded your current quota|\bquota exceeded|exhausted your (?:daily )?quota|spend(?:ing)? (?:limit|cap)|out of (?:credits|extra usage)|credit balance is too low|hit your (?:[\w-]+ )?(?:usage )?limit/i,
    kind: "usage",
  },
  // 429 status code (no body); 429 Too Many Requests; rate_limit_error …
  { re: /\b429\b|rate.?limit|too many requests/i, kind: "rate" },
];

/** pi provider texts that look like a quota but are a per-minute limit or a capacity shortage. */
export const PI_NOT_USAGE: readonly RegExp[] = [
  /PerMinute|per minute|No capacity available|MODEL_CAPACITY_EXHAUSTED/i,
];
