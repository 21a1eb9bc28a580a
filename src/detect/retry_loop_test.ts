import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import { geminiScreen } from "../../adapters/_limit_screens_test_util.ts";
import { geminiDebugLine } from "../../adapters/channels/gemini_log.ts";
import { DEFAULT_RETRY_LOOP_SECONDS } from "../../adapters/policy.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";
import { Detector } from "./detector.ts";
import { draw, drive, type DriveInput } from "./_drive_test_util.ts";

const STARTED = Date.parse("2026-12-05T05:14:37Z");
const gemini = adapterByName("gemini")!;
const OPTS = { now: new Date(STARTED), timeZone: "UTC" };
const GLYPHS = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

// Gemini CLI 0.61.0's debug-log lines for its two silent capacity retries, as written against the
// mock's gemini-capacity lane (2026-12-05); then it loops without a line.
const [ATTEMPT1, ATTEMPT2] = [
  "[2026-12-05T05:14:37.824Z] [WARN] Attempt 1 failed: No capacity available for model " +
  "gemini-2.5-pro on the server. Retrying after 1063ms...",
  "[2026-12-05T05:14:38.898Z] [WARN] Attempt 2 failed: No capacity available for model " +
  "gemini-2.5-pro on the server. Retrying after 3193ms...",
].map((l) => geminiDebugLine(l, OPTS)[0]);
const PER_MINUTE = geminiDebugLine(
  "[2026-12-04T18:49:50.829Z] [WARN] Attempt 1 failed: You exceeded your current quota, please " +
    "check your plan and billing details. Suggested retry after 3s.. Retrying after 5099ms...",
  OPTS,
)[0];

const TURN = [" > and a test for it", ""];
// Its screen while it waits on its model: the spinner row turns, its timer counts.
const waiting = (at: number, row = "Thinking...", turn = TURN) =>
  geminiScreen(turn, true).map((r) =>
    r.startsWith("⠙ Thinking...")
      ? `${GLYPHS[Math.floor(at / 80) % 10]} ${row} (esc to cancel, ${Math.floor(at / 1000)}s)`
      : r
  );

// Spinner frames every `every` ms from `from` to `to`, drawn by `screen`.
function frames(from: number, to: number, screen = waiting, every = 250): DriveInput[] {
  const out: DriveInput[] = [];
  for (let at = from; at <= to; at += every) out.push({ at, bytes: draw(screen(at)) });
  return out;
}

function run(inputs: DriveInput[], until: number, retryLoopSeconds?: number) {
  const d = new Detector({
    adapter: gemini,
    cols: 120,
    rows: 40,
    startedAt: STARTED,
    timeZone: "UTC",
    ...(retryLoopSeconds !== undefined ? { retryLoopSeconds } : {}),
  });
  const sorted = [...inputs].sort((a, b) => a.at - b.at);
  const verdict = drive(d, sorted, until);
  const decisions = d.takeDecisions().filter((x) => x.verdict !== "event");
  return { verdict, decisions };
}

const at = (t: number, event: ChannelEvent): DriveInput => ({ at: t, event });

Deno.test("gemini's capacity loop: handed off once only its spinner moved for the default 60 s", () => {
  const { verdict, decisions } = run([
    ...frames(0, 70_000),
    at(1_000, ATTEMPT1),
    at(2_100, ATTEMPT2),
  ], 70_000);
  assertEquals(DEFAULT_RETRY_LOOP_SECONDS, 60);
  assertEquals(verdict?.kind, "limit");
  assertEquals(verdict?.atMs, 61_000);
  assert(verdict!.kind === "limit" && verdict.hit.endless && verdict.hit.kind === "rate");
  assertEquals(
    decisions.map((d) => `${d.source}:${d.verdict}@${d.atMs}`),
    ["channel:waiting@1000", "channel:acted@61000"],
  );
  assert(decisions[1].why?.includes("retryLoopSeconds"), decisions[1].why);
});

Deno.test("gemini's capacity loop: retryLoopSeconds sets the bound, 0 turns it off", () => {
  const inputs = [...frames(0, 30_000), at(1_000, ATTEMPT1)];
  assertEquals(run(inputs, 30_000, 10).verdict?.atMs, 11_000);
  const off = run(inputs, 30_000, 0);
  assertEquals(off.verdict, null);
  // Off, the report is weighed as before: a rate limit still retried, not worth a handoff.
  assertEquals(off.decisions.map((d) => d.verdict), ["rejected"]);
});

Deno.test("the retry got through: a reply drawn beside the spinner ends the watch, never a handoff", () => {
  const replied = (t: number) =>
    waiting(t, "Thinking...", t < 4_000 ? TURN : [...TURN, "✦ MOCKREPLY-2: noted.", ""]);
  const { verdict, decisions } = run(
    [...frames(0, 130_000, replied), at(1_000, ATTEMPT1)],
    130_000,
  );
  assertEquals(verdict, null);
  assertEquals(decisions.map((d) => d.verdict), ["waiting", "rejected"]);
  assertEquals(decisions[1].why, "the agent drew something beside its waiting row: it went on");
});

Deno.test("a thought's subject in the spinner row, or the turn's end, is the agent going on", () => {
  const thinking = (t: number) => waiting(t, t < 3_000 ? "Thinking..." : "Reading deploy.sh");
  const thought = run([...frames(0, 130_000, thinking), at(1_000, ATTEMPT1)], 130_000);
  assertEquals(thought.verdict, null);
  assertEquals(thought.decisions.map((d) => d.verdict), ["waiting", "rejected"]);
  // Its retry phrases are still its waiting row.
  const phrase = (t: number) =>
    waiting(t, t < 3_000 ? "Thinking..." : "This is taking a bit longer, we're still on it.");
  assertEquals(
    run([...frames(0, 70_000, phrase), at(1_000, ATTEMPT1)], 70_000).verdict?.atMs,
    61_000,
  );
  // The turn ended (its input box back, no spinner): whatever it drew, the screen's rules decide.
  const ended = (t: number) => (t < 3_000 ? waiting(t) : geminiScreen(TURN));
  const idle = run([...frames(0, 130_000, ended), at(1_000, ATTEMPT1)], 130_000);
  assertEquals(idle.verdict, null);
  assertEquals(
    idle.decisions.at(-1)?.why,
    "the agent stopped waiting on its model (its waiting row is gone)",
  );
});

Deno.test("a per-minute quota Gemini retries, or a turn with no report, never starts the rule", () => {
  assertEquals(run([...frames(0, 130_000), at(1_000, PER_MINUTE)], 130_000).verdict, null);
  assertEquals(run(frames(0, 130_000), 130_000).verdict, null);
});

Deno.test("half a frame (a look between the writes of one redraw) is not the agent going on", () => {
  // A look that sees the top of the screen only, its spinner row and input box not yet redrawn.
  const half = (t: number) =>
    t % 5_000 === 0
      ? waiting(t).slice(0, waiting(t).findIndex((r) => r.includes("esc")))
      : waiting(t);
  const { verdict, decisions } = run([...frames(0, 70_000, half), at(1_000, ATTEMPT1)], 70_000);
  assertEquals(verdict?.atMs, 61_000);
  assertEquals(decisions.map((d) => d.verdict), ["waiting", "acted"]);
});
