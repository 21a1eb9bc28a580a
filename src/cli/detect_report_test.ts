import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import { claudeScreen } from "../../adapters/_limit_screens_test_util.ts";
import {
  chunkSizes,
  DETECT_CHUNK,
  detectInRecording,
  renderReport,
  reportReplay,
} from "./detect_report.ts";

const claude = adapterByName("claude")!;
const now = new Date("2026-03-10T02:00:00Z");
const LIMIT = "You've hit your session limit · resets 3:01am (UTC)";
const bytes = new TextEncoder().encode(
  "\x1b[2J\x1b[H" + claudeScreen([`  ⎿  ${LIMIT}`], "menu").join("\r\n"),
);

Deno.test("an untimed recording is fed in pieces of at most DETECT_CHUNK, a timing file's first", () => {
  assertEquals(chunkSizes(10_000), [DETECT_CHUNK, DETECT_CHUNK, 10_000 - 2 * DETECT_CHUNK]);
  assertEquals(chunkSizes(6_000, "0.1 10\n0.25 5000\nnot a line\n"), [10, DETECT_CHUNK, 904, 990]);
  assertEquals(chunkSizes(0), []);
});

Deno.test("raw output without times: the limit still pending at the end, said as untimed", () => {
  const report = detectInRecording(claude, bytes, { cols: 120, rows: 40, now, timeZone: "UTC" });
  assertEquals(report.timed, false);
  assert(report.detected);
  assertEquals([report.kind, report.resetsAt, report.handOff], [
    "usage",
    "2026-03-10T03:01:00.000Z",
    true,
  ]);
  const text = renderReport(report, "x.raw, claude");
  assert(text.startsWith(`usage limit detected after ${bytes.length} bytes (x.raw, claude)`), text);
  assert(text.includes("untimed:   raw output without times"), text);
});

Deno.test("a replay's report: its verdict, else the first limit seen, else none", () => {
  const hit = { kind: "rate" as const, message: "slow down", resetsAt: null };
  const seen = reportReplay({
    verdict: null,
    ending: "end",
    droppedDecisions: 0,
    offset: 90,
    decisions: [{ atMs: 5, offset: 70, source: "screen", verdict: "seen", hit }],
  });
  assertEquals([seen.detected, seen.atOffset, seen.atMs, seen.timed], [true, 70, 5, true]);
  assert(renderReport(seen, "run 3").includes("rate limit seen, not acted on at 0.005 s"));
  const none = reportReplay({
    verdict: null,
    ending: "cut",
    decisions: [],
    droppedDecisions: 0,
    offset: 0,
  });
  assertEquals(none.detected, false);
  assertEquals(
    renderReport(none, "run 4"),
    "no limit detected (run 4)\n  ends:      without the end of the output (the run was killed, or is still running)",
  );
});
