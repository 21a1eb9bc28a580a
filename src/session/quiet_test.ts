import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { QuietDetector } from "./quiet.ts";

Deno.test("quiet after quietMs without output", () => {
  const q = new QuietDetector(1000);
  assertEquals(q.isQuiet(2499), false);
  assertEquals(q.isQuiet(2500), true);
  q.output(3000, false);
  assertEquals(q.isQuiet(4000), false);
  assertEquals(q.msUntilQuiet(4000), 500);
  assertEquals(q.isQuiet(4500), true);
});

Deno.test("configurable quietMs", () => {
  const q = new QuietDetector(0, { quietMs: 200 });
  q.output(100, false);
  assertEquals([q.isQuiet(299), q.isQuiet(300)], [false, true]);
});

Deno.test("an unfinished sync update holds quiet until it ends or the cut-off", () => {
  const q = new QuietDetector(0, { quietMs: 1500, syncCutoffMs: 5000 });
  q.output(100, true);
  assertEquals(q.isQuiet(1600), false);
  assertEquals(q.isQuiet(5099), false);
  assertEquals(q.isQuiet(5100), true); // lone ?2026h that never ended
  q.output(6000, false); // the frame ends
  assertEquals([q.isQuiet(7499), q.isQuiet(7500)], [false, true]);
});

Deno.test("timestamps out of order never move the last output back", () => {
  const q = new QuietDetector(0, { quietMs: 100 });
  q.output(500, false);
  q.output(450, false);
  assertEquals([q.isQuiet(599), q.isQuiet(600)], [false, true]);
});

Deno.test("cut-off is never shorter than quietMs", () => {
  const q = new QuietDetector(0, { quietMs: 3000, syncCutoffMs: 1000 });
  q.output(0, true);
  assertEquals([q.isQuiet(2999), q.isQuiet(3000)], [false, true]);
});
