import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DEFAULT_HANDOFF_POLICY, shouldHandOff } from "./policy.ts";
import { parseDuration } from "./reset_time.ts";

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

Deno.test("the agent's own stated wait outweighs the attempt count", () => {
  // OpenCode 1.18.33 given `retry-after: 2` until its fourth try: "[retrying in 2s attempt #3]".
  assertEquals(shouldHandOff({ ...rate, attempt: 3, waitSeconds: 2 }), false);
  // The moment it retries ("[retrying attempt #3]"): a wait of 0.
  assertEquals(shouldHandOff({ ...rate, attempt: 3, waitSeconds: 0 }), false);
  // An hours-long wait drawn as a retry: "retrying in 3h 20m", "retrying in 2h (2:15pm)".
  assertEquals(shouldHandOff({ ...rate, attempt: 1, waitSeconds: 3 * 3600 + 20 * 60 }), true);
  const twoHours = parseDuration("2h (2:15pm)");
  assertEquals(twoHours, 2 * 3600);
  assertEquals(shouldHandOff({ ...rate, attempt: 2, waitSeconds: twoHours! }), true);
  // Ten retries are the work standing still, however short each wait.
  assertEquals(shouldHandOff({ ...rate, attempt: 9, waitSeconds: 30 }), false);
  assertEquals(shouldHandOff({ ...rate, attempt: 10, waitSeconds: 30 }), true);
});

Deno.test("the policy is configurable and defaults to a 5-minute wait, attempt 3 unstated, 10 at most", () => {
  assertEquals(DEFAULT_HANDOFF_POLICY, { minAttempt: 3, minWaitSeconds: 300, maxAttempt: 10 });
  const quick = { minAttempt: 2, minWaitSeconds: 60, maxAttempt: 4 };
  assertEquals(shouldHandOff({ ...rate, attempt: 2 }, quick), true);
  assertEquals(shouldHandOff({ ...rate, waitSeconds: 61 }, quick), true);
  assertEquals(shouldHandOff({ ...rate, attempt: 3, waitSeconds: 5 }, quick), false);
  assertEquals(shouldHandOff({ ...rate, attempt: 4, waitSeconds: 5 }, quick), true);
});
