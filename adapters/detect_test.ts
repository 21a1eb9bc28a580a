import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { adapterByName, ADAPTERS } from "./registry.ts";
import { normalizeSpace } from "./screen_text.ts";
import { shouldHandOff } from "./policy.ts";
import { busySeconds } from "./stall.ts";
import type { DetectOptions } from "./adapter.ts";
import { AGENT_CORPUS_DIR } from "../tests/_paths.ts";

const CORPUS = AGENT_CORPUS_DIR;

interface Recording {
  name: string;
  limit: boolean;
  limitText: string | null;
  limitOnFinalScreen?: boolean;
  oracle: { screen: string[]; wrappedRows: number[] };
  checkpoints: { screen: string[] }[];
}

function recordings(): Recording[] {
  return readdirSync(CORPUS).filter((f) => f.endsWith(".json")).sort().map((f) =>
    JSON.parse(readFileSync(join(CORPUS, f), "utf8"))
  );
}

// Logical lines from the oracle: rows listed in wrappedRows continue the row above.
function logicalLines(screen: string[], wrappedRows: number[] = []): string[] {
  const out: string[] = [];
  screen.forEach((row, i) => {
    if (wrappedRows.includes(i) && out.length) out[out.length - 1] += row;
    else out.push(row);
  });
  return out.map((l) => l.trimEnd());
}

const agentOf = (name: string) => adapterByName(name.split("-")[0])!;
const at = (iso: string): DetectOptions => ({ now: new Date(iso), cols: 120, timeZone: "UTC" });

Deno.test("limit recordings: detected on the final screen with message and reset time", () => {
  const expected: Record<string, { kind: string; resetsAt: string | null }> = {
    "claude-limit-session": { kind: "usage", resetsAt: "2026-03-10T03:01:00.000Z" },
    "gemini-limit-quota-dialog": { kind: "usage", resetsAt: "2026-03-10T03:06:00.000Z" },
    "opencode-mock-429-retry": { kind: "rate", resetsAt: null },
  };
  let checked = 0;
  for (const rec of recordings().filter((r) => r.limit && r.limitOnFinalScreen)) {
    const hit = agentOf(rec.name).detectLimit(
      logicalLines(rec.oracle.screen, rec.oracle.wrappedRows),
      at("2026-03-10T02:00:00Z"),
    );
    assert(hit, `${rec.name}: not detected`);
    const shown = normalizeSpace(rec.limitText!.replace(/[│]/g, " "));
    assert(shown.includes(hit.message), `${rec.name}: message ${hit.message} not in ${shown}`);
    assert(hit.message.length > 20, rec.name);
    assertEquals({ kind: hit.kind, resetsAt: hit.resetsAt }, expected[rec.name], rec.name);
    checked++;
  }
  assertEquals(checked, 3);
});

Deno.test("limit recordings: a reset time already past today means tomorrow", () => {
  const rec = recordings().find((r) => r.name === "claude-limit-session")!;
  const hit = agentOf(rec.name).detectLimit(rec.oracle.screen, at("2026-03-10T05:00:00Z"));
  assertEquals(hit?.resetsAt, "2026-03-11T03:01:00.000Z");
});

Deno.test("opencode retry footer: rate limit with attempt and wait, not yet worth a handoff", () => {
  const rec = recordings().find((r) => r.name === "opencode-mock-429-retry")!;
  const hit = agentOf(rec.name).detectLimit(rec.oracle.screen, at("2026-03-10T02:00:00Z"))!;
  assertEquals(hit.message, "Rate limit reached for requests [retrying in 13s attempt #1]");
  assertEquals([hit.attempt, hit.waitSeconds], [1, 13]);
  assertEquals(shouldHandOff(hit), false);
});

Deno.test("startup, trust and login recordings: no adapter detects a limit", () => {
  for (const rec of recordings().filter((r) => !r.limit)) {
    const screens = [rec.oracle.screen, ...rec.checkpoints.map((c) => c.screen)];
    for (const screen of screens) {
      for (const adapter of ADAPTERS) {
        const hit = adapter.detectLimit(screen, at("2026-03-10T02:00:00Z"));
        assertEquals(hit, null, `${adapter.name} fired on ${rec.name}: ${hit?.message}`);
      }
    }
  }
});

Deno.test("limit screens: only the right agent's detector fires", () => {
  for (const rec of recordings().filter((r) => r.limit && r.limitOnFinalScreen)) {
    for (const adapter of ADAPTERS) {
      const family = agentOf(rec.name).name === "opencode" ? ["opencode", "kilo"] : [];
      if (adapter.name === agentOf(rec.name).name || family.includes(adapter.name)) continue;
      assertEquals(adapter.detectLimit(rec.oracle.screen, at("2026-03-10T02:00:00Z")), null);
    }
  }
});

// Screens shaped like each agent's UI around the messages PROVIDERS.md quotes.
const NOW = "2026-03-10T02:00:00Z";
const CASES: { agent: string; rows: string[]; kind: string | null; resetsAt?: string | null }[] = [
  {
    agent: "claude",
    rows: ["❯ go", "  ⎿ \u00a0You've hit your weekly limit · resets Dec 3, 1:15am (UTC)"],
    kind: "usage",
    resetsAt: "2026-12-03T01:15:00.000Z",
  },
  {
    agent: "claude",
    rows: [
      "❯ go",
      "  ⎿  Claude usage limit reached. Your limit will reset at 3pm (America/Bogota).",
    ],
    kind: "usage",
    resetsAt: "2026-03-10T20:00:00.000Z",
  },
  {
    agent: "claude",
    rows: [
      "❯ go",
      "  ⎿  API Error: Server is temporarily limiting requests (not your usage limit) · x",
    ],
    kind: null,
  },
  {
    agent: "claude",
    rows: ["  ⎿  You've used 90% of your session limit · resets 3:01am (UTC)"],
    kind: null,
  },
  {
    // A tool result (also on a `⎿` row) that quotes the message is conversation, not a limit.
    agent: "claude",
    rows: [
      '⏺ Bash(grep -rn "hit your" src)',
      "  ⎿  src/limits.ts:3: You've hit your session limit · resets 3:01am (UTC)",
    ],
    kind: null,
  },
  {
    agent: "codex",
    rows: ["› hi", "", "■ You’ve hit your usage limit. Try again at Dec 2nd, 2026 7:52 PM."],
    kind: "usage",
    resetsAt: "2026-12-02T19:52:00.000Z",
  },
  {
    agent: "codex",
    rows: ["■ You've hit your usage limit. Try again in 5 days 22 hours 11 minutes."],
    kind: "usage",
    resetsAt: "2026-03-16T00:11:00.000Z",
  },
  {
    // The echoed user turn quotes Codex's message: its rows are indented, not at column 0.
    agent: "codex",
    rows: ["› earlier codex said:", "  ■ You’ve hit your usage limit. Try again at 3:02 AM."],
    kind: null,
  },
  {
    agent: "gemini",
    rows: [
      "╭────────────╮",
      "│ Usage limit reached for gemini-3-flash-preview. Access resets at 10:57 PM GMT-3. │",
      "│ ● 1. Keep trying │",
      "╰────────────╯",
    ],
    kind: "usage",
    resetsAt: "2026-03-11T01:57:00.000Z",
  },
  {
    // A shell tool's output box quoting the message offers no choice: not the limit dialog.
    agent: "gemini",
    rows: [
      "╭────────────╮",
      "│ ✓  Shell cat notes.txt │",
      "│ │",
      "│ Usage limit reached for all Pro models. Access resets at 3:06 AM UTC. │",
      "╰────────────╯",
    ],
    kind: null,
  },
  {
    // Gemini's input box echo is not a rounded dialog.
    agent: "gemini",
    rows: [
      "▄▄▄▄",
      " > Usage limit reached for all Pro models. Access resets at 3:06 AM UTC.",
      "▀▀▀▀",
    ],
    kind: null,
  },
  {
    agent: "opencode",
    rows: [
      "   ⬝⬝⬝ You exceeded your current quota, please check your plan and billing details. [retrying attempt #2]",
    ],
    kind: "usage",
  },
  {
    agent: "opencode",
    rows: ["   ⬝⬝⬝ Cannot connect to API: ECONNREFUSED [retrying in 4s attempt #3]"],
    kind: null,
  },
  {
    agent: "opencode",
    rows: ["  ┃  Rate limit reached for requests [retrying in 13s attempt #4]"],
    kind: null,
  },
  {
    agent: "opencode",
    rows: ["  Go usage limit reached. It will reset in 2 hours. Visit the console."],
    kind: "usage",
    resetsAt: "2026-03-10T04:00:00.000Z",
  },
  {
    agent: "kilo",
    rows: [
      "   Provider rate limit exceeded. Please try again shortly. [retrying in 8m attempt #1]",
    ],
    kind: "rate",
  },
  {
    agent: "qwen",
    rows: [
      "✕ [API Error: 429 You exceeded your current quota, please check your plan and billing details.] (Retrying in 37s… (attempt 1/10))",
      "↻ Retrying in 37 seconds… (attempt 1/10)",
    ],
    kind: "usage",
  },
  {
    agent: "qwen",
    rows: [
      "✕ [API Error: 429 Rate limit exceeded. Please wait and try again.] (Retrying in 5s… (attempt 3/10))",
    ],
    kind: "rate",
  },
  {
    agent: "copilot",
    rows: ["✗ You've hit your rate limit. Your limit resets in 2 hours."],
    kind: "usage",
    resetsAt: "2026-03-10T04:00:00.000Z",
  },
  {
    agent: "copilot",
    rows: [
      "✗ Sorry, you've exceeded your 5 hour session limits. Please retry after 2733 seconds. (user_global_rate_limited:pro)",
    ],
    kind: "usage",
    resetsAt: "2026-03-10T02:45:33.000Z",
  },
  { agent: "auggie", rows: ["❌ Rate limit exceeded: too many requests"], kind: "rate" },
  { agent: "auggie", rows: ["⠋ Rate limit reached. Retrying in 12s…"], kind: "rate" },
  { agent: "crush", rows: [" ERROR  Too many requests", " slow down"], kind: "rate" },
  {
    agent: "aider",
    rows: ["litellm.RateLimitError: You exceeded your current quota (insufficient_quota)"],
    kind: "usage",
  },
  {
    agent: "aider",
    rows: [
      "The API provider has rate limited you. Try again later or check your quotas.",
      "Retrying in 2.0 seconds...",
    ],
    kind: "rate",
  },
];

Deno.test("synthetic screens: each agent's documented messages, and look-alikes that are not", () => {
  for (const c of CASES) {
    const hit = adapterByName(c.agent)!.detectLimit(c.rows, at(NOW));
    assertEquals(hit?.kind ?? null, c.kind, `${c.agent}: ${c.rows.join(" / ")}`);
    if (hit && c.resetsAt !== undefined) assertEquals(hit.resetsAt, c.resetsAt, c.agent);
  }
});

Deno.test("delivered handoff quoting a limit message never fires; a real hit below it does", () => {
  const handoff = [
    "# uuldana handoff (untrusted historical evidence)",
    "The previous agent stopped with:",
    "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "Continue the task.",
  ].join("\n");
  const echo = [
    "❯ # uuldana handoff (untrusted historical evidence)",
    "  The previous agent stopped with:",
    "    ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "  Continue the task.",
  ];
  const opts = { ...at(NOW), delivered: [handoff] };
  assertEquals(adapterByName("claude")!.detectLimit(echo, opts), null);
  const real = [...echo, "  ⎿  You've hit your session limit · resets 3:01am (UTC)"];
  assertEquals(adapterByName("claude")!.detectLimit(real, opts)?.kind, "usage");
  // Without the delivered text, the quoted message would have fired: the exclusion is what works.
  assert(adapterByName("claude")!.detectLimit(echo, at(NOW)) !== null);
});

Deno.test("delivered text wrapped differently on screen is still recognised", () => {
  const handoff =
    "Earlier: ■ You’ve hit your usage limit. Upgrade to Pro or try again at 3:02 AM. " +
    "Then continue.";
  const screen = [
    "› Earlier:",
    "■ You’ve hit your usage limit. Upgrade to Pro or try again",
    "at 3:02 AM. Then continue.",
  ];
  assertEquals(
    adapterByName("codex")!.detectLimit(screen, { ...at(NOW), delivered: [handoff] }),
    null,
  );
});

Deno.test("stall rule: Gemini's spinner shows how long it has been busy", () => {
  const rec = recordings().find((r) => r.name === "gemini-capacity-silent-retry")!;
  assertEquals(busySeconds(adapterByName("gemini")!, rec.oracle.screen), 20);
  assertEquals(
    busySeconds(adapterByName("gemini")!, [" ⠙ Thinking... (esc to cancel, 1m 5s)"]),
    65,
  );
  assertEquals(busySeconds(adapterByName("gemini")!, ["idle"]), null);
  assertEquals(busySeconds(adapterByName("claude")!, rec.oracle.screen), null);
});
