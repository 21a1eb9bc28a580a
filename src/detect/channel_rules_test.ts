import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";
import { claudeScreen, kiloScreen } from "../../adapters/_limit_screens_test_util.ts";
import type { Decision } from "./decision.ts";
import { CHANNEL_HOLD_MS, CHANNEL_WORD_MS, SCREEN_WORD_MS, WORKING_MS } from "./channel_rules.ts";
import { Detector } from "./detector.ts";
import { draw, drive as driveDetector, type DriveInput } from "./_drive_test_util.ts";

const STARTED = Date.parse("2026-12-01T21:47:00Z");
const claude = adapterByName("claude")!;

const LIMIT_TEXT = "You've hit your 5-hour limit · resets 12:47am (UTC)";
// A limit screen the screen reader knows (Claude 2.1.197's), and one it does not.
const KNOWN = claudeScreen([`  ⎿  ${LIMIT_TEXT}`], "menu");
const UNKNOWN = claudeScreen(["● Usage limit reached · set to continue automatically at 12:47am"]);
const WORKING = claudeScreen(["● Working on it"], "busy");
const OVERLOADED = claudeScreen(["  ⎿  API Error: Request rejected (429) · overloaded"]);

const limit: ChannelEvent = {
  type: "limit",
  kind: "usage",
  message: LIMIT_TEXT,
  resetsAt: "2026-12-02T00:47:00.000Z",
  code: "rate_limit",
};
const prompt: ChannelEvent = { type: "prompt", text: "A3 add a --dry-run flag" };

type Input = DriveInput;

/** Feeds timed inputs, waking only when the detector asks, up to `until`. */
function drive(inputs: Input[], until: number, adapter = claude) {
  const d = new Detector({
    adapter,
    cols: 120,
    rows: 40,
    startedAt: STARTED,
    timeZone: "UTC",
  });
  const verdict = driveDetector(d, inputs, until);
  const decisions = d.takeDecisions().filter((x) => x.verdict !== "event");
  return { verdict, decisions };
}

const brief = (ds: Decision[]) => ds.map((d) => `${d.source}:${d.verdict}@${d.atMs}`);

// The agent draws a spinner frame every `every` ms from `from` to `to`.
function spinner(from: number, to: number, every = 100): Input[] {
  const out: Input[] = [];
  for (let at = from; at <= to; at += every) out.push({ at, bytes: draw(WORKING) });
  return out;
}

Deno.test("a limit the agent reports acts at once when its screen shows one too", () => {
  const { verdict, decisions } = drive([
    { at: 0, event: prompt },
    { at: 10, bytes: draw(KNOWN) },
    { at: 20, event: limit },
  ], 5000);
  assertEquals(verdict?.kind, "limit");
  assertEquals(verdict?.atMs, 20);
  assert(verdict!.kind === "limit" && verdict.hit.message === LIMIT_TEXT);
  assertEquals(decisions.at(-1)?.why, "its screen shows a limit too");
});

Deno.test("a screen this uuldana does not know: the report acts once the agent stopped, and the screen is kept", () => {
  const { verdict, decisions } = drive([
    { at: 0, event: prompt },
    { at: 10, bytes: draw(UNKNOWN) },
    { at: 12, event: limit },
  ], 5000);
  assertEquals(verdict?.kind, "limit");
  assertEquals(verdict?.atMs, 12 + SCREEN_WORD_MS);
  assert(verdict!.kind === "limit" && verdict.hit.resetsAt === "2026-12-02T00:47:00.000Z");
  const disagree = decisions.find((x) => x.verdict === "disagree")!;
  assertEquals(disagree.why, "the agent reported a limit its screen reader does not see");
  assert(disagree.lines!.some((l) => l.includes("set to continue automatically")), "rows kept");
  assertEquals(brief(decisions).slice(-3), [
    "channel:waiting@12",
    `channel:disagree@${12 + SCREEN_WORD_MS}`,
    `channel:acted@${12 + SCREEN_WORD_MS}`,
  ]);
});

Deno.test("a report while the agent keeps drawing is not obeyed, and rejected after the hold", () => {
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict, decisions } = drive([
    { at: 0, event: prompt },
    ...spinner(5, 40).slice(0, 1),
    { at: 50, event: limit }, // forged by a tool the agent runs: it is still working
    ...spinner(60, end),
  ], end);
  assertEquals(verdict, null);
  const rejected = decisions.find((x) => x.verdict === "rejected")!;
  assertEquals(rejected.source, "channel");
  assertEquals(rejected.atMs, 50 + CHANNEL_HOLD_MS);
  assert(/still working/.test(rejected.why!), rejected.why);
});

Deno.test("a report while the screen shows the agent working, though it draws nothing, is not obeyed", () => {
  // Claude 2.1.332 streams slowly: nothing drawn for half a second, its footer says it works.
  const working = claudeScreen(["● Answer, line 1"], "busy");
  const { verdict, decisions } = drive([
    { at: 0, event: prompt },
    { at: 10, bytes: draw(working) },
    { at: 50, event: limit },
  ], CHANNEL_HOLD_MS + 1000);
  assertEquals(verdict, null);
  assertEquals(decisions.at(-1)?.verdict, "rejected");
  // Once it shows its input box again (the turn stopped), the same report acts.
  const stopped = drive([
    { at: 0, event: prompt },
    { at: 10, bytes: draw(working) },
    { at: 50, event: limit },
    { at: 2000, bytes: draw(UNKNOWN) },
  ], CHANNEL_HOLD_MS + 1000);
  assertEquals(stopped.verdict?.kind, "limit");
  assert(stopped.verdict!.atMs >= 2000 + WORKING_MS, `${stopped.verdict!.atMs}`);
});

Deno.test("a report outside any turn uuldana saw start waits for the screen, and is rejected without it", () => {
  const quiet = drive([{ at: 10, bytes: draw(UNKNOWN) }, { at: 20, event: limit }], 20_000);
  assertEquals(quiet.verdict, null);
  assert(/no turn uuldana saw start/.test(quiet.decisions.at(-1)!.why!));
  // The same report backed by a screen that shows a limit acts.
  const backed = drive([{ at: 10, event: limit }, { at: 700, bytes: draw(KNOWN) }], 20_000);
  assertEquals(backed.verdict?.kind, "limit");
  assertEquals(backed.verdict?.atMs, 700);
});

Deno.test("while the channel speaks, a screen rate limit waits for its word: its report acts at once", () => {
  const { verdict, decisions } = drive([
    { at: 0, event: prompt },
    { at: 10, bytes: draw(OVERLOADED) },
    { at: 300, event: { ...limit, kind: "rate", final: true, message: "Request rejected (429)" } },
  ], 5000);
  assertEquals(verdict?.atMs, 300);
  assertEquals(
    decisions.find((x) => x.why === "waiting for the agent's channel to report it")?.atMs,
    50,
  );
});

Deno.test("its silence lets the screen's rate limit act after the wait; a usage limit acts at once", () => {
  const rate = drive([{ at: 0, event: prompt }, { at: 10, bytes: draw(OVERLOADED) }], 5000);
  assertEquals(rate.verdict?.atMs, 50 + CHANNEL_WORD_MS);
  assertEquals(rate.decisions.at(-1)?.why, "the agent's channel said nothing about it");
  // Claude runs its StopFailure hook ~0.75 s after drawing its limit: its own words are enough.
  const usage = drive([{ at: 0, event: prompt }, { at: 10, bytes: draw(KNOWN) }], 5000);
  assertEquals(usage.verdict?.atMs, 50);
});

Deno.test("an error the channel calls not a limit never switches on the screen's text alone", () => {
  const error: ChannelEvent = {
    type: "error",
    message: "API Error: Overloaded",
    code: "overloaded",
  };
  for (const order of ["screen first", "error first"]) {
    const inputs: Input[] = order === "screen first"
      ? [{ at: 0, event: prompt }, { at: 10, bytes: draw(OVERLOADED) }, { at: 200, event: error }]
      : [{ at: 0, event: prompt }, { at: 5, event: error }, { at: 10, bytes: draw(OVERLOADED) }];
    const { verdict, decisions } = drive(inputs, 30_000);
    assertEquals(verdict, null, order);
    const disagree = decisions.filter((x) => x.verdict === "disagree");
    assertEquals(disagree.length, 1, order);
    assert(/calls an error \(overloaded: API Error: Overloaded\)/.test(disagree[0].why!), order);
    assert(disagree[0].lines!.some((l) => l.includes("Request rejected (429)")), order);
  }
  // A usage limit on the screen after the error is vetoed too, until the next turn clears it.
  const vetoed = drive([
    { at: 0, event: prompt },
    { at: 5, event: { type: "error", message: "Overloaded", code: "overloaded" } },
    { at: 200, bytes: draw(KNOWN) },
  ], 5000);
  assertEquals(vetoed.verdict, null);
  const next = drive([
    { at: 0, event: prompt },
    { at: 5, event: { type: "error", message: "Overloaded", code: "overloaded" } },
    { at: 100, event: prompt },
    { at: 200, bytes: draw(KNOWN) },
  ], 5000);
  assertEquals(next.verdict?.atMs, 240);
});

Deno.test("a limit of a message queued behind a turn is in a turn, though the first turn ended", () => {
  const { verdict } = drive([
    { at: 0, event: { type: "prompt", text: "first", turn: "a" } },
    { at: 10, event: { type: "prompt", text: "queued", turn: "b" } },
    { at: 20, event: { type: "idle", turn: "a" } },
    { at: 30, bytes: draw(UNKNOWN) },
    { at: 40, event: { ...limit, turn: "b" } },
  ], 5000);
  assertEquals(verdict?.atMs, 40 + SCREEN_WORD_MS);
});

Deno.test("a reported rate limit the agent still retries is not worth a handoff", () => {
  const rate: ChannelEvent = {
    type: "limit",
    kind: "rate",
    message: "429 Too Many Requests",
    resetsAt: null,
    attempt: 1,
  };
  const { verdict, decisions } = drive([{ at: 0, event: prompt }, { at: 10, event: rate }], 5000);
  assertEquals(verdict, null);
  assertEquals(brief(decisions), ["channel:rejected@10"]);
});

Deno.test("the agent still drawing delays the report until it stops", () => {
  const { verdict } = drive([
    { at: 0, event: prompt },
    { at: 10, event: limit },
    ...spinner(20, 900),
    { at: 950, bytes: draw(UNKNOWN) },
  ], 5000);
  assertEquals(verdict?.kind, "limit");
  assert(
    verdict!.atMs >= 950 + WORKING_MS && verdict!.atMs < 950 + WORKING_MS + 150,
    `${verdict!.atMs}`,
  );
});

// Copilot CLI 1.0.102 while it retries the provider's quota 429 (a minute, five retries): its
// transcript stays, its footer's glyph cycles every 90 ms (testdata: the real-agent matrix).
const copilot = adapterByName("copilot")!;
const copilotScreen = (glyph: string, extra: string[] = []) => [
  " ❯ Add a --dry-run flag to deploy.sh",
  "",
  " ● MOCKREPLY-1: noted.",
  "",
  " ❯ and a test for it",
  ...extra,
  "",
  "─".repeat(120),
  "❯ ",
  "─".repeat(120),
  ` ${glyph} Working esc esc edit prompt`,
];
const GLYPHS = ["◉", "◎", "○", "●"];
// Copilot's footer every 90 ms from `from` to `to`; `extra(at)`: rows a tool prints meanwhile.
function copilotRetrying(from: number, to: number, extra?: (at: number) => string[]): Input[] {
  const out: Input[] = [];
  for (let at = from, i = 0; at <= to; at += 90, i++) {
    out.push({ at, bytes: draw(copilotScreen(GLYPHS[i % 4], extra?.(at))) });
  }
  return out;
}
const quota: ChannelEvent = {
  type: "limit",
  kind: "usage",
  message: "You exceeded your current quota, please check your plan and billing details.",
  resetsAt: null,
  code: "insufficient_quota",
};

Deno.test("copilot: its report of the provider's quota error acts while only its waiting row moves", () => {
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict, decisions } = drive(
    [
      { at: 0, event: prompt },
      ...copilotRetrying(10, 40),
      { at: 50, event: quota },
      ...copilotRetrying(100, end),
    ],
    end,
    copilot,
  );
  assertEquals(verdict?.kind, "limit");
  // Counted from the screen's last change (its first frame at 10), not from the report.
  assert(
    verdict!.atMs >= 10 + SCREEN_WORD_MS && verdict!.atMs < 10 + SCREEN_WORD_MS + 100,
    `${verdict!.atMs}`,
  );
  const acted = decisions.at(-1)!;
  assertEquals([acted.source, acted.verdict], ["channel", "acted"]);
  assert(/retrying the provider's error/.test(acted.why!), acted.why);
  // Not a limit screen uuldana missed: Copilot shows none while it retries.
  assert(!decisions.some((x) => x.verdict === "disagree"));
});

Deno.test("copilot: a report after half a second of only its waiting row moving acts at once; a change after the report waits", () => {
  const end = CHANNEL_HOLD_MS + 2000;
  // Copilot 1.0.102 under load runs errorOccurred ~2 s after the 429, its footer turning meanwhile.
  const quiet = drive(
    [{ at: 0, event: prompt }, ...copilotRetrying(10, 1990), { at: 2000, event: quota }],
    end,
    copilot,
  );
  assertEquals([quiet.verdict?.kind, quiet.verdict?.atMs], ["limit", 2000]);
  assert(/only its waiting row moved/.test(quiet.decisions.at(-1)!.why!));
  // The screen changed 200 ms before the report: it acts once that change is 500 ms old.
  const changed = drive(
    [
      { at: 0, event: prompt },
      ...copilotRetrying(10, 1990, (at) => at >= 1800 ? [" │ done"] : []),
      { at: 2000, event: quota },
      ...copilotRetrying(2080, end, () => [" │ done"]),
    ],
    end,
    copilot,
  );
  assertEquals(changed.verdict?.kind, "limit");
  assert(
    changed.verdict!.atMs >= 1800 + SCREEN_WORD_MS && changed.verdict!.atMs < 2000 + SCREEN_WORD_MS,
    `${changed.verdict!.atMs}`,
  );
  // Quiet for 300 ms before the report, then a tool prints: that quiet never becomes 500 ms.
  const after = drive(
    [
      { at: 0, event: prompt },
      ...copilotRetrying(10, 1990, (at) => at >= 1700 ? [" │ line 0"] : []),
      { at: 2000, event: quota },
      ...copilotRetrying(2080, end, (at) => [` │ line ${Math.floor(at / 200)}`]),
    ],
    1800 + 2000,
    copilot,
  );
  assertEquals(after.verdict, null);
});

Deno.test("copilot: a report while the screen changes beside the waiting row (a tool at work) waits", () => {
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict, decisions } = drive(
    [
      { at: 0, event: prompt },
      ...copilotRetrying(10, 40),
      { at: 50, event: quota }, // forged by a tool that keeps printing
      ...copilotRetrying(100, end, (at) => [` │ line ${Math.floor(at / 200)}`]),
    ],
    end,
    copilot,
  );
  assertEquals(verdict, null);
  assertEquals(decisions.at(-1)?.verdict, "rejected");
  // A report without the provider's code (not its error as the provider sent it) waits too.
  const { code: _code, ...uncoded } = quota as Extract<ChannelEvent, { type: "limit" }>;
  const bare = drive(
    [
      { at: 0, event: prompt },
      ...copilotRetrying(10, 40),
      { at: 50, event: uncoded },
      ...copilotRetrying(100, end),
    ],
    end,
    copilot,
  );
  assertEquals(bare.verdict, null);
});

// pi 0.73.1 while its provider's SDK retries a 429 (twice, ~1.5 s, before pi hears of it): only
// its ` ⠋ Working...` row above the input box turns, every 80 ms.
const piAgent = adapterByName("pi")!;
const PI_GLYPHS = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const piScreen = (glyph: string) => [
  " and a test for it",
  "",
  ` ${glyph} Working...`,
  "",
  "─".repeat(120),
  "",
  "─".repeat(120),
  "/w",
  "↑30 ↓15 0.0%/128k (auto)" + " ".repeat(90) + "mock-1",
];
function piWaiting(from: number, to: number): Input[] {
  const out: Input[] = [];
  for (let at = from, i = 0; at <= to; at += 80, i++) {
    out.push({ at, bytes: draw(piScreen(PI_GLYPHS[i % 10])) });
  }
  return out;
}
// What the extension reads off pi's fetch (testdata/channels/pi-0.73.1/16-provider_error.json).
function piProvider(status: number, error: Record<string, unknown>): ChannelEvent[] {
  const record = { name: "provider_error", data: { status, body: JSON.stringify({ error }) } };
  return piAgent.channel!.parser().parse(record, { now: new Date(STARTED), timeZone: "UTC" });
}

Deno.test("pi: the provider's first quota 429, read off its fetch, acts while only its Working row turns", () => {
  const [event] = piProvider(429, {
    message: "You exceeded your current quota, please check your plan and billing details.",
    type: "insufficient_quota",
    code: "insufficient_quota",
  });
  assertEquals([event.type, (event as { code?: string }).code], ["limit", "insufficient_quota"]);
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict, decisions } = drive(
    [
      { at: 0, event: { type: "prompt", text: "and a test for it" } },
      { at: 0, event: { type: "busy" } },
      ...piWaiting(10, 200),
      { at: 210, event },
      ...piWaiting(250, end),
    ],
    end,
    piAgent,
  );
  assertEquals(verdict?.kind, "limit");
  assert(verdict!.atMs >= 10 + SCREEN_WORD_MS && verdict!.atMs < 10 + SCREEN_WORD_MS + 100);
  assert(/only its waiting row moved/.test(decisions.at(-1)!.why!));
});

Deno.test("pi: a rate limit or a server error read off its fetch never switches while it retries", () => {
  const end = CHANNEL_HOLD_MS + 2000;
  const rate = piProvider(429, {
    message: "Rate limit reached for mock-1 on requests per min (RPM): Limit 3, Used 3.",
    type: "requests",
    code: "rate_limit_exceeded",
  });
  // A server error is no event at all: pi's own message tells once its retries are over.
  assertEquals(piProvider(500, { message: "The server had an error", type: "server_error" }), []);
  const { verdict, decisions } = drive(
    [
      { at: 0, event: { type: "prompt", text: "and a test for it" } },
      { at: 0, event: { type: "busy" } },
      ...piWaiting(10, 1000),
      ...rate.map((event) => ({ at: 1000, event })),
      ...piWaiting(1080, end),
    ],
    end,
    piAgent,
  );
  assertEquals(verdict, null);
  assertEquals(decisions.map((d) => d.verdict), ["rejected"]);
  assert(/transient rate limit/.test(decisions[0].why!));
});

// Qwen Code 0.24.4 while its model call is retried (recorded in the real-agent matrix, 2026-12-04):
// its spinner row turns every ~80 ms and counts seconds; nothing else moves.
const qwenAgent = adapterByName("qwen")!;
const QWEN_GLYPHS = [".  ", ".. ", "...", " ..", "  ."];
function qwenScreen(frame: number, turn: string | null): string[] {
  return [
    "  > Add a --dry-run flag to deploy.sh",
    "  ◆︎ MOCKREPLY-1: noted.",
    ...(turn === null ? [] : [
      `  > ${turn}`,
      `  ${QWEN_GLYPHS[frame % 5]} Polishing the algorithms... (${
        Math.floor(frame / 12)
      }s · esc to cancel)`,
    ]),
    "─".repeat(100),
    ">   Type your message or @path/to/file",
    "─".repeat(100),
    "  Enter to steer · Ctrl+Q to queue · Auto mode (shift + tab to cycle)",
  ];
}
function qwenRetrying(from: number, to: number, turn = "and a test for it"): Input[] {
  const out: Input[] = [];
  for (let at = from, i = 0; at <= to; at += 80, i++) {
    out.push({ at, bytes: draw(qwenScreen(i, turn)) });
  }
  return out;
}
// What Qwen's telemetry says of a failed call (its `qwen-code.api_error` record's attributes).
function qwenApiError(message: string, status = 429): ChannelEvent[] {
  const record = {
    name: "qwen-code.api_error",
    data: { status_code: status, error_message: message, error_type: "RateLimitError" },
  };
  return qwenAgent.channel!.parser().parse(record, { now: new Date(STARTED), timeZone: "UTC" });
}

Deno.test("qwen: its telemetry's quota error acts while only its spinner turns", () => {
  const [event] = qwenApiError("429 Free allocated quota exceeded.");
  assertEquals(
    [event.type, (event as { kind?: string }).kind, (event as { status?: number }).status],
    ["limit", "usage", 429],
  );
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict, decisions } = drive(
    [
      { at: 0, event: { type: "prompt", text: "and a test for it" } },
      { at: 0, event: { type: "busy" } },
      ...qwenRetrying(10, 1000),
      { at: 1010, event },
      ...qwenRetrying(1050, end),
    ],
    end,
    qwenAgent,
  );
  assertEquals([verdict?.kind, verdict?.atMs], ["limit", 1010]);
  assert(/only its waiting row moved/.test(decisions.at(-1)!.why!));
});

Deno.test("qwen: a repaint drawn in pieces does not restart the 500 ms; a change that stays does", () => {
  const [event] = qwenApiError("429 Free allocated quota exceeded.");
  const end = CHANNEL_HOLD_MS + 2000;
  // Qwen 0.24.4 repaints its whole screen; on a loaded machine a look can fall between two of the
  // repaint's writes and see half a frame (no spinner, its rows partly drawn) for a few ms.
  const half = new TextEncoder().encode("\x1b[2J\x1b[H  > Add a --dry-run flag to deploy.sh\r\n");
  const turn = [
    { at: 0, event: { type: "prompt", text: "and a test for it" } },
    { at: 0, event: { type: "busy" } },
  ] as Input[];
  const pieces = drive(
    [
      ...turn,
      ...qwenRetrying(10, 290),
      { at: 300, event },
      { at: 400, bytes: half },
      ...qwenRetrying(410, end),
    ],
    end,
    qwenAgent,
  );
  // 500 ms of quiet from the turn's screen (drawn at 10 ms), the piece at 400 ms no change.
  assertEquals(pieces.verdict?.kind, "limit");
  assert(pieces.verdict!.atMs < 700, String(pieces.verdict!.atMs));
  // A row that stays (a tool printing) starts the count again when it came.
  const printed = (from: number, to: number): Input[] => {
    const out: Input[] = [];
    for (let at = from, i = 0; at <= to; at += 80, i++) {
      const rows = qwenScreen(i, "and a test for it");
      rows.splice(3, 0, "  tool output");
      out.push({ at, bytes: draw(rows) });
    }
    return out;
  };
  const tool = drive(
    [...turn, ...qwenRetrying(10, 290), { at: 300, event }, ...printed(400, end)],
    end,
    qwenAgent,
  );
  assertEquals(tool.verdict?.kind, "limit");
  assert(tool.verdict!.atMs >= 900, String(tool.verdict!.atMs));
});

Deno.test("qwen: a quota met between turns (a background call) acts when the next turn uuldana sees start opens", () => {
  const [event] = qwenApiError("429 Free allocated quota exceeded.");
  const end = CHANNEL_HOLD_MS + 2000;
  const idle = draw(qwenScreen(0, null));
  const { verdict, decisions } = drive(
    [
      { at: 0, bytes: idle },
      { at: 400, event },
      { at: 2500, event: { type: "prompt", text: "and a test for it" } },
      { at: 2500, event: { type: "busy" } },
      ...qwenRetrying(2520, end, "and a test for it"),
    ],
    end,
    qwenAgent,
  );
  // At the turn's opening: its first call meets the same quota, and nothing of it has run.
  assertEquals([verdict?.kind, verdict?.atMs], ["limit", 2500]);
  assert(/opened after the provider's own limit answer/.test(decisions.at(-1)!.why!));
  // Without a turn it never acts on its own, and the report is let go after the hold.
  const alone = drive([{ at: 0, bytes: idle }, { at: 400, event }], end, qwenAgent);
  assertEquals(alone.verdict, null);
  assertEquals(alone.decisions.at(-1)?.verdict, "rejected");
});

Deno.test("qwen: a per-minute 429 or a 500 in its telemetry never switches while it retries", () => {
  const [rate] = qwenApiError(
    "429 Rate limit reached for mock-1 on requests per min (RPM): Limit 3, Used 3.",
  );
  assertEquals([rate.type, (rate as { kind?: string }).kind], ["limit", "rate"]);
  assertEquals(qwenApiError("500 Internal server error", 500), []);
  const end = CHANNEL_HOLD_MS + 2000;
  const { verdict } = drive(
    [
      { at: 0, event: { type: "prompt", text: "and a test for it" } },
      { at: 0, event: { type: "busy" } },
      ...qwenRetrying(10, 1000),
      { at: 1010, event: rate },
      ...qwenRetrying(1050, end),
    ],
    end,
    qwenAgent,
  );
  assertEquals(verdict, null);
});

Deno.test("the channel's word that the agent retries a rate limit rejects the screen's at that attempt", () => {
  const kilo = adapterByName("kilo")!;
  // Kilo 7.7.7's footer given `retry-after: 2` (the error matrix): wrapped at 120 columns, its
  // wait lost its unit (`[retrying in 1` / `#3]`), so the screen alone knows only the attempt.
  const footer = (attempt: number) =>
    draw(kiloScreen([], [
      "   ⬝Rate⬝limit reached for mock-1 in organization org-mock on requests per min (RPM)... (click to expand) [retrying in 1",
      `    #${attempt}]`,
    ]));
  const retry = (attempt: number): ChannelEvent => ({
    type: "limit",
    kind: "rate",
    message: "Rate limit reached for mock-1 in organization org-mock on requests per min (RPM)",
    resetsAt: null,
    attempt,
    waitSeconds: 2,
  });
  const before = drive(
    [
      { at: 0, event: prompt },
      { at: 10, event: retry(3) },
      { at: 200, bytes: footer(3) },
    ],
    5000,
    kilo,
  );
  assertEquals(before.verdict, null);
  assert(
    before.decisions.some((d) => d.source === "screen" && /says it retries/.test(d.why ?? "")),
    JSON.stringify(before.decisions),
  );
  // The screen first, held for the channel's word: the word comes and rejects it.
  const after = drive(
    [
      { at: 0, event: prompt },
      { at: 10, bytes: footer(3) },
      { at: 400, event: retry(3) },
    ],
    5000,
    kilo,
  );
  assertEquals(after.verdict, null);
  // A new turn's rate limit is its own: the word on the last turn's retries does not carry over.
  const next = drive(
    [
      { at: 0, event: prompt },
      { at: 10, event: retry(3) },
      { at: 100, event: { type: "idle" } },
      { at: 200, event: prompt },
      { at: 300, bytes: footer(3) },
    ],
    5000,
    kilo,
  );
  assertEquals(next.verdict?.kind, "limit");
  // Without the channel's word the screen acts on attempt 3 (it could read no wait).
  const silent = drive([{ at: 0, event: prompt }, { at: 10, bytes: footer(3) }], 5000, kilo);
  assertEquals(silent.verdict?.kind, "limit");
});
