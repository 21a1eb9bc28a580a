import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { assertLikeXterm } from "./_xterm_test_util.ts";
import { type Query, Terminal } from "./mod.ts";

Deno.test("DECRQSS is a query; an aborted or overflowed one, and other DCS, are not", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  const seen: Query[] = [];
  t.onQuery((q) => seen.push(q));
  t.write('\x1bP$qm\x1b\\\x1bP$q"p\x9c\x1bP$qr\x18\x1bP$q' + "x".repeat(9000) + "\x1b\\");
  t.write("\x1bP1$r0m\x1b\\\x1bPq#0;2;0;0;0#0~~@@\x1b\\");
  assertEquals(seen, [{ kind: "DECRQSS", setting: "m" }, { kind: "DECRQSS", setting: '"p' }]);
});

Deno.test("DCS strings change nothing on screen, as in xterm-headless", async () => {
  for (
    const s of [
      "a\x1bP$qm\x1b\\b",
      "a\x1bPq#0;2;0;0;0#0~~@@-\x1b\\b",
      "a\x1bP1;2|x\ny\x9cb",
      "e\x1bP$qm\x1b\\\u0301",
      "a\x1bP$q\x18b",
    ]
  ) await assertLikeXterm(s, 10, 3);
});
