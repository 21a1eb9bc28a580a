import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { FINAL_STATUSES, type HandoffEvent, settleHandoff } from "./handoff_status.ts";

Deno.test("settleHandoff: every event from pending", () => {
  const cases: [HandoffEvent, unknown][] = [
    [{ kind: "launched", toRun: 7 }, { status: "delivered", toRun: 7 }],
    [{ kind: "awaiting-paste", toRun: 7 }, { status: "pending", toRun: 7 }],
    [{ kind: "pasted", receipt: "visible" }, { status: "pasted", receipt: "visible" }],
    [{ kind: "not-pasted", reason: "no prompt" }, { status: "saved", error: "no prompt" }],
    [{ kind: "not-seen", receipt: "r", reason: "never showed" }, {
      status: "saved",
      receipt: "r",
      error: "never showed",
    }],
    [{ kind: "road-refused", reason: "too long" }, { status: "refused", error: "too long" }],
    [
      { kind: "start-failed", agent: "codex", reason: "ENOENT" },
      { status: "saved", error: "codex could not be started: ENOENT" },
    ],
    [{ kind: "interrupted" }, {
      status: "interrupted",
      error: "uuldana was stopped before it could deliver the handoff",
    }],
  ];
  for (const [event, change] of cases) assertEquals(settleHandoff("pending", event), change);
});

Deno.test("settleHandoff: a final status is never left", () => {
  for (const status of FINAL_STATUSES) {
    assertEquals(settleHandoff(status, { kind: "interrupted" }), null);
    assertEquals(settleHandoff(status, { kind: "pasted", receipt: "x" }), null);
  }
  assertEquals(FINAL_STATUSES.has("pending"), false);
});
