import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { LimitConfirmation, resetLooksCut } from "./confirm.ts";
import type { LimitHit } from "../../adapters/adapter.ts";

const hit = (message: string, resetsAt: string | null = null): LimitHit => ({
  kind: "usage",
  message,
  resetsAt,
});
const FULL = hit("You've hit your limit · resets 3:01am (UTC)", "2026-03-10T03:01:00.000Z");
const CUT = hit("You've hit your limit · resets 3:");

Deno.test("a complete limit is acted on once the agent stopped writing for the quiet time", () => {
  const c = new LimitConfirmation({ quietMs: 50, settleMs: 500 });
  assertEquals(c.observe(FULL, 0, 0), { action: "wait", retryInMs: 50 });
  assertEquals(c.observe(FULL, 30, 30), { action: "wait", retryInMs: 20 });
  assertEquals(c.observe(FULL, 50, 50), { action: "act", hit: FULL });
});

Deno.test("a reset clause cut short waits for the rest; the complete message is acted on", () => {
  assertEquals([resetLooksCut(CUT), resetLooksCut(FULL)], [true, false]);
  assertEquals(resetLooksCut(hit("You hit your spend cap set by the owner.")), false);
  const c = new LimitConfirmation({ quietMs: 50, settleMs: 500 });
  // Quiet, but cut: wait for the settle time.
  assertEquals(c.observe(CUT, 0, 100), { action: "wait", retryInMs: 500 });
  assertEquals(c.observe(CUT, 200, 300), { action: "wait", retryInMs: 300 });
  // The rest arrived: the complete message, once quiet.
  assertEquals(c.observe(FULL, 260, 0).action, "wait");
  assertEquals(c.observe(FULL, 310, 50), { action: "act", hit: FULL });
  // A message that really shows no time is acted on after the settle time.
  const d = new LimitConfirmation({ quietMs: 50, settleMs: 500 });
  const later = hit("Rate limited. Please try again later.");
  d.observe(later, 0, 100);
  assertEquals(d.observe(later, 500, 600), { action: "act", hit: later });
});

Deno.test("an agent that keeps drawing: the same hit for the settle time; a countdown may change", () => {
  const r = (s: number, attempt: number): LimitHit => ({
    kind: "rate",
    message: `Rate limit reached [retrying in ${s}s attempt #${attempt}]`,
    resetsAt: null,
    attempt,
    waitSeconds: s,
  });
  const c = new LimitConfirmation({ quietMs: 50, settleMs: 500 });
  assertEquals(c.observe(r(13, 3), 0, 0).action, "wait");
  assertEquals(c.observe(r(13, 3), 300, 10).action, "wait");
  assertEquals(c.observe(r(12, 4), 500, 10), { action: "act", hit: r(12, 4) });
  assertEquals(c.observe(null, 600, 0), { action: "none" });
  assertEquals(c.pending, null);
});
