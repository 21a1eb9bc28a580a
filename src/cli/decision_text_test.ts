import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { describeDecision } from "./decision_text.ts";

Deno.test("a warning record reads as the agent near its limit, with the reset it states", () => {
  assertEquals(
    describeDecision({
      atMs: 18739.25,
      offset: 40312,
      source: "screen",
      verdict: "warning",
      warning: {
        id: "used-percent",
        message: "You've used 91% of your 5-hour limit · resets 9:35pm (UTC)",
        resetsAt: "2026-12-04T21:35:00.000Z",
      },
    }),
    "   18.739 s     40312 B  screen warning  near its limit: You've used 91% of your 5-hour " +
      "limit · resets 9:35pm (UTC) (resets 2026-12-04T21:35:00.000Z)",
  );
});
