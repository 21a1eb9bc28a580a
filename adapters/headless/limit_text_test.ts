import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { isLimitText, limitFromText } from "./limit_text.ts";

Deno.test("limit text: the agents' limit messages are limits", () => {
  for (
    const text of [
      "You've hit your session limit · resets 3:29am (UTC)",
      "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again at 3:29 AM.",
      "Usage limit reached for all Pro models.",
      "[API Error: quota (Status: RESOURCE_EXHAUSTED)]",
      "You exceeded your current quota, please check your plan and billing details.",
      "Sorry, you've exceeded your 5 hour session limits. Please retry after 2733 seconds.",
    ]
  ) assert(isLimitText(text), text);
});

Deno.test("limit text: other errors and the 'not your usage limit' notice are not", () => {
  for (
    const text of [
      "Model metadata for `gpt-mock` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.",
      "API Error: Server is temporarily limiting requests (not your usage limit) · try again",
      "Reconnecting... 1/5",
      "permission denied",
    ]
  ) assert(!isLimitText(text), text);
});

Deno.test("limit text: a stated reset time is resolved against the clock", () => {
  const now = new Date("2026-01-10T01:00:00Z");
  const hit = limitFromText("You've hit your session limit · resets 3:29am (UTC)", now);
  assertEquals(hit?.resetsAt, "2026-01-10T03:29:00.000Z");
  assertEquals(limitFromText("disk full", now), null);
});
