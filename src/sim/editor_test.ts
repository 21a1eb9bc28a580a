import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { LineEditor } from "./editor.ts";

const claude = () => new LineEditor({ backslashEnter: true, collapsePastes: true, trim: true });

Deno.test("backslash then Enter is a newline; Enter sends", () => {
  const e = claude();
  e.insert("a\\");
  assertEquals(e.enter(), null);
  e.insert("b");
  assertEquals([e.text, e.enter(), e.text], ["a\nb", "a\nb", ""]);
});

Deno.test("cursor editing: Left + insert, Home/End, Delete, Ctrl-U/K/W", () => {
  const e = claude();
  e.insert("fix the bug");
  e.move(-3);
  e.insert("nasty ");
  assertEquals(e.text, "fix the nasty bug");
  e.home();
  e.deleteForward();
  e.end();
  e.killWord();
  assertEquals(e.text, "ix the nasty ");
  e.move(-4);
  e.killToEnd();
  e.move(-2);
  e.killToStart();
  assertEquals(e.text, "na");
});

Deno.test("history: Up recalls older messages, Down comes back to the draft", () => {
  const e = claude();
  e.insert("one");
  e.enter();
  e.insert("two");
  e.enter();
  e.insert("draft");
  e.up();
  assertEquals(e.text, "two");
  e.up();
  e.up();
  assertEquals(e.text, "one");
  e.down();
  e.down();
  assertEquals(e.text, "draft");
});

Deno.test("Tab completes an @path: one match whole, several to their common start", () => {
  const e = claude();
  const names = ["src/discount.ts", "src/dispatch.ts"];
  e.insert("read @src/disc");
  e.tab((p) => names.filter((n) => n.startsWith(p)));
  assertEquals(e.text, "read @src/discount.ts");
  e.clear();
  e.insert("@src/d");
  e.tab((p) => names.filter((n) => n.startsWith(p)));
  assertEquals(e.text, "@src/dis");
});

Deno.test("a long paste shows collapsed and is sent whole; a short one is typed in", () => {
  const e = claude();
  e.paste("a\r\nb\tc", 40);
  assertEquals(e.text, "a\nb    c");
  e.clear();
  e.insert("see ");
  e.paste("1\n2\n3\n4", 40);
  assertEquals(e.text, "see [Pasted text #1 +3 lines]");
  assertEquals(e.enter(), "see 1\n2\n3\n4");
  e.paste("x".repeat(801), 40);
  assertEquals(e.text, "[Pasted text #2]");
});
