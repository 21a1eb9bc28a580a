import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CLAUDE_INPUT_BOX } from "./claude.ts";
import { GEMINI_INPUT_BOX } from "./gemini.ts";
import { readInputBox } from "./input_box.ts";

const rule = "─".repeat(60);

Deno.test("Claude's box: the rows between the rules, the echo above it is not the box", () => {
  const screen = [
    "❯ an earlier turn",
    "⏺ its answer",
    "",
    rule,
    "❯ fix the nasty bug in",
    "  src/discount.ts",
    rule,
    "  ? for shortcuts",
  ];
  assertEquals(readInputBox(screen, CLAUDE_INPUT_BOX), {
    rows: ["fix the nasty bug in", "src/discount.ts"],
  });
});

Deno.test("Claude's box: empty, placeholder, blank continuation rows, and no box at all", () => {
  assertEquals(readInputBox([rule, "❯ ", rule], CLAUDE_INPUT_BOX), { rows: [] });
  // The real one: a no-break space after the glyph, a titled rule while history is recalled
  // (Claude Code 2.1.197 under uuldana).
  const titled = "─── History 18/18 " + "─".repeat(40);
  assertEquals(readInputBox([titled, "❯\u00a0second", rule], CLAUDE_INPUT_BOX), {
    rows: ["second"],
  });
  assertEquals(readInputBox([rule, "❯\u00a0", rule], CLAUDE_INPUT_BOX), { rows: [] });
  assertEquals(readInputBox([rule, "❯\u00a0fix it", rule], CLAUDE_INPUT_BOX), { rows: ["fix it"] });
  assertEquals(readInputBox([rule, '❯ Try "refactor <filepath>"', rule], CLAUDE_INPUT_BOX), {
    rows: [],
  });
  assertEquals(readInputBox([rule, "❯ a", "", "  b", rule], CLAUDE_INPUT_BOX), {
    rows: ["a", "", "b"],
  });
  // The limit menu replaces the box: its `❯ 1.` row is indented and has no rule above.
  const menu = [rule, "  What do you want to do?", "", "  ❯ 1. Stop and wait", "  Enter"];
  assertEquals(readInputBox(menu, CLAUDE_INPUT_BOX), null);
  // A box still being drawn (no rule below yet) is not read.
  assertEquals(readInputBox([rule, "❯ half"], CLAUDE_INPUT_BOX), null);
});

Deno.test("Gemini's box (its 0.61 recordings): the lowest one counts, an echo above a dialog not", () => {
  const top = "▄".repeat(40);
  const bottom = "▀".repeat(40);
  const footer = [
    " workspace (/directory)       sandbox",
    " /home/guest/repo              no sandbox",
  ];
  assertEquals(
    readInputBox(
      [
        top,
        " > hello from handoff",
        bottom,
        "",
        top,
        " >   Type your message or @path/to/file",
        bottom,
        ...footer,
      ],
      GEMINI_INPUT_BOX,
    ),
    { rows: [] },
  );
  assertEquals(readInputBox([top, " > fix it", bottom, ...footer], GEMINI_INPUT_BOX), {
    rows: ["fix it"],
  });
  // The quota dialog replaced the box: the echo above it is not read as the box.
  const dialog = [
    "╭────",
    "│ Usage limit reached for all Pro models.",
    "│ ● 1. Keep trying",
    "│   2. Stop",
    "│",
    "│",
    "╰────",
    ...footer,
  ];
  assertEquals(
    readInputBox([top, " > hello from handoff", bottom, ...dialog], GEMINI_INPUT_BOX),
    null,
  );
});
