import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { warningIn } from "./limit_warning.ts";
import { join } from "node:path";
import { detectClaudeLimit } from "./claude_screen.ts";
import { adapterByName } from "./registry.ts";
import { SCREENS_DIR } from "../tests/_paths.ts";

const NOW = new Date("2026-12-04T18:13:00Z");

Deno.test("Claude's usage warnings, as its package words them, with the reset they state", () => {
  for (
    const text of [
      "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)",
      "Over 90% of your weekly limit used · resets Dec 9, 5pm (UTC)",
      "Approaching your 5-hour usage limit — Claude will wrap up the current step.",
      "You're close to your usage credit limit",
    ]
  ) {
    const w = warningIn("claude", "row", text, NOW, "UTC");
    assertEquals(w?.message, text);
  }
  assertEquals(
    warningIn("claude", "row", "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)", NOW)
      ?.resetsAt,
    "2026-12-04T21:13:00.000Z",
  );
  assertEquals(warningIn("claude", "row", "Approaching Opus usage limit", NOW)?.resetsAt, null);
});

Deno.test("a limit, a reply and another agent's wording are no warning", () => {
  for (
    const [agent, surface, text] of [
      ["claude", "row", "You've hit your 5-hour limit · resets 9:44pm (UTC)"],
      ["claude", "row", "I think you've used 91% of your 5-hour limit"],
      [
        "claude",
        "row",
        "API Error: Server is temporarily limiting requests (not your usage limit)",
      ],
      ["codex", "cell", "You've hit your usage limit. Try again at 3:02 AM."],
    ]
  ) {
    assertEquals(warningIn(agent, surface, text, NOW), null, text);
  }
});

Deno.test("a warning never reads as a limit", () => {
  const screen = [
    "❯ hello",
    "",
    "● MOCKREPLY-1: noted.",
    "",
    "  ⎿  You've used 91% of your 5-hour limit · resets 9:13pm (UTC)",
    "",
    "─".repeat(60),
    "❯\u00a0",
    "─".repeat(60),
    "  ? for shortcuts",
  ];
  assertEquals(detectClaudeLimit(screen, { now: NOW, timeZone: "UTC" }), null);
});

Deno.test("Codex 0.171.0's warning cells on its real screen: the lowest one, no reset stated", () => {
  // Real Codex 0.171.0 against the mock's `x-codex-primary-used-percent: 91` /
  // `x-codex-secondary-used-percent: 93` answer (lane codex-usage-warning), 120 columns.
  const screen = Deno.readTextFileSync(join(SCREENS_DIR, "codex-0.171.0-warning.txt")).split("\n");
  const codex = adapterByName("codex")!;
  const opts = { now: NOW, cols: 120, timeZone: "UTC" };
  assertEquals(codex.detectWarning!(screen, opts), {
    id: "heads-up-limit-left",
    message: "Heads up, you have less than 10% of your 5h limit left. Run /status for a breakdown.",
    resetsAt: null,
  });
  assertEquals(codex.detectLimit(screen, opts), null);
  // A reply that quotes it (Codex's model text starts with `• `) is none.
  const quoted = screen.map((r) => r.startsWith("⚠ ") ? `• ${r.slice(2)}` : r);
  assertEquals(codex.detectWarning!(quoted, opts), null);
});
