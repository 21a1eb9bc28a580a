/**
 * The limit screens the detector tests use: each message users reported, in its agent's framing,
 * with the reset time expected for a fixed clock and zone, and the screens that only quote one.
 * Shared by the adapter tests and the `uuldana debug detect` test.
 *
 * @module
 */
import type { DetectOptions, LimitHit } from "./adapter.ts";
import {
  claude332Screen,
  claudeScreen,
  codexScreen,
  copilotScreen,
  finalScreen,
  geminiDialog,
  geminiScreen,
  kiloScreen,
  OPENCODE_IDLE_FOOTER,
  opencodeScreen,
  piScreen,
  qwenScreen,
  qwenScreenAtColumn2,
} from "./_limit_screens_test_util.ts";

// A fixed clock and zone: every reset time below is resolved against them.
/** The clock every expected reset time is resolved against (zone UTC). */
export const NOW = "2026-03-10T02:00:00Z";
/** Detection options with that clock, zone and width. */
export const OPTS: DetectOptions = { now: new Date(NOW), cols: 120, timeZone: "UTC" };
const ESC = "                                 esc interrupt";

/** One screen and what detection must find on it. */
export interface Case {
  name: string;
  agent: string;
  screen: string[];
  /** Expected kind and reset time; null: no limit. */
  expect: { kind: LimitHit["kind"]; resetsAt: string | null; handOff?: boolean } | null;
  /** A piece the hit's message must hold. */
  holds?: string;
}

// The messages users reported (issue 14, issue 17), each in its agent's real framing.
// Claude Code 2.1.332's limit row and its own notice, as its limit recording shows them.
const CLAUDE_332_LIMIT = [
  "  ⎿ \u00a0You've hit your 5-hour limit · resets 9:44pm (UTC)",
  "",
  "● Usage limit reached · set to continue automatically at 9:44pm",
];

/** The reported messages, each in its agent's framing. */
export const REAL: Case[] = [
  {
    name: "claude: hit your limit, Alaska",
    agent: "claude",
    screen: claudeScreen(["  ⎿  You've hit your limit · resets 11pm (America/Anchorage)"], "menu"),
    expect: { kind: "usage", resetsAt: "2026-03-10T07:00:00.000Z" },
  },
  {
    name: "claude: out of extra usage (not detected before)",
    agent: "claude",
    screen: claudeScreen(["  ⎿  You're out of extra usage · resets 7pm (Europe/Madrid)"]),
    expect: { kind: "usage", resetsAt: "2026-03-10T18:00:00.000Z" },
  },
  {
    name: "claude: session limit with the /login line",
    agent: "claude",
    screen: claudeScreen([
      "  ⎿  You've hit your session limit · resets 5:40pm (Europe/Berlin)",
      "     /login to switch to an API usage-billed account.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T16:40:00.000Z" },
    holds: "/login to switch",
  },
  {
    name: "claude: weekly limit with a date",
    agent: "claude",
    screen: claudeScreen(
      ["  ⎿  You've hit your weekly limit · resets Jul 27 at 4:30am (Asia/Calcutta)"],
      "menu",
    ),
    expect: { kind: "usage", resetsAt: "2026-07-26T23:00:00.000Z" },
  },
  {
    name: "claude: limit with the /usage-credits line",
    agent: "claude",
    screen: claudeScreen([
      "  ⎿  You've hit your limit · resets 8:50pm (UTC)",
      "     /usage-credits to request more usage from your admin.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T20:50:00.000Z" },
  },
  {
    name: "claude: older 5-hour limit, no zone (the local zone)",
    agent: "claude",
    screen: claudeScreen(["  ⎿  5-hour limit reached ∙ resets 5am"]),
    expect: { kind: "usage", resetsAt: "2026-03-10T05:00:00.000Z" },
  },
  {
    name: "claude: older usage limit reached",
    agent: "claude",
    screen: claudeScreen([
      "  ⎿  Claude usage limit reached. Your limit will reset at 9am (America/Chicago).",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T14:00:00.000Z" },
  },
  {
    name: "claude: a limit after a tool call of the turn (`●` header, its own `⎿` block)",
    agent: "claude",
    screen: claudeScreen([
      "● Bash(ls)",
      "  ⎿  notes.txt",
      "  ⎿  You've hit your limit · resets 8:50pm (UTC)",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T20:50:00.000Z" },
  },
  {
    name: "claude: a limit after a tool call of the turn (its own `⎿` block)",
    agent: "claude",
    screen: claudeScreen([
      "⏺ Bash(ls)",
      "  ⎿  notes.txt",
      "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
    ], "menu"),
    expect: { kind: "usage", resetsAt: "2026-03-10T03:01:00.000Z" },
  },
  {
    name: "claude 2.1.332: waiting for its own reset (limit row, `●` notice, footer)",
    agent: "claude",
    screen: claude332Screen(CLAUDE_332_LIMIT, "waiting"),
    expect: { kind: "usage", resetsAt: "2026-03-10T21:44:00.000Z" },
    holds: "You've hit your 5-hour limit",
  },
  {
    name: "claude 2.1.332: the footer alone, the turn scrolled away",
    agent: "claude",
    screen: claude332Screen(
      Array.from({ length: 24 }, (_, i) => `  line ${i + 1} of a long answer`),
      "waiting",
      false,
    ),
    expect: { kind: "usage", resetsAt: "2026-03-11T01:15:00.000Z" },
    holds: "Continuing automatically at 1:15am",
  },
  {
    name: "claude 2.1.332: a limit row in words never seen, the footer waiting",
    agent: "claude",
    screen: claude332Screen([
      "  ⎿  Your Opus allowance is spent for now · back at 9:44pm (UTC)",
      "",
      "● Usage limit reached · set to continue automatically at 1:15am",
    ], "waiting"),
    expect: { kind: "usage", resetsAt: "2026-03-11T01:15:00.000Z" },
    holds: "Usage limit reached",
  },
  {
    name: "claude 2.1.332: the footer in other words (weekly, a date)",
    agent: "claude",
    screen: claude332Screen([], {
      footer: [
        "  ⚠ Weekly limit reached · resets Dec 6, 1:15am",
        "    Continuing automatically Dec 6, 1:15am · Esc to cancel",
        "  ⏵⏵ auto mode on (shift+tab to cycle)",
      ],
    }, false),
    expect: { kind: "usage", resetsAt: "2026-12-06T01:15:00.000Z" },
  },
  {
    name: "claude 2.1.332: the limit reached again",
    agent: "claude",
    screen: claude332Screen([
      "  ⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)",
      "",
      "● Usage limit reached again · set to continue automatically at 9:44pm",
    ], {
      footer: [
        "  ⚠ Usage limit reached again · limit resets 9:44pm",
        "    Continuing automatically at 9:44pm · Esc to cancel",
      ],
    }),
    expect: { kind: "usage", resetsAt: "2026-03-10T21:44:00.000Z" },
  },
  {
    name: "claude 2.1.332: automatic continue cancelled (Esc), Claude idle at its limit",
    agent: "claude",
    screen: claude332Screen([
      "  ⎿ \u00a0You've hit your 5-hour limit · resets 9:44pm (UTC)",
      "     /upgrade to increase your usage limit.",
      "",
      "● Usage limit reached · set to continue automatically at 9:44pm",
      "",
      "● Automatic continue cancelled · /rate-limit-options to wait again",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T21:44:00.000Z" },
    holds: "/upgrade to increase",
  },
  {
    name: "claude 2.1.332: the weekly limit's menu (a `▔` row above it)",
    agent: "claude",
    screen: claude332Screen(
      ["  ⎿ \u00a0You've hit your weekly limit · resets Dec 6, 1:15am (UTC)"],
      "menu",
    ),
    expect: { kind: "usage", resetsAt: "2026-12-06T01:15:00.000Z" },
  },
  {
    name: "claude 2.1.332: the limit after a collapsed tool group (Ran 1 shell command)",
    agent: "claude",
    screen: claude332Screen(["", "  Ran 1 shell command", ...CLAUDE_332_LIMIT], "waiting"),
    expect: { kind: "usage", resetsAt: "2026-03-10T21:44:00.000Z" },
    holds: "You've hit your 5-hour limit",
  },
  {
    name: "codex: try again in days, hours, minutes",
    agent: "codex",
    screen: codexScreen([
      "■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again in 5 days 22 hours 11",
      "minutes.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-16T00:11:00.000Z" },
  },
  {
    name: "codex: try again at a date",
    agent: "codex",
    screen: codexScreen([
      "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/",
      "usage to purchase more credits or try again at Apr 28th, 2026 10:03 PM.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-04-28T22:03:00.000Z" },
  },
  {
    name: "codex: spend cap (not detected before; no reset)",
    agent: "codex",
    screen: codexScreen([
      "■ You hit your spend cap set by the owner of your workspace. Ask an owner to increase your spend cap to continue.",
    ]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "copilot: rate limit, try again in 58 hours",
    agent: "copilot",
    screen: copilotScreen([
      "✗ Sorry, you've hit a rate limit that restricts the number of Copilot model requests you can make within a",
      "  specific time period. Please try again in 58 hours.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-12T12:00:00.000Z" },
  },
  {
    name: "copilot: with its input box drawn as a box",
    agent: "copilot",
    screen: [
      ...copilotScreen(["✗ You've hit your rate limit. Your limit resets in 2 hours."]).slice(
        0,
        -4,
      ),
      "╭" + "─".repeat(118) + "╮",
      "│ ❯ Type @ to mention files".padEnd(119) + "│",
      "╰" + "─".repeat(118) + "╯",
    ],
    expect: { kind: "usage", resetsAt: "2026-03-10T04:00:00.000Z" },
  },
  {
    name: "copilot: 402 no quota (not detected before)",
    agent: "copilot",
    screen: copilotScreen([
      '✗ 402 {"error":{"message":"You have no quota","code":"quota_exceeded"}}',
    ]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "copilot: a user's own provider out of quota (issue 17)",
    agent: "copilot",
    screen: copilotScreen([
      "✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 6.4 seconds) Last error: 429",
      "  You exceeded your current quota, please check your plan and billing details.",
    ]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "gemini: the quota dialog (the recording's final screen)",
    agent: "gemini",
    screen: finalScreen("gemini-limit-quota-dialog"),
    expect: { kind: "usage", resetsAt: "2026-03-10T03:06:00.000Z" },
  },
  {
    name: "gemini: single-model dialog with an offset zone",
    agent: "gemini",
    screen: geminiDialog([
      "Usage limit reached for gemini-3-flash-preview.",
      "Access resets at 10:57 PM GMT-3.",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-11T01:57:00.000Z" },
  },
  {
    name: "gemini: capacity exhausted with its reset",
    agent: "gemini",
    screen: geminiScreen([
      "✕ [API Error: You have exhausted your capacity on this model. Your quota will reset after 8h44m7s.]",
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T10:44:07.000Z" },
  },
  {
    name: "qwen: free allocated quota",
    agent: "qwen",
    screen: qwenScreen(["✕ [API Error: 429 Free allocated quota exceeded.]"]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "qwen: OAuth free tier quota",
    agent: "qwen",
    screen: qwenScreen(["✕ Qwen OAuth free tier quota exceeded."]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "qwen: quota error while it retries (its retry notice)",
    agent: "qwen",
    screen: qwenScreen([
      "✕ [API Error: 429 You exceeded your current quota, please check your plan and billing details.] (Retrying in 37s…",
      "  (attempt 1/10))",
      "↻ Retrying in 37 seconds… (attempt 1/10)",
    ], true),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "qwen 0.24.4: DashScope's quota 429 at column 2 while it retries (real-agent matrix)",
    agent: "qwen",
    screen: qwenScreenAtColumn2([
      "  ✕ [API Error: 429 Free allocated quota exceeded.] (Retrying in 38s… (attempt 1/10))",
      "  ↻ Retrying in 38 seconds… (attempt 1/10)",
    ], true),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name:
      "copilot 1.0.102: a provider's 429 after its retries, its turn at column 1 (real-agent matrix)",
    agent: "copilot",
    screen: copilotScreen([
      " ❯ and a test for it",
      " ✗ Failed to get response from the AI model; retried 5 times (total retry wait time: 63.30 seconds) Last error: 429 You",
      "   exceeded your current quota, please check your plan and billing details. For more information on this error, read the",
      "   docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    ]),
    expect: { kind: "usage", resetsAt: null },
  },
  {
    name: "pi 0.73.1: a provider's quota 429 while pi retries (recorded against the mock)",
    agent: "pi",
    screen: piScreen([
      " Error: 429 You exceeded your current quota, please check your plan and billing details. For more information on this",
      " error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    ], "⠴ Retrying (1/3) in 2s... (escape to cancel)"),
    expect: { kind: "usage", resetsAt: null, handOff: true },
  },
  {
    name: "pi 0.73.1: a per-minute 429 at its first retry: not yet",
    agent: "pi",
    screen: piScreen([
      " Error: 429 Rate limit reached for mock-1 in organization org-mock on requests per min (RPM): Limit 3, Used 3,",
      " Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.",
    ], "⠴ Retrying (1/3) in 2s... (escape to cancel)"),
    expect: { kind: "rate", resetsAt: "2026-03-10T02:00:20.000Z", handOff: false },
  },
  {
    name: "pi: ChatGPT-plan usage_limit_reached with its reset (earendil-works/pi#4172, pi 0.73.0)",
    agent: "pi",
    screen: piScreen([
      ' Error: Retry failed after 3 attempts: Codex error: {"type":"error","error":{"type":"usage_limit_reached","message":"The',
      ' usage limit has been reached","plan_type":"plus","resets_at":1773111600,"eligible_promo":null,"resets_in_seconds":13872},',
      ' "status_code":429}',
    ]),
    expect: { kind: "usage", resetsAt: "2026-03-10T03:00:00.000Z", handOff: true },
  },
  {
    name: "pi: Anthropic's monthly spend limit (earendil-works/pi#9849, pi 0.86.1)",
    agent: "pi",
    screen: piScreen([
      " Error: 429 rate_limit_error: This request would exceed your account's monthly spend limit. Please try again later.",
    ], "⠙ Retrying (2/3) in 4s... (escape to cancel)"),
    expect: { kind: "usage", resetsAt: null, handOff: true },
  },
  {
    name: "pi: a bodiless 429 after its retries (fullsend-ai/fullsend#7191): it gave up",
    agent: "pi",
    screen: piScreen([" Error: Retry failed after 3 attempts: 429 status code (no body)"]),
    expect: { kind: "rate", resetsAt: null, handOff: true },
  },
  {
    name: "crush: a provider's 429 beside its side panel (charmbracelet/crush#3024)",
    agent: "crush",
    screen: [
      "  > add the endpoint",
      "",
      "    ERROR  Too Many Requests                                                                                      ● gopls H82 I1",
      "",
      '   POST "https://api.fireworks.ai/inference/v1/messages": 429 Too Many Requests                                   MCPs ────────────────────────',
      '   {"error":{"type":"invalid_request_error","message":"rate limit exceeded, please try again',
      '   later"},"type":"error"}',
    ],
    // Crush retried it quietly (about 7 s) before it showed: the turn is over.
    expect: { kind: "rate", resetsAt: null, handOff: true },
    holds: "429 Too Many Requests",
  },
  {
    name: "crush: Hyper out of credits (internal/agent/agent.go; a reported 402)",
    agent: "crush",
    screen: [
      "  > add the endpoint",
      "",
      "  ERROR  No credits",
      "  You're out of credits. Add more at https://hyper.charm.land",
    ],
    expect: { kind: "usage", resetsAt: null, handOff: true },
    holds: "out of credits",
  },
  {
    name: "crush: Hyper team quota (charmbracelet/crush PR #3508)",
    agent: "crush",
    screen: [
      "  ERROR  Monthly quota reached",
      "  You reached your monthly spending quota. A team admin can manage quotas in the dashboard.",
    ],
    expect: { kind: "usage", resetsAt: null, handOff: true },
  },
  {
    name: "auggie: out of usage (diegosouzapw/OmniRoute#6304)",
    agent: "auggie",
    screen: [
      "› add the endpoint",
      "",
      "⚠️ You have run out of usage for account dev@example.com",
      "",
      "› ",
    ],
    expect: { kind: "usage", resetsAt: null, handOff: true },
  },
  {
    name: "auggie: an inactive subscription (cubezhao/augment-code-auto#14)",
    agent: "auggie",
    screen: [
      "› add the endpoint",
      "",
      "⚠️ Your subscription for dev@example.com is inactive. Please update your plan [here](https://app.augmentcode.com/account) to continue using Augment. ⚠️",
      "",
      "› ",
    ],
    expect: { kind: "usage", resetsAt: null, handOff: true },
    holds: "is inactive",
  },
  {
    name: "auggie: its final rate-limit row [from binary]",
    agent: "auggie",
    screen: ["› add the endpoint", "", "❌ Rate limit exceeded: too many requests", "", "› "],
    expect: { kind: "rate", resetsAt: null, handOff: true },
  },
  {
    name: "opencode: retry footer wrapped at 120 columns (issue 17)",
    agent: "opencode",
    screen: opencodeScreen([], [
      "   ⬝⬝⬝⬝⬝⬝⬝⬝ You exceeded your current quota, please check your plan and billing details. For… (click to expand) [retrying in",
      "   16s attempt #4]" + ESC,
    ]),
    expect: { kind: "usage", resetsAt: null, handOff: true },
    holds: "[retrying in 16s attempt #4]",
  },
  {
    name: "kilo: retry footer wrapped before `in`",
    agent: "kilo",
    screen: kiloScreen([], [
      "   ⬝⬝⬝⬝⬝⬝⬝⬝ Rate limit reached for requests. Please try again later. For more information… (click to expand) [retrying",
      "   in 1m 4s attempt #4]" + ESC,
    ]),
    expect: { kind: "rate", resetsAt: null, handOff: true },
  },
  {
    name: "opencode: the final `┃` error block once it stopped retrying (issue 17)",
    agent: "opencode",
    screen: opencodeScreen([
      "",
      "  ┃",
      "  ┃  You exceeded your current quota, please check your plan and billing details. For more information on this",
      "  ┃  error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
      "  ┃",
    ], [OPENCODE_IDLE_FOOTER]),
    expect: { kind: "usage", resetsAt: null, handOff: true },
  },
  {
    name: "kilo: the final `┃` error block, rate limit given up",
    agent: "kilo",
    screen: kiloScreen([
      "",
      "  ┃",
      "  ┃  Provider rate limit exceeded. Please try again shortly.",
      "  ┃",
    ], [OPENCODE_IDLE_FOOTER]),
    expect: { kind: "rate", resetsAt: null, handOff: true },
  },
  {
    name: "opencode: the retry recording's own footer (attempt 1: not yet)",
    agent: "opencode",
    screen: opencodeScreen([], [
      "   ⬝⬝⬝⬝⬝⬝⬝⬝ Rate limit reached for requests [retrying in 13s attempt #1]" + ESC,
    ]),
    expect: { kind: "rate", resetsAt: null, handOff: false },
  },
];

// Screens that only quote a limit message (or show one before the latest turn): never a limit.
/** Quotes, and limits before the latest turn or without the second signal. */
export const QUOTES: Case[] = [
  {
    name: "claude: `cat notes.txt` whose first line is Claude's limit line; the turn ends there",
    agent: "claude",
    screen: claudeScreen([
      "⏺ Bash(cat notes.txt)",
      "  ⎿  You've hit your limit · resets 11pm (America/Anchorage)",
      "     remember to ask for more credits",
    ]),
    expect: null,
  },
  {
    name: "claude: real Claude 2.1.197 in tmux (`●` header), a script printing its limit line",
    agent: "claude",
    screen: claudeScreen([
      "● Bash(sh show-notes.sh)",
      "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
      "     Remember to ask for more credits.",
    ]).map((r) => r === "❯ hello from handoff" ? "❯ show me notes.txt" : r),
    expect: null,
  },
  {
    name: "claude: the same tool output, Claude answering after it",
    agent: "claude",
    screen: claudeScreen([
      "⏺ Bash(cat notes.txt)",
      "  ⎿  You've hit your session limit · resets 5:40pm (Europe/Berlin)",
      "",
      "⏺ The file holds a copy of a limit message.",
    ]),
    expect: null,
  },
  {
    name: "claude: a grep result on a `⎿` row",
    agent: "claude",
    screen: claudeScreen([
      '⏺ Bash(grep -rn "hit your" src)',
      "  ⎿  src/limits.ts:3: You've hit your session limit · resets 3:01am (UTC)",
    ]),
    expect: null,
  },
  {
    name: "claude: a real limit, but before the latest submit",
    agent: "claude",
    screen: claudeScreen([
      "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
      "",
      "❯ try again",
      "",
      "⏺ Done.",
    ]),
    expect: null,
  },
  {
    name: "claude: the limit row while Claude is still busy (no second signal)",
    agent: "claude",
    screen: claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "busy"),
    expect: null,
  },
  {
    name: "claude: the 90% warning",
    agent: "claude",
    screen: claudeScreen(["  ⎿  You've used 90% of your session limit · resets 3:01am (UTC)"]),
    expect: null,
  },
  {
    name: "claude: the server throttle that is not the user's limit",
    agent: "claude",
    screen: claudeScreen([
      "  ⎿  API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited",
    ]),
    expect: null,
  },
  {
    name: "claude 2.1.332: a reply's `●` row in the words of Claude's notice, nothing else",
    agent: "claude",
    screen: claude332Screen([
      "",
      "● Usage limit reached · set to continue automatically at 9:44pm",
      "",
      "✻ Worked for 1s · done 9:38 PM",
    ]),
    expect: null,
  },
  {
    name: "claude 2.1.332: a warning in the footer",
    agent: "claude",
    screen: claude332Screen(["", "● Done."], {
      footer: [
        "  ⚠ Approaching your 5-hour limit · resets 9:44pm",
        "  ⏵⏵ auto mode on (shift+tab to cycle)",
      ],
    }),
    expect: null,
  },
  {
    name: "claude 2.1.332: still busy (spinner, esc to interrupt) under a limit row",
    agent: "claude",
    screen: claude332Screen(["  ⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)"], "busy"),
    expect: null,
  },
  {
    name: "claude 2.1.332: slash-command suggestions under the box",
    agent: "claude",
    screen: claude332Screen(["", "● Done."], {
      footer: [
        "  /extra-usage          Keep working when your usage limit is reached",
        "  /rate-limit-options   Usage limit reached? See what you can do",
      ],
    }),
    expect: null,
  },
  {
    name: "claude 2.1.332: a reply with two `⎿` rows under its own `●` (not a tool call)",
    agent: "claude",
    screen: claude332Screen([
      "",
      "● Your log had these two lines:",
      "  ⎿  Ran 1 shell command",
      "  ⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)",
      "",
      "✻ Churned for 1s · done 10:08 PM",
    ]),
    expect: null,
  },
  {
    name: "claude 2.1.332: 'Continuing automatically' with no limit named anywhere",
    agent: "claude",
    screen: claude332Screen(["", "● Done."], {
      footer: ["    Continuing automatically at 9:44pm · Esc to cancel"],
    }),
    expect: null,
  },
  {
    name: "codex: exec output quoting `■`",
    agent: "codex",
    screen: codexScreen([
      "• Ran cat notes.txt",
      "  └ ■ You’ve hit your usage limit. Try again at 3:02 AM.",
      "",
      "• The file quotes an old limit message.",
    ]),
    expect: null,
  },
  {
    name: "codex: a reply quoting the message on an indented row",
    agent: "codex",
    screen: codexScreen([
      "• Earlier Codex said:",
      "  ■ You’ve hit your usage limit. Try again at 3:02 AM.",
    ]),
    expect: null,
  },
  {
    name: "codex: a real `■` limit before the latest submit",
    agent: "codex",
    screen: codexScreen([
      "■ You’ve hit your usage limit. Try again at 3:02 AM.",
      "",
      "› continue please",
      "",
      "• Continuing.",
    ]),
    expect: null,
  },
  {
    name: "codex: the `■` row while Codex is still working",
    agent: "codex",
    screen: codexScreen(["■ You’ve hit your usage limit. Try again at 3:02 AM."], true),
    expect: null,
  },
  {
    name: "gemini: a code block in a reply holding `✕ [API Error: … quota`",
    agent: "gemini",
    screen: geminiScreen([
      "✦ The log shows:",
      "",
      "  ✕ [API Error: You have exhausted your daily quota on this model. (Status: RESOURCE_EXHAUSTED)]",
    ]),
    expect: null,
  },
  {
    name: "gemini: a shell tool's box quoting the dialog text (no choice offered)",
    agent: "gemini",
    screen: geminiScreen([
      "╭──────────────────────────────────────────────╮",
      "│ ✓  Shell cat notes.txt                       │",
      "│                                              │",
      "│ Usage limit reached for all Pro models.      │",
      "│ Access resets at 3:06 AM UTC.                │",
      "╰──────────────────────────────────────────────╯",
    ]),
    expect: null,
  },
  {
    name: "gemini: daily quota with the automatic switch to Flash (it goes on by itself)",
    agent: "gemini",
    screen: geminiScreen([
      "✕ [API Error: You have reached your daily gemini-2.5-pro quota limit.]",
      "ℹ Automatically switching from gemini-2.5-pro to gemini-2.5-flash for the remainder of this session.",
    ]),
    expect: null,
  },
  {
    name: "qwen: reply text starting with `Quota exhausted:`",
    agent: "qwen",
    screen: qwenScreen([
      "✦ Here is what the server returned:",
      "  Quota exhausted: you have used all requests for today",
    ]),
    expect: null,
  },
  {
    name: "qwen 0.24.4: its reply (column 4) quoting its API error line",
    agent: "qwen",
    screen: qwenScreenAtColumn2([
      "  ◆ The log shows:",
      "    ✕ [API Error: 429 Free allocated quota exceeded.]",
    ]),
    expect: null,
  },
  {
    name: "qwen 0.24.4: an error line at column 2 under an echo at column 0 (not its layout)",
    agent: "qwen",
    screen: qwenScreen(["  ✕ [API Error: 429 Free allocated quota exceeded.]"]),
    expect: null,
  },
  {
    name: "copilot 1.0.102: its reply (column 3) quoting its failure line",
    agent: "copilot",
    screen: copilotScreen([
      " ❯ what did the log say",
      " ● The log says:",
      "   ✗ Failed to get response from the AI model; retried 5 times Last error: 429 You exceeded your current quota",
    ]),
    expect: null,
  },
  {
    name: "qwen: a code block holding its API error line",
    agent: "qwen",
    screen: qwenScreen([
      "✦ The log shows:",
      "  ✕ [API Error: 429 Free allocated quota exceeded.]",
    ]),
    expect: null,
  },
  {
    name: "opencode: assistant text holding `usage limit reached`",
    agent: "opencode",
    screen: opencodeScreen([
      "",
      "     The console said: Go usage limit reached. It will reset in 2 hours. Visit the console.",
    ], [OPENCODE_IDLE_FOOTER]),
    expect: null,
  },
  {
    name: "opencode: a user block quoting the retry footer, answered",
    agent: "opencode",
    screen: opencodeScreen([
      "",
      "  ┃",
      "  ┃  why did I see: Rate limit reached for requests [retrying in 13s attempt #4]",
      "  ┃",
      "",
      "     That was a transient limit of the provider.",
      "",
      "     ▣  Build · Mock Model · 1.2s",
    ], [OPENCODE_IDLE_FOOTER]),
    expect: null,
  },
  {
    name: "kilo: prose holding its sign-up string",
    agent: "kilo",
    screen: kiloScreen([
      "",
      "     The gateway answers 'You need to sign up to keep going' to anonymous users.",
    ], [OPENCODE_IDLE_FOOTER]),
    expect: null,
  },
  {
    name: "opencode: connection trouble in the retry footer",
    agent: "opencode",
    screen: opencodeScreen([], [
      "   ⬝⬝⬝⬝⬝⬝⬝⬝ Cannot connect to API: ECONNREFUSED [retrying in 4s attempt #3]" + ESC,
    ]),
    expect: null,
  },
  {
    name: "copilot: a failed tool call whose output holds the rate-limit text",
    agent: "copilot",
    screen: copilotScreen([
      "✗ Run cat notes.txt",
      "  └ You've hit your rate limit. Your limit resets in 2 hours.",
    ]),
    expect: null,
  },
  {
    name: "copilot: a reply quoting its `✗` line",
    agent: "copilot",
    screen: copilotScreen([
      "● Earlier you saw:",
      "  ✗ You've hit your rate limit. Your limit resets in 2 hours.",
    ]),
    expect: null,
  },
  {
    name: "copilot: a real `✗` limit while a later turn runs",
    agent: "copilot",
    screen: copilotScreen(["✗ You've hit your rate limit. Your limit resets in 2 hours."], true),
    expect: null,
  },
  {
    name: "pi: its Error row while a retry runs again (its spinner says Working)",
    agent: "pi",
    screen: piScreen([" Error: 429 Rate limit reached for requests"], "⠙ Working..."),
    expect: null,
  },
  {
    name: "pi: a reply quoting an error, then the user's next turn",
    agent: "pi",
    screen: piScreen([
      " Error: 429 You exceeded your current quota, please check your plan and billing details.",
      "",
      "",
      " try again with the other key",
      "",
      "",
      " MOCKREPLY-2: noted.",
    ]),
    expect: null,
  },
  {
    name: "pi: a reply explaining a quota error (not its own Error row)",
    agent: "pi",
    screen: piScreen([
      " The log says: Error: 429 You exceeded your current quota, please check your plan and billing details.",
    ]),
    expect: null,
  },
  {
    name: "pi: an error that is not a limit",
    agent: "pi",
    screen: piScreen([" Error: No API key found for mock. Use /login or set an API key."]),
    expect: null,
  },
  {
    name: "auggie: a reply quoting `❌ Rate limit exceeded:`",
    agent: "auggie",
    screen: [
      "› hello",
      "",
      "● The server log has:",
      "  ❌ Rate limit exceeded: too many requests",
      "",
      "› ",
    ],
    expect: null,
  },
  {
    name: "auggie: a reply quoting its out-of-usage row",
    agent: "auggie",
    screen: [
      "› what did it say?",
      "",
      "● It said:",
      "  ⚠️ You have run out of usage for account dev@example.com",
      "",
      "› ",
    ],
    expect: null,
  },
  {
    name: "crush: prose holding `ERROR Too many requests`",
    agent: "crush",
    screen: [
      "  > why?",
      "",
      "   The provider printed ERROR Too many requests when the key was shared.",
    ],
    expect: null,
  },
  {
    name: "aider: a reply that explains RateLimitError",
    agent: "aider",
    screen: [
      "> what is this error?",
      "",
      "litellm.RateLimitError: is raised when the provider answers 429; retry later.",
      "",
      "Tokens: 1.2k sent, 85 received.",
      "",
      "> ",
    ],
    expect: null,
  },
];
