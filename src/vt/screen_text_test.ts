import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";

Deno.test("lastLines joins soft-wrapped rows and skips empty lines", () => {
  const t = new Terminal({ cols: 10, rows: 3, scrollback: 50 });
  t.write("first\r\n\r\n" + "0123456789abcdef\r\nlast\r\n");
  assertEquals(t.lastLines(120), ["first", "0123456789abcdef", "last"]);
  assertEquals(t.lastLines(2), ["0123456789abcdef", "last"]);
});

Deno.test("lastLines keeps only the end of a soft-wrapped flood, marked as cut", () => {
  const t = new Terminal({ cols: 10, rows: 4, scrollback: 1000 });
  t.write("first line\r\n");
  t.write("x".repeat(10 * 200) + "END");
  const lines = t.lastLines(5);
  assertEquals(lines.at(-1), "…" + "x".repeat(10 * 49) + "END");
  assertEquals(lines.at(-2), "first line");
});

Deno.test("a soft-wrapped flood joins into one logical line of at most 12,000 cells", () => {
  const t = new Terminal({ cols: 400, rows: 100 });
  t.write("start " + "x".repeat(400 * 99));
  const [line] = t.logicalScreenLines();
  assertEquals(line, "…" + "x".repeat(400 * 29 + 6)); // its last 30 rows
  const narrow = new Terminal({ cols: 20, rows: 5 });
  narrow.write("start " + "x".repeat(20 * 4));
  assertEquals(narrow.logicalScreenLines()[0], "start " + "x".repeat(80), "a screenful is whole");
});

Deno.test("screen lines: rows as text; logical lines join only soft-wrapped rows", () => {
  const t = new Terminal({ cols: 5, rows: 5, scrollback: 10 });
  t.write("abcdefg\r\nhi  \r\n漢字漢字x");
  assertEquals(t.screenLines(), ["abcde", "fg", "hi", "漢字", "漢字x"]);
  assertEquals(t.logicalScreenLines(), ["abcdefg", "hi", "漢字 漢字x"]);
  // a wide character that does not fit leaves its row's last column blank, joined as a space
  assertEquals(t.lastLines(10), ["abcdefg", "hi", "漢字 漢字x"]);
  t.write("\r\n\r\n\x1b[?1049h");
  assertEquals(t.lastLines(10), ["abcdefg"], "the scrollback, then the alternate screen shown");
});
