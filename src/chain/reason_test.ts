import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { handoffReason, limitSeen, stopMessage } from "./reason.ts";

Deno.test("a stall is a stall, never a usage limit", () => {
  const stall = { kind: "stall" as const, message: "busy for 300 s with no answer" };
  assertEquals(handoffReason(stall), { kind: "stall", message: stall.message });
  assertEquals(limitSeen(stall), { kind: "stall", message: stall.message, resetsAt: null });
  assertEquals(stopMessage(stall), "stalled: busy for 300 s with no answer");
});

Deno.test("a limit keeps its message and reset time", () => {
  const limit = {
    kind: "limit" as const,
    limit: { kind: "usage" as const, message: "resets 3:01am", resetsAt: "2026-12-01T03:01:00Z" },
  };
  assertEquals(handoffReason(limit), {
    kind: "limit",
    message: "resets 3:01am",
    resetsAt: "2026-12-01T03:01:00Z",
  });
  assertEquals(limitSeen(limit).kind, "usage");
  assertEquals(stopMessage(limit), "resets 3:01am");
});
