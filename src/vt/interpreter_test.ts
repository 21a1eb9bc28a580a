import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { assertLikeXterm } from "./_xterm_test_util.ts";
import { Terminal } from "./terminal.ts";

Deno.test("every dispatched sequence breaks a combining mark's join, as in xterm-headless", async () => {
  // a combining mark after these joins the "e" only when nothing but text came between
  const between = [
    "",
    "\x07",
    "\x1b[m",
    "\x1b[?1;?5h", // an ignored CSI
    "\x1b[99y", // an unknown CSI
    "\x1b7",
    "\x1b]0;t\x07",
    "\x1b]0;t\x18", // an aborted OSC
    "\x1b]99;x\x1b\\",
    "\x1bP$qm\x1b\\",
    "\x1b_apc\x1b\\",
    "\x1b[1",
  ];
  for (const seq of between) await assertLikeXterm(`ae${seq}\u0301b`, 10, 3);
  // xterm.js' quirk, kept: a non-ASCII character ends an APC/PM/SOS string, and what follows prints
  await assertLikeXterm("a\x1b_xé yz\x1b\\b\x1b^é!\x9c", 10, 3);
});

Deno.test("unknown sequences of every kind change nothing", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  t.write("hi");
  const before = t.snapshot();
  t.write(
    "\x1b[99y\x1b[?999h\x1b[>7z\x1b#9\x1b%Z\x1b]777;x\x07\x1bP!zq\x1b\\\x1b^pm\x1b\\\x1bXs\x9c",
  );
  assertEquals(t.snapshot(), before);
});
