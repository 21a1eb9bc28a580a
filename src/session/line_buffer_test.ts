import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { LineBuffer, pasteCutNote, typedCutNote, utf8Length } from "./line_buffer.ts";

Deno.test("a paste is one piece; the cursor splits it only where it stops", () => {
  const b = new LineBuffer();
  b.insertPaste("a😀b\nc", 0, "");
  b.left(); // before "c"
  b.left(); // before "\n"
  b.insert("X");
  b.left();
  b.left();
  b.left(); // before "😀", a whole astral character was stepped over
  b.insert("Y");
  assertEquals(b.text, "aY😀bX\nc");
  b.moveTo(b.lineEnd());
  b.deleteForward(); // the newline
  assertEquals(b.text, "aY😀bXc");
  b.moveTo(b.lineStart());
  b.right();
  b.right();
  b.backspace(); // "Y"
  assertEquals([b.text, b.size], ["a😀bXc", 6]); // code units
});

Deno.test("a paste over the budget keeps its ends and a note; typed keys past the cap are counted", () => {
  const b = new LineBuffer(1000);
  const text = b.insertPaste("H".repeat(800), 5, "T".repeat(800));
  // A paste may fill 900 of the 1000, its note included: 370 from each end, and the note counts
  // what went.
  assertEquals(text, "H".repeat(370) + pasteCutNote(5 + 430 + 430) + "T".repeat(370));
  assert(b.size <= 900);
  assert(b.cut);
  b.insert("q");
  b.insert("日".repeat(200));
  assertEquals(b.text.endsWith("T" + "q" + typedCutNote(600, 1000)), true);
});

Deno.test("the tail is what was typed at the end since the mark", () => {
  const b = new LineBuffer();
  b.insert("ab");
  b.markTail();
  b.insert("c");
  b.insertPaste("de", 0, "");
  assertEquals(b.tail, "cde");
  assertEquals(b.deleteBackTo(b.wordStart()), false); // reached before the mark
  b.loseTail();
  assertEquals(b.tail, null);
  b.clear();
  assertEquals([b.text, b.tail, b.cut], ["", "", false]);
});

Deno.test("utf8Length counts UTF-8 bytes", () => {
  assertEquals(utf8Length("aé日😀"), new TextEncoder().encode("aé日😀").length);
});
