import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { LimitConfirmation } from "./confirm.ts";
import type { LimitHit } from "./adapter.ts";

const hit = (message: string, resetsAt: string | null = null): LimitHit => ({
  kind: "usage",
  message,
  resetsAt,
});

Deno.test("a limit is acted on once it stayed the same for the settle time", () => {
  const c = new LimitConfirmation(500);
  const full = hit("You've hit your limit · resets 3:01am (UTC)", "2026-03-10T03:01:00.000Z");
  assertEquals(c.observe(full, 0), { action: "wait", retryInMs: 500 });
  assertEquals(c.observe(full, 200), { action: "wait", retryInMs: 300 });
  assertEquals(c.observe(full, 500), { action: "act", hit: full });
});

Deno.test("a message completed by a later write starts the wait again, and the complete one is acted on", () => {
  const c = new LimitConfirmation(500);
  const cut = hit("You've hit your limit · resets 3:");
  const full = hit("You've hit your limit · resets 3:01am (UTC)", "2026-03-10T03:01:00.000Z");
  c.observe(cut, 0);
  assertEquals(c.observe(full, 450).action, "wait");
  assertEquals(c.observe(full, 700).action, "wait");
  assertEquals(c.observe(full, 950), { action: "act", hit: full });
});

Deno.test("a limit that went away is forgotten; a retry countdown is the same sighting", () => {
  const c = new LimitConfirmation(500);
  c.observe(hit("x"), 0);
  assertEquals(c.observe(null, 100), { action: "none" });
  assertEquals(c.pending, null);
  assertEquals(c.observe(hit("x"), 600).action, "wait");
  const r = (s: number): LimitHit => ({
    kind: "rate",
    message: `Rate limit reached [retrying in ${s}s attempt #3]`,
    resetsAt: null,
    attempt: 3,
    waitSeconds: s,
  });
  const d = new LimitConfirmation(500);
  d.observe(r(13), 0);
  const next = { ...r(12), attempt: 4, message: "Rate limit reached [retrying in 12s attempt #4]" };
  assertEquals(d.observe(next, 600), { action: "act", hit: next });
});
