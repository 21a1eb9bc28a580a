import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { HELD_LINES_MAX, HeldLines } from "./held_lines.ts";

Deno.test("held lines come back in order, each once, and are forgotten", () => {
  const held = new HeldLines();
  assertEquals(held.empty, true);
  held.keep("b");
  held.keep("a");
  held.keep("b");
  assertEquals(held.empty, false);
  assertEquals(held.take(), ["b", "a"]);
  assertEquals(held.empty, true);
  assertEquals(held.take(), []);
  held.keep("b");
  assertEquals(held.take(), ["b"]);
});

Deno.test("held lines are bounded: past the bound they are counted", () => {
  const held = new HeldLines();
  for (let i = 0; i < HELD_LINES_MAX + 5; i++) held.keep(`line ${i}`);
  held.keep("line 0"); // kept already: not counted
  const lines = held.take();
  assertEquals(lines.length, HELD_LINES_MAX + 1);
  assertEquals(lines[0], "line 0");
  assertEquals(lines.at(-1), "(and 5 more lines like these, not kept)");
  assertEquals(held.take(), []);
});
