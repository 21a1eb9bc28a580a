import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DEFAULT_HANDOFF_POLICY, shouldHandOff } from "./policy.ts";

const rate = { kind: "rate" as const, message: "Rate limit reached", resetsAt: null };

Deno.test("usage always hands off; rate only when it persists", () => {
  assertEquals(shouldHandOff({ ...rate, kind: "usage" }), true);
  assertEquals(shouldHandOff({ ...rate, attempt: 1, waitSeconds: 13 }), false);
  assertEquals(shouldHandOff({ ...rate, attempt: 2, waitSeconds: 299 }), false);
  assertEquals(shouldHandOff({ ...rate, attempt: 3 }), true);
  assertEquals(shouldHandOff({ ...rate, attempt: 1, waitSeconds: 300 }), true);
  assertEquals(shouldHandOff({ ...rate, final: true }), true);
  assertEquals(shouldHandOff(rate), false);
});

Deno.test("the policy is configurable and defaults to attempt 3 or 5 minutes", () => {
  assertEquals(DEFAULT_HANDOFF_POLICY, { minAttempt: 3, minWaitSeconds: 300 });
  assertEquals(shouldHandOff({ ...rate, attempt: 2 }, { minAttempt: 2, minWaitSeconds: 60 }), true);
  assertEquals(
    shouldHandOff({ ...rate, waitSeconds: 61 }, { minAttempt: 9, minWaitSeconds: 60 }),
    true,
  );
});
