import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { drawnRows, type ErrorCell, renderErrorTable } from "./error_matrix.ts";

Deno.test("what the agent drew: the rows after the second turn that speak of the error", () => {
  const screen = [
    "› Add a --dry-run flag to deploy.sh",
    "• MOCKREPLY-1: noted.",
    "› and a test for it",
    "",
    "■ Your workspace is out of credits. Ask your workspace owner to refill in order to continue.",
    "  Request a limit increase from your owner to continue using codex. Request increase?",
    "  1. Yes (y)",
    "  mock-1 default · /tmp/uuldana-errors/codex-x/ws",
  ].join("\n");
  assertEquals(drawnRows(screen, "/tmp/uuldana-errors/codex-x"), [
    "■ Your workspace is out of credits. Ask your workspace owner to refill in order to continue.",
    "Request a limit increase from your owner to continue using codex. Request increase?",
  ]);
  // Nor Qwen's banner row, which names the folder shortened.
  assertEquals(
    drawnRows(
      "› and a test for it\n  ╚██╝ /tmp/.../qwen-chat-503-3c04/ws",
      "/tmp/x/qwen-chat-503-3c04",
    ),
    [],
  );
  // The first turn's rows are not the error's.
  assertEquals(drawnRows("› rate limit me\n› and a test for it\n• done"), []);
});

Deno.test("the table: one row per cell, agents in order, pipes escaped", () => {
  const cell = (agent: string, lane: string, extra: Partial<ErrorCell> = {}): ErrorCell => ({
    agent,
    version: "1.0.0",
    lane,
    class: "hard",
    result: "pass",
    drawn: ["a | b"],
    channel: null,
    uuldana: "handed off (screen)",
    dir: "/tmp/x",
    load: "1.00 1.00 1.00",
    date: "2026-12-04",
    ...extra,
  });
  const table = renderErrorTable([
    cell("pi", "chat-503", { class: "transient", toSuccess: 6.1, uuldana: "no handoff" }),
    cell("claude", "anthropic-five-hour", { toHandoff: 0.6, toNextAgent: 0.8 }),
  ]).split("\n");
  assertEquals(table.length, 4);
  assert(table[2].startsWith("| claude 1.0.0 | anthropic-five-hour (hard) | a \\| b |"), table[2]);
  assert(table[2].includes("handoff 0.6 s, next agent 0.8 s"), table[2]);
  assert(table[3].includes("success 6.1 s"), table[3]);
});
