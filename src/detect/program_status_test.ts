import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Adapter } from "../../adapters/adapter.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { codexScreen } from "../../adapters/_limit_screens_test_util.ts";
import { AGENT_CORPUS_DIR } from "../../tests/_paths.ts";
import { castLines, parseCast } from "./cast.ts";
import type { Decision } from "./decision.ts";
import { Detector } from "./detector.ts";
import { replay } from "./replay.ts";
import { ProgramStatus, STATUS_HOLD_MS } from "./program_status.ts";
import { timingInputs } from "./script_timing.ts";
import type { TimedInput } from "./timed_input.ts";
import { draw, drive, type DriveInput } from "./_drive_test_util.ts";

const STARTED = Date.parse("2026-03-10T03:00:00Z");
const codex = adapterByName("codex")!;
// The same Codex, as one that printed no status reports would be read.
const { programStatus: _, ...noStatus } = codex;
const enc = new TextEncoder();
const osc = (state: string) => enc.encode(`\x1b]7501;state=${state}:app=codex\x1b\\`);
// The text of an OSC 7501 string, as the terminal hands it on.
const report = (state: string) => `state=${state}:app=codex`;
const LIMIT = "■ You've hit your usage limit. Try again at 3:01 AM.";

function detector(adapter: Adapter = codex): Detector {
  return new Detector({ adapter, cols: 120, rows: 40, startedAt: STARTED, timeZone: "UTC" });
}

const acted = (ds: Decision[]) => ds.filter((d) => d.verdict === "acted");
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

// Real Codex 0.171.0 at its usage limit (testdata/corpus/agents/codex-limit): it prints `working`
// when the turn starts, then `error` in the very write that draws its `■` limit row.
function recorded(): TimedInput[] {
  const raw = readFileSync(join(AGENT_CORPUS_DIR, "codex-limit.raw"));
  const timing = readFileSync(join(AGENT_CORPUS_DIR, "codex-limit.timing"), "utf8");
  return timingInputs(new Uint8Array(raw), timing)!;
}

function runAll(d: Detector, inputs: TimedInput[]): { atMs: number; decisions: Decision[] } {
  const decisions: Decision[] = [];
  for (const input of inputs) {
    const v = d.input(input);
    decisions.push(...d.takeDecisions());
    if (v) return { atMs: v.atMs, decisions };
  }
  return { atMs: -1, decisions };
}

Deno.test("real Codex 0.171.0: its limit row in a turn whose status went error acts at once", () => {
  const inputs = recorded();
  const withStatus = runAll(detector(), inputs);
  const screenOnly = runAll(detector(noStatus as Adapter), inputs);
  const [act] = acted(withStatus.decisions);
  assertEquals(act.why, "its status (OSC 7501) went error in this turn");
  // The status changes are in the log, each at the byte offset after its write.
  assertEquals(
    withStatus.decisions.filter((d) => d.verdict === "event").map((d) => d.why),
    ["idle", "working", "error"].map((s) => `the agent's status (OSC 7501): ${s}`),
  );
  // Without the status the screen waits for the agent to stop writing (40 ms) first.
  assert(screenOnly.atMs > 0 && withStatus.atMs < screenOnly.atMs, `${withStatus.atMs}`);
  assertEquals(acted(screenOnly.decisions)[0].hit, act.hit);
});

Deno.test("a run with status reports replays to the same decisions", () => {
  const inputs = recorded();
  const live = runAll(detector(), inputs).decisions;
  const dec = new TextDecoder();
  const cast = inputs.map((i) => castLines(i, dec).join("")).join("");
  const again = replay(parseCast(`{"version":2,"width":120,"height":40}\n${cast}`).inputs, {
    adapter: codex,
    cols: 120,
    rows: 40,
    startedAt: STARTED,
    timeZone: "UTC",
  });
  assertEquals(again.decisions, live);
});

Deno.test("a limit row while the status says working is held; error confirms it, 10 s frees it", () => {
  const screen = draw(codexScreen([LIMIT]));
  // The status went error: acts on the look right after the write.
  const d1 = detector();
  const v1 = drive(d1, [{ at: 0, bytes: osc("working") }, {
    at: 100,
    bytes: concat(osc("error"), screen),
  }], 5_000);
  assertEquals(v1?.atMs, 100);
  // Still working (the model's own text quoting a limit): no verdict while it says so, though
  // the screen alone would have acted 40 ms after it.
  const d2 = detector();
  const held: DriveInput[] = [{ at: 0, bytes: osc("working") }, { at: 100, bytes: screen }];
  assertEquals(drive(d2, held, 100 + STATUS_HOLD_MS - 1), null);
  const waiting = d2.takeDecisions().filter((d) => d.verdict === "waiting");
  assertEquals(waiting.length, 1);
  assert(/still working/.test(waiting[0].why!));
  // Then the turn fails: confirmed at once.
  assertEquals(drive(d2, [{ at: 6_000, bytes: osc("error") }], 6_100)?.atMs, 6_000);
  // A status stuck at working does not keep the user at a limit: after 10 s the screen decides.
  const d3 = detector();
  const v3 = drive(d3, held, 100 + STATUS_HOLD_MS + 1_000);
  assertEquals(v3?.atMs, 100 + STATUS_HOLD_MS);
  assert(d3.takeDecisions().some((d) => /the screen decides/.test(d.why ?? "")));
});

Deno.test("a server error (status error, no limit row) never switches; done and idle change nothing", () => {
  const d = detector();
  const error = "■ We're currently experiencing high demand, which may cause temporary errors.";
  const inputs: DriveInput[] = [
    { at: 0, bytes: osc("working") },
    { at: 25_000, bytes: concat(osc("error"), draw(codexScreen([error]))) },
    { at: 25_010, bytes: osc("idle") },
  ];
  assertEquals(drive(d, inputs, 60_000, true), null);
  // After a turn that ended well, a limit row is the screen's to decide, as without the status.
  const d2 = detector();
  const v = drive(d2, [
    { at: 0, bytes: osc("working") },
    { at: 10, bytes: osc("done") },
    { at: 20, bytes: concat(osc("idle"), draw(codexScreen([LIMIT]))) },
  ], 1_000);
  assertEquals(v?.atMs, 60);
});

Deno.test("the status tracker: changes only, error remembered until the next turn works", () => {
  const s = new ProgramStatus();
  assertEquals(s.word(), null);
  const changes = s.feed([report("idle"), report("working"), report("working"), report("error")]);
  assertEquals(changes.map((c) => c.state), ["idle", "working", "error"]);
  assertEquals(changes.map((c) => c.event), [{ type: "idle" }, { type: "busy" }, { type: "idle" }]);
  assertEquals(s.word(), "confirms");
  s.feed([report("idle")]);
  assertEquals(s.word(), "confirms");
  s.feed([report("working")]);
  assertEquals(s.word(), "working");
  s.feed([report("done")]);
  assertEquals([s.state, s.word()], ["done", null]);
});

Deno.test("status reports after the verdict are not recorded (a replay stops at the verdict)", () => {
  const d = detector();
  const v = drive(d, [{ at: 0, bytes: osc("working") }, {
    at: 100,
    bytes: concat(osc("error"), draw(codexScreen([LIMIT]))),
  }], 200);
  assert(v);
  d.takeDecisions();
  d.output(osc("idle"), 300);
  assertEquals(d.takeDecisions(), []);
});
