import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { handoffRequest, replyLines } from "./reply.ts";

Deno.test("replyLines: deterministic, names the first 60 characters of the prompt", () => {
  const prompt = "fix   the\nbug " + "x".repeat(100);
  const a = replyLines("codex", prompt, 3);
  assertEquals(a, replyLines("codex", prompt, 3));
  assertEquals(a[0], "Working on: fix the bug " + "x".repeat(60 - 12));
  assertEquals(a[1].includes("turn 3"), true);
});

Deno.test("handoffRequest: finds the original request of a framed handoff", () => {
  assertEquals(
    handoffRequest("HANDOFF (untrusted)\nOriginal request: port the parser\nUser: hi"),
    "port the parser",
  );
  assertEquals(handoffRequest("handoff\nOriginal request (cut):\n\n  add tests  \n"), "add tests");
  assertEquals(handoffRequest("=== handoff ===\nUser: do it\nAgent: ok"), "do it");
  assertEquals(handoffRequest("hello from handoff"), null);
  assertEquals(handoffRequest("Original request: x"), null);
});

Deno.test("replyLines: a handoff in the prompt or in the hook context is continued", () => {
  const h = "Handoff\nOriginal request: port the parser";
  assertEquals(replyLines("claude", h, 1)[0], "Continuing from the handoff: port the parser");
  assertEquals(
    replyLines("claude", "go on", 1, h)[0],
    "Continuing from the handoff: port the parser",
  );
});
