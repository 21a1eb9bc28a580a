import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import { claudeScreen } from "../../adapters/_limit_screens_test_util.ts";
import { rng } from "../handoff/_rng_test_util.ts";
import { castHeaderLine, castLines, parseCast } from "./cast.ts";
import type { Decision } from "./decision.ts";
import { Detector, type Verdict } from "./detector.ts";
import { replay } from "./replay.ts";
import type { TimedInput } from "./timed_input.ts";
import { Utf8Segmenter } from "./utf8_segments.ts";

const claude = adapterByName("claude")!;
const STARTED = Date.parse("2026-03-10T02:00:00Z");
const OPTS = { adapter: claude, cols: 120, rows: 40, startedAt: STARTED, timeZone: "UTC" };

/**
 * A live run as AgentRun carries it out: reads of random sizes at random times (a character
 * split now and then), a timer that fires late or early, every input recorded as it is read.
 */
function liveRun(seed: number, stream: Uint8Array) {
  const random = rng(seed);
  const detector = new Detector(OPTS);
  const segments = new Utf8Segmenter();
  const recorded: string[] = [
    castHeaderLine(120, 40, { agent: "claude", startedAt: STARTED }, "x"),
  ];
  const decisions: Decision[] = [];
  const dec = new TextDecoder();
  let verdict: Verdict | null = null;
  let now = 0;
  const take = (input: TimedInput) => {
    recorded.push(castLines(input, dec).join("").trimEnd());
    verdict ??= detector.input(input);
    decisions.push(...detector.takeDecisions());
  };
  for (let at = 0; at < stream.length && !verdict;) {
    now += random() < 0.2 ? random() * 200 : random() * 5;
    // The timer: due looks run now, a little late, or the timer fires early and does nothing.
    const due = detector.nextWakeAt();
    if (due !== null && due <= now) {
      verdict ??= detector.wake(now - random() * Math.min(5, now - due));
      decisions.push(...detector.takeDecisions());
    }
    const n = 1 + Math.floor(random() * 700);
    const bytes = segments.next(stream.subarray(at, at + n));
    at += n;
    if (bytes.length) take({ type: "output", atMs: now, bytes: bytes.slice() });
  }
  if (!verdict) take({ type: "end", atMs: now + random() * 1000 });
  return { verdict, decisions, cast: recorded.join("\n") + "\n" };
}

Deno.test("a recording replays to the live decisions, at the same offsets and times", () => {
  const enc = new TextEncoder();
  const screens = [
    claudeScreen(["● Reading the files…"], "busy"),
    claudeScreen(["● Done. ─ résumé ✓"], "input"),
    claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu"),
  ];
  const stream = enc.encode(screens.map((s) => "\x1b[H\x1b[2J" + s.join("\r\n")).join(""));
  let acted = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const live = liveRun(seed, stream);
    const parsed = parseCast(live.cast);
    const replayed = replay(parsed.inputs, OPTS);
    assertEquals(replayed.decisions, live.decisions, `seed ${seed}`);
    assertEquals(replayed.verdict, live.verdict, `seed ${seed}`);
    if (live.verdict) acted++;
  }
  assertEquals(acted, 30, "every run acted on the limit");
});

Deno.test("a channel event after the output ended (the agent quitting) is replayed as it was heard", () => {
  const enc = new TextEncoder();
  const inputs: TimedInput[] = [
    {
      type: "output",
      atMs: 10,
      bytes: enc.encode(claudeScreen(["● Done."], "input").join("\r\n")),
    },
    { type: "end", atMs: 900 },
    { type: "channel", atMs: 1700, event: { type: "session", phase: "end", detail: "exit" } },
  ];
  const live = new Detector(OPTS);
  const decisions: Decision[] = [];
  for (const input of inputs) {
    live.input(input);
    decisions.push(...live.takeDecisions());
  }
  const replayed = replay(inputs, OPTS);
  assertEquals(replayed.decisions, decisions);
  assertEquals(replayed.ending, "end");
  assertEquals(decisions.at(-1)?.atMs, 1700, "the live detector heard it");
});

Deno.test("a replay resumed from a state the live detector saved decides what the live run decided after it", () => {
  const enc = new TextEncoder();
  const busy = (i: number) =>
    "\x1b[H\x1b[2J" + claudeScreen([`● Turn ${i}: reading the files… ─ ✓`], "busy").join("\r\n");
  const limit = claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu");
  let text = "";
  for (let i = 0; i < 40; i++) text += busy(i) + "\r\nlog line\r\n".repeat(i % 7);
  // A warning-free rate limit seen and gone mid-run, so the saved state holds sightings.
  text += "\x1b[H\x1b[2J" +
    claudeScreen(["  ⎿  API Error: Rate limit reached"], "busy").join("\r\n");
  text += busy(41) + "\x1b[H\x1b[2J" + limit.join("\r\n");
  const stream = enc.encode(text);
  let resumed = 0;
  for (let seed = 1; seed <= 6; seed++) {
    const live = liveRun(seed, stream);
    const inputs = parseCast(live.cast).inputs;
    // The live run again, saving its state before every 5th input, each replayed from there.
    const detector = new Detector(OPTS);
    const decisions: Decision[] = [];
    for (let i = 0; i < inputs.length; i++) {
      const state = i % 5 === 0 ? detector.saveState() : null;
      if (state) {
        const from = replay(inputs.slice(i), OPTS, JSON.parse(JSON.stringify(state)));
        const fromScratch = replay(inputs, OPTS);
        assertEquals(from.verdict, fromScratch.verdict, `seed ${seed}, input ${i}`);
        assertEquals(from.decisions, fromScratch.decisions.slice(decisions.length));
        assertEquals(from.offset, fromScratch.offset);
        resumed++;
      }
      detector.input(inputs[i]);
      decisions.push(...detector.takeDecisions());
    }
    assertEquals(live.verdict?.kind, "limit", `seed ${seed} acted`);
  }
  if (resumed < 20) throw new Error(`only ${resumed} states saved`);
});
