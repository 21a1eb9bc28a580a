import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { assertLikeXterm } from "./_xterm_test_util.ts";
import { type Query, Terminal } from "./mod.ts";

function queries(stream: string): Query[] {
  const t = new Terminal({ cols: 10, rows: 3 });
  const seen: Query[] = [];
  t.onQuery((q) => seen.push(q));
  t.write(stream);
  return seen;
}

Deno.test("OSC 0 and 2 set the title as xterm-headless does; other OSCs change nothing", async () => {
  for (
    const s of [
      "\x1b]0;one\x07x",
      "\x1b]2;two\x1b\\x",
      "\x1b]0;a\x1b]2;b\x07",
      "\x1b]1;icon\x07",
      "\x1b]2\x07",
      "\x1b];t\x07",
      "\x1b]0;cut\x18x",
      "\x1b]0;sub\x1ax",
      "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
      "\x1b]7;file:///tmp\x07\x1b]133;A\x07\x1b]52;c;eA==\x07x",
      "\x1b]0;é漢🚀\x07",
    ]
  ) await assertLikeXterm(s, 10, 3);
  // (a title over MAX_STRING is dropped, where xterm.js keeps up to 10 MB: see fuzz_test.ts)
});

Deno.test("OSC 10/11/12: a colour query per '?', with the terminator given", () => {
  assertEquals(queries("\x1b]10;?\x07\x1b]11;?\x1b\\\x1b]10;?;?;?;?\x07\x1b]12;rgb:0/0/0\x07"), [
    { kind: "OSC_COLOR", osc: 10, terminator: "BEL" },
    { kind: "OSC_COLOR", osc: 11, terminator: "ST" },
    { kind: "OSC_COLOR", osc: 10, terminator: "BEL" },
    { kind: "OSC_COLOR", osc: 11, terminator: "BEL" },
    { kind: "OSC_COLOR", osc: 12, terminator: "BEL" },
  ]);
  assertEquals(queries("\x1b]11;?\x18\x1b]11;?" + "x".repeat(9000) + "\x07"), [], "aborted");
});

Deno.test("onOsc hears the text of its OSC number only, whole across chunks, until unsubscribed", () => {
  const t = new Terminal({ cols: 20, rows: 3 });
  const heard: string[] = [];
  const stop = t.onOsc(7501, (text) => heard.push(text));
  t.write("\x1b]0;title\x07\x1b]7501;state=wor");
  t.write("king\x1b\\text\x1b]7502;other\x07");
  stop();
  t.write("\x1b]7501;state=idle\x07");
  assertEquals(heard, ["state=working"]);
  assertEquals(t.snapshot().screen[0], "text");
});
