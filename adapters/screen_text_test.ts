import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { hideDelivered, turnsAtColumnZero } from "./screen_text.ts";

const HANDOFF = [
  "# uuldana handoff",
  "Codex stopped with:",
  "■ You’ve hit your usage limit. Try again at 3:02 AM.",
  "Continue the task.",
].join("\n");
const LIMIT = "■ You’ve hit your usage limit. Try again at 3:02 AM.";

Deno.test("hideDelivered: the echo is hidden, its marker and indentation kept", () => {
  const rows = [
    "› # uuldana handoff",
    "  Codex stopped with:",
    `  ${LIMIT}`,
    "  Continue the task.",
  ];
  assertEquals(hideDelivered(rows, [HANDOFF]), ["› …", "  …", "  …", "  …"]);
});

Deno.test("hideDelivered: a row equal to a quoted line, outside the echo, stays", () => {
  const rows = ["› go on", "", "• Working on it.", "", LIMIT, "", "› "];
  assertEquals(hideDelivered(rows, [HANDOFF]), rows);
  // Right below the echo too: the echo ended with the delivered text.
  const below = [
    "› # uuldana handoff",
    "  Codex stopped with:",
    `  ${LIMIT}`,
    "  Continue the task.",
    LIMIT,
  ];
  assertEquals(hideDelivered(below, [HANDOFF]).at(-1), LIMIT);
});

Deno.test("hideDelivered: the tail of a scrolled echo at the top is hidden only when it runs to the end", () => {
  const tail = [`  ${LIMIT}`, "  Continue the task.", "", "• Done."];
  assertEquals(hideDelivered(tail, [HANDOFF]), ["  …", "  …", "", "• Done."]);
  // The same line at the top, but not followed by the rest of the text: not an echo.
  const alone = [LIMIT, "", "› "];
  assertEquals(hideDelivered(alone, [HANDOFF]), alone);
});

Deno.test("turnsAtColumnZero: a turn drawn at its echo's column moves left; deeper text stays deeper", () => {
  const echo = /^( {0,2})> \S/;
  assertEquals(
    turnsAtColumnZero([
      "  ● a notice before any echo",
      "  > fix it",
      "  ◆ The log shows:",
      "    ✕ quoted",
      "  ✕ [API Error: 429]",
      "> at column 0",
      "  ✕ not moved",
    ], echo),
    [
      "  ● a notice before any echo",
      "> fix it",
      "◆ The log shows:",
      "  ✕ quoted",
      "✕ [API Error: 429]",
      "> at column 0",
      "  ✕ not moved",
    ],
  );
});
