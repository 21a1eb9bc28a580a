import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isTopicText } from "./topic.ts";

Deno.test("sentences about limits, credits, plans and retries are candidates", () => {
  for (
    const t of [
      "You've hit your limit · resets ${time}",
      "Your seat type doesn't include usage credits",
      "Fast limit reached, fast mode paused · resets in ${m}",
      "Retrying (${a}/${b}) in ${s}s...",
      "Upgrade your plan for access to premium models.",
    ]
  ) assertEquals(isTopicText(t), true, t);
});

Deno.test("code, identifiers, usage lines and off-topic prose are not", () => {
  for (
    const t of [
      "rate_limit_exceeded",
      "if (usage > limit) { return retry(); }",
      "Usage: /name <name>",
      "https://platform.claude.com/settings/billing",
      "Read the file and summarise it for the user.",
    ]
  ) assertEquals(isTopicText(t), false, t);
});
