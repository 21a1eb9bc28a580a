import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Line } from "./line.ts";
import { COMBINED_BUDGET_BYTES, Scrollback } from "./scrollback.ts";
import { Terminal } from "./terminal.ts";
import { ELEVEN_MARKS } from "./_hostile_streams_test_util.ts";

function textLine(text: string, marks = ""): Line {
  const l = new Line(text.length);
  for (let x = 0; x < text.length; x++) {
    l.addToCell(x, text.codePointAt(x)!, 1);
    for (const m of marks) l.addToCell(x, m.codePointAt(0)!, 1);
  }
  return l;
}

Deno.test("scrollback: a ring of at most `capacity` lines, oldest first, evicted for reuse", () => {
  const sb = new Scrollback(3);
  const lines = ["a", "b", "c", "d", "e"].map((t) => textLine(t));
  const freed = lines.map((l) => sb.push(l));
  assertEquals(freed, [null, null, null, lines[0], lines[1]]);
  assertEquals([0, 1, 2].map((i) => sb.get(i).text()), ["c", "d", "e"]);
  assertEquals(sb.pop()?.text(), "e");
  assertEquals(sb.push(textLine("f")), null, "the popped line is on screen: never handed out");
  assertEquals([0, 1, 2].map((i) => sb.get(i).text()), ["c", "d", "f"]);
  const none = new Scrollback(0);
  const l = textLine("x");
  assertEquals(none.push(l), l);
  assertEquals(none.length, 0);
});

Deno.test("scrollback: combining texts are bounded by bytes; the oldest lines go first", () => {
  const perLine = textLine("e".repeat(10), ELEVEN_MARKS).combinedBytes();
  const sb = new Scrollback(1000, perLine * 5);
  for (let i = 0; i < 20; i++) {
    sb.push(textLine(String.fromCharCode(0x61 + i).repeat(10), ELEVEN_MARKS));
  }
  assertEquals(sb.length, 5);
  assertEquals(sb.get(0).text()[0], "p", "the newest five are kept");
  ok(sb.combinedBytes <= perLine * 5);
  for (let i = 0; i < 50; i++) sb.push(textLine("plain text"));
  assertEquals(sb.length, 55, "plain lines cost nothing against the budget");
});

Deno.test("scrollback of a terminal flooded with combining marks stays within its budget", () => {
  const t = new Terminal({ cols: 400, rows: 100, scrollback: 2000 });
  t.write(("e" + ELEVEN_MARKS).repeat(400 * 3000));
  const s = t.snapshot();
  // each row: 400 cells of 12 UTF-16 units, the budget counts their strings and slots
  const rowBytes = 400 * 8 + 400 * (16 + 2 * 12);
  assertEquals(s.scrollback.length, Math.floor(COMBINED_BUDGET_BYTES / rowBytes));
  ok(s.scrollback.every((row) => row === ("e" + ELEVEN_MARKS).repeat(400)));
  const plain = new Terminal({ cols: 400, rows: 100, scrollback: 2000 });
  plain.write("x".repeat(400 * 3000));
  assertEquals(plain.snapshot().scrollback.length, 2000);
});

Deno.test("scrollback: a line dropped for the budget is handed back for reuse, the newest first", () => {
  const perLine = textLine("e".repeat(10), ELEVEN_MARKS).combinedBytes();
  const sb = new Scrollback(1000, perLine * 2);
  const lines = [0, 1, 2, 3].map(() => textLine("e".repeat(10), ELEVEN_MARKS));
  assertEquals(sb.push(lines[0]), null);
  assertEquals(sb.push(lines[1]), null);
  assertEquals(sb.push(lines[2]), null, "lines[0] is dropped by this push, after it chose");
  assertEquals(sb.push(lines[3]), lines[0], "the one the last push dropped");
  assertEquals(sb.length, 2);
  assertEquals(sb.push(textLine("plain")), lines[1]);
  assertEquals(sb.push(textLine("plain")), null, "nothing dropped since: a new line is made");
});
