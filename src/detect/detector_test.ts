import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Adapter } from "../../adapters/adapter.ts";
import { adapterByName } from "../../adapters/registry.ts";
import {
  claudeScreen,
  geminiScreen,
  opencodeScreen,
} from "../../adapters/_limit_screens_test_util.ts";
import { rng as seededRng } from "../handoff/_rng_test_util.ts";
import type { Decision } from "./decision.ts";
import { Detector, type DetectorOptions, type Verdict } from "./detector.ts";
import { draw, drive } from "./_drive_test_util.ts";
import { replay } from "./replay.ts";

const STARTED = Date.parse("2026-03-10T02:00:00Z");
const claude = adapterByName("claude")!;
const opencode = adapterByName("opencode")!;
const enc = new TextEncoder();

const LIMIT = claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu");
const WORKING = claudeScreen(["● Working on it"], "busy");

function detector(adapter: Adapter = claude, extra: Partial<DetectorOptions> = {}): Detector {
  return new Detector({
    adapter,
    cols: 120,
    rows: 40,
    startedAt: STARTED,
    timeZone: "UTC",
    ...extra,
  });
}

/** Feeds timed inputs, waking only when the detector asks; returns the verdict and the records. */
function run(d: Detector, inputs: { at: number; bytes: Uint8Array }[], endAt?: number) {
  const verdict = drive(d, inputs, endAt ?? Infinity, endAt !== undefined);
  return { verdict, decisions: d.takeDecisions() };
}

const brief = (ds: Decision[]) => ds.map((d) => `${d.verdict}@${d.atMs}/${d.offset}`);

Deno.test("a limit is acted on once the agent stopped writing for 40 ms, at the look's offset", () => {
  const bytes = draw(LIMIT);
  const { verdict, decisions } = run(detector(), [{ at: 10, bytes }]);
  assertEquals(verdict?.kind, "limit");
  assertEquals(verdict?.atMs, 50);
  assertEquals(verdict?.offset, bytes.length);
  assert(verdict!.kind === "limit" && verdict.hit.resetsAt === "2026-03-10T03:01:00.000Z");
  assert(verdict!.lines.some((l) => l.includes("session limit")), "the verdict keeps the screen");
  assertEquals(brief(decisions), [
    `seen@10/${bytes.length}`,
    `waiting@10/${bytes.length}`,
    `acted@50/${bytes.length}`,
  ]);
  assertEquals(decisions[1].retryInMs, 40);
});

Deno.test("looks are a function of the timed input alone: late, early or extra wakes change nothing", () => {
  // The limit arrives in pieces while the agent keeps drawing, then it goes quiet.
  const rows = draw(LIMIT);
  const inputs: { at: number; bytes: Uint8Array }[] = [{ at: 0, bytes: draw(WORKING) }];
  for (let at = 5, i = 0; i < rows.length; at += 7) {
    const n = 1 + (i * 7919) % 300;
    inputs.push({ at, bytes: rows.subarray(i, i + n) });
    i += n;
  }
  const reference = run(detector(), inputs, 2_000);
  assertEquals(reference.verdict?.kind, "limit");
  const rng = seededRng(22);
  for (let trial = 0; trial < 40; trial++) {
    const d = detector();
    let verdict: Verdict | null = null;
    for (const input of inputs) {
      // Timers fire late, early, twice or not at all: wakes at random times before each input.
      for (let k = Math.floor(rng() * 3); k > 0 && !verdict; k--) {
        verdict = d.wake(input.at - rng() * 30);
      }
      if (!verdict) verdict = d.output(input.bytes, input.at);
    }
    if (!verdict) verdict = d.ended(2_000);
    assertEquals(verdict, reference.verdict, `trial ${trial}`);
    assertEquals(d.takeDecisions(), reference.decisions, `trial ${trial}`);
  }
});

Deno.test("a limit the agent cleared as it quit counts at the end of the output", () => {
  const limit = draw(LIMIT);
  const cleared = enc.encode("\x1b[H\x1b[2J");
  const { verdict, decisions } = run(
    detector(),
    [{ at: 0, bytes: limit }, { at: 20, bytes: cleared }],
    25,
  );
  assertEquals(verdict?.kind, "limit");
  assertEquals(verdict?.atMs, 25);
  assertEquals(brief(decisions).at(-1), `acted@25/${limit.length + cleared.length}`);
  // The same output ending later, after the look that found the screen empty: not a limit.
  const late = run(detector(), [{ at: 0, bytes: limit }, { at: 20, bytes: cleared }], 500);
  assertEquals(late.verdict, null);
  assertEquals(late.decisions.at(-1)?.verdict, "rejected");
  assertEquals(late.decisions.at(-1)?.why, "gone from the screen before it was confirmed");
});

Deno.test("a transient rate limit is seen and rejected once, however its countdown moves", () => {
  const footer = (s: number, attempt: number) =>
    draw(opencodeScreen([], [
      `   ⬝⬝⬝⬝⬝⬝⬝⬝ Rate limit reached for requests [retrying in ${s}s attempt #${attempt}]`,
    ]));
  const inputs = [13, 12, 11, 10].map((s, i) => ({ at: i * 1000, bytes: footer(s, 1) }));
  const { verdict, decisions } = run(detector(opencode), inputs, 4_000);
  assertEquals(verdict, null);
  assertEquals(decisions.map((d) => d.verdict), ["seen", "rejected"]);
  assert(decisions[1].why?.includes("not worth a handoff yet"), decisions[1].why);
  // Attempt 10 is worth it (ten retries are the work standing still, however short each wait):
  // while the agent keeps drawing (every 20 ms), the same limit for 500 ms.
  const third = Array.from({ length: 40 }, (_, i) => ({
    at: 4_000 + i * 20,
    bytes: footer(9 - Math.floor(i / 10), 10),
  }));
  const later = run(detector(opencode), [...inputs, ...third]);
  assertEquals(later.verdict?.kind, "limit");
  assertEquals(later.verdict?.atMs, 4_500);
  // The same footer (its numbers aside) is one sighting: no second `seen`.
  assertEquals(later.decisions.map((d) => d.verdict), ["seen", "rejected", "waiting", "acted"]);
  assertEquals(later.decisions[2].hit?.attempt, 10);
});

Deno.test("the stall rule: busy by the agent's spinner past the threshold, no limit", () => {
  const gemini = adapterByName("gemini")!;
  const spinner = (s: number) => draw(geminiScreen([], true).map((r) => r.replace("26s", `${s}s`)));
  const inputs = [5, 15, 25, 35].map((s) => ({ at: s * 1000, bytes: spinner(s) }));
  const off = run(detector(gemini), inputs, 40_000);
  assertEquals(off.verdict, null);
  const on = run(detector(gemini, { stallSeconds: 30 }), inputs, 40_000);
  assertEquals(on.verdict?.kind, "stall");
  assertEquals(on.verdict?.atMs, 35_000);
  assert(on.verdict!.kind === "stall" && on.verdict.message.includes("busy for 35 s"));
  assertEquals(on.decisions.map((d) => d.verdict), ["acted"]);
});

Deno.test("halt: the looks due before it are made, then none", () => {
  const d = detector();
  d.output(draw(LIMIT), 0);
  assertEquals(d.nextWakeAt(), 0);
  // The look due at 0 sees the limit and waits 40 ms; the run is decided elsewhere at 30.
  assertEquals(d.halt(30), null);
  assertEquals(d.nextWakeAt(), null);
  assertEquals(d.output(draw(LIMIT), 100), null);
  assertEquals(d.ended(200), null);
  assertEquals(d.takeDecisions().map((x) => x.verdict), ["seen", "waiting"]);
  // A look due before the halt that confirms: the verdict comes back from halt.
  const e = detector();
  e.output(draw(LIMIT), 0);
  e.wake(0);
  assertEquals(e.halt(45)?.kind, "limit");
});

Deno.test("channel events are recorded at their time and offset", () => {
  const d = detector();
  d.output(enc.encode("hello"), 3);
  assertEquals(d.channel({ type: "busy" }, 4.5), null);
  const records = d.takeDecisions();
  assertEquals(records, [{
    atMs: 4.5,
    offset: 5,
    source: "channel",
    verdict: "event",
    event: { type: "busy" },
  }]);
});

Deno.test("looks stay at one per 40 ms however the output is split (linear in the output)", () => {
  let looks = 0;
  const counting: Adapter = {
    ...claude,
    detectLimit: (lines, opts) => (looks++, claude.detectLimit(lines, opts)),
  };
  const d = detector(counting);
  const chunk = enc.encode("x".repeat(100) + "\r\n");
  // 20,000 chunks over 10 s.
  for (let i = 0; i < 20_000; i++) {
    const at = i * 0.5;
    for (let due = d.nextWakeAt(); due !== null && due <= at; due = d.nextWakeAt()) d.wake(due);
    d.output(chunk, at);
  }
  assert(looks <= 10_000 / 40 + 2, `${looks} looks`);
  assert(looks >= 10_000 / 40 - 2, `${looks} looks`);
});

Deno.test("times are kept to the microsecond, so a parsed recording gives the same looks", () => {
  const a = detector();
  const b = detector();
  a.output(draw(LIMIT), 1234.5670000001);
  b.output(draw(LIMIT), Number("1.234567") * 1000);
  assertEquals(a.nextWakeAt(), b.nextWakeAt());
  assertEquals(a.nextWakeAt(), 1234.567);
});

Deno.test("a full-screen agent's last screen is in the lines once, while it is up and after it", () => {
  const d = detector();
  d.output(enc.encode("$ claude\r\n\x1b[?1049h"), 1);
  d.output(draw(["● Answer 17, line 30", "✻ Cogitated for 0s", "❯ now add a test"]), 2);
  // A verdict reached while the alternate screen is up carries these lines (a real 2.1.332 run
  // carried each row of its last screen twice).
  assertEquals(d.lastLines(), ["● Answer 17, line 30", "✻ Cogitated for 0s", "❯ now add a test"]);
  d.output(enc.encode("\x1b[?1049lResume this session with:\r\n"), 3);
  assertEquals(d.lastLines(), [
    "$ claude",
    "Resume this session with:",
    "● Answer 17, line 30",
    "✻ Cogitated for 0s",
    "❯ now add a test",
  ]);
});

Deno.test("a usage warning is one `warning` record while it shows, never a verdict; a replay makes the same", () => {
  const adapter = adapterByName("claude")!;
  const opts = {
    adapter,
    cols: 120,
    rows: 40,
    startedAt: Date.parse("2026-12-04T18:13:00Z"),
    timeZone: "UTC",
  };
  const warning = "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)";
  const screen = (notice: string, busy: boolean) =>
    draw([
      "❯ hello",
      "",
      "● MOCKREPLY-1: noted.",
      ...(busy ? ["", "✢ Marinating… (4s · esc to interrupt)"] : []),
      notice ? notice.padStart(119) : "",
      "─".repeat(120),
      "❯\u00a0",
      "─".repeat(120),
      "  ? for shortcuts",
    ]);
  const inputs = [
    { at: 10, bytes: screen(warning, true) },
    { at: 200, bytes: screen(warning, true) },
    { at: 400, bytes: screen(warning, false) },
    { at: 5000, bytes: screen("", false) },
    // The same warning again (a frame drawn in pieces, a notice that comes back): no news.
    { at: 5200, bytes: screen(warning, false) },
    { at: 5400, bytes: screen("", false) },
  ];
  const d = new Detector(opts);
  assertEquals(drive(d, inputs, 6000, true), null);
  const records = d.takeDecisions();
  assertEquals(records.map((r) => [r.verdict, r.warning?.message, r.warning?.resetsAt]), [
    ["warning", warning, "2026-12-04T21:13:00.000Z"],
  ]);
  const timed = [
    ...inputs.map((i) => ({ type: "output" as const, atMs: i.at, bytes: i.bytes })),
    { type: "end" as const, atMs: 6000 },
  ];
  const again = replay(timed, opts);
  assertEquals(again.verdict, null);
  assertEquals(again.decisions, records);
});
