import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { CLAUDE_INPUT_BOX, detectClaudeLimit, detectClaudeWarning } from "./claude_screen.ts";
import { findInputBox, readInputBox } from "./input_box.ts";
import { claude332Screen, finalScreen } from "./_limit_screens_test_util.ts";
import type { DetectOptions } from "./adapter.ts";
import { SCREENS_DIR } from "../tests/_paths.ts";

const OPTS: DetectOptions = { now: new Date("2026-12-01T21:50:00Z"), cols: 120, timeZone: "UTC" };

Deno.test("2.1.332 input box: empty at startup, the text typed while it waits, a hint after an error", () => {
  assertEquals(readInputBox(finalScreen("claude-2.1.332-startup"), CLAUDE_INPUT_BOX), {
    rows: [],
  });
  // `❯` and a no-break space, then what the user typed; the limit footer under the box.
  const typed = finalScreen("claude-2.1.332-limit-typed");
  assert(typed.some((r) => r === "❯\u00a0is it over yet"));
  assertEquals(readInputBox(typed, CLAUDE_INPUT_BOX), { rows: ["is it over yet"] });
  // "Once fixed, resend your message" is the box's hint after "Not logged in", not input.
  const login = finalScreen("claude-2.1.332-notloggedin");
  assert(login.some((r) => r.includes("Once fixed, resend your message")));
  assertEquals(readInputBox(login, CLAUDE_INPUT_BOX), { rows: [] });
});

Deno.test("2.1.332 input box: the footer under it is not the box's text", () => {
  const screen = finalScreen("claude-2.1.332-limit");
  const box = findInputBox(screen, CLAUDE_INPUT_BOX)!;
  assertEquals(screen.slice(box.to + 1).filter((r) => r.trim()), [
    "  ⚠ Usage limit reached · limit resets 1:15am",
    "    Continuing automatically at 1:15am · Esc to cancel",
    "  ⏵⏵ auto mode on (shift+tab to cycle)",
  ]);
  assertEquals(box.reading, { rows: [] });
});

Deno.test("2.1.332 limit: the turn's limit row names it; the footer alone still counts", () => {
  const screen = finalScreen("claude-2.1.332-limit");
  assertEquals(detectClaudeLimit(screen, OPTS), {
    kind: "usage",
    message: "You've hit your 5-hour limit · resets 1:15am (UTC)",
    resetsAt: "2026-12-02T01:15:00.000Z",
  });
  // The same screen with the turn gone (scrolled away, or drawn in words never seen).
  const footerOnly = screen.map((r, i) => (i >= 10 && i <= 13 ? "" : r));
  assertEquals(
    detectClaudeLimit(footerOnly, OPTS)?.message,
    [
      "Usage limit reached · limit resets 1:15am",
      "Continuing automatically at 1:15am · Esc to cancel",
    ].join(" · "),
  );
});

Deno.test("2.1.332 limit: the footer's limit counts only under the live input box", () => {
  const screen = claude332Screen(["", "● Done."], "waiting");
  assert(detectClaudeLimit(screen, OPTS));
  // The footer's rows drawn above the box (a reply or a tool's output showing them): nothing.
  const moved = claude332Screen([
    "",
    "● Done.",
    "  ⚠ Usage limit reached · limit resets 1:15am",
    "    Continuing automatically at 1:15am · Esc to cancel",
  ]);
  assertEquals(detectClaudeLimit(moved, OPTS), null);
});

Deno.test("2.1.332 limit: Claude's `●` notice after the limit row is not a later turn", () => {
  const rows = [
    "  ⎿  You've hit your 5-hour limit · resets 10:44pm (UTC)",
    "",
    "● Usage limit reached · set to continue automatically at 10:44pm",
  ];
  assertEquals(
    detectClaudeLimit(claude332Screen(rows), OPTS)?.resetsAt,
    "2026-12-01T22:44:00.000Z",
  );
  // An answer after the limit row is a later block: the limit row is not what the turn ended on.
  const answered = claude332Screen([...rows, "", "● Here is the plan for deploy.sh."]);
  assertEquals(detectClaudeLimit(answered, OPTS), null);
});

Deno.test("2.1.332 warning: its notice against the right edge above the box, read with its reset", () => {
  // Real Claude Code 2.1.332 against the mock's `anthropic-ratelimit-unified-status:
  // allowed_warning` answer (91 % of the 5-hour window), `tmux capture-pane`, 120 columns.
  const screen = Deno.readTextFileSync(`${SCREENS_DIR}/claude-2.1.332-warning.txt`).split("\n");
  const opts = { now: new Date("2026-12-04T18:13:00Z"), cols: 120, timeZone: "UTC" };
  assertEquals(detectClaudeWarning(screen, opts), {
    id: "used-percent",
    message: "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)",
    resetsAt: "2026-12-04T21:13:00.000Z",
  });
  assertEquals(detectClaudeLimit(screen, opts), null);
  // Gone some seconds later: no warning.
  const row = screen.findIndex((r) => r.includes("You've used"));
  assertEquals(detectClaudeWarning(screen.toSpliced(row, 1, ""), opts), null);
});

Deno.test("2.1.332 warning: a reply that quotes one, or a limit screen, is no warning", () => {
  assertEquals(detectClaudeWarning(finalScreen("claude-2.1.332-limit"), OPTS), null);
  const reply = [
    "❯ what does the warning say?",
    "",
    "● You've used 91% of your 5-hour limit · resets 9:13pm (UTC)",
    "",
    "─".repeat(60),
    "❯\u00a0",
    "─".repeat(60),
    "  ? for shortcuts",
  ];
  assertEquals(detectClaudeWarning(reply, OPTS), null);
});

Deno.test("2.1.332 warning: its footer's grace notice is a warning, not a limit", () => {
  const screen = [
    "❯ refactor the parser",
    "",
    "● Working on it.",
    "",
    "─".repeat(120),
    "❯\u00a0",
    "─".repeat(120),
    "  ⚠ Usage limit reached · wrapping up",
  ];
  assertEquals(detectClaudeWarning(screen, OPTS)?.id, "grace-wrapping-up");
  assertEquals(detectClaudeLimit(screen, OPTS), null);
});
