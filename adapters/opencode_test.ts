import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Terminal } from "../src/vt/terminal.ts";
import { openCodeInputReady } from "./opencode.ts";
import { kilo } from "./kilo.ts";
import { opencode } from "./opencode.ts";

const STARTUP = new URL("../testdata/startup/", import.meta.url);
const EDGE = new TextEncoder().encode("╹");

// The screen after the first `bytes` of a recorded start, at the recording's 120x40.
function screenAfter(out: Uint8Array, bytes: number): string[] {
  const t = new Terminal({ cols: 120, rows: 40 });
  t.write(out.subarray(0, bytes));
  return t.screenLines();
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

for (const name of ["opencode-1.18.33-home", "opencode-1.18.33-store", "kilo-7.7.7-store"]) {
  Deno.test(`${name}: ready only once the prompt box is drawn, though ?2004 came first`, () => {
    const out = readFileSync(new URL(`${name}.out`, STARTUP));
    const edge = indexOf(out, EDGE);
    assert(edge > 0, "the recording draws the box");
    const t = new Terminal({ cols: 120, rows: 40 });
    // Bracketed paste goes on in the first few hundred bytes; the blank frames follow.
    t.write(out.subarray(0, 1000));
    assert(t.modes.bracketedPaste, "?2004h before the first frame");
    for (const at of [1000, Math.floor(edge / 2), edge]) {
      assertEquals(openCodeInputReady(screenAfter(out, at)), false, `not ready at byte ${at}`);
    }
    assertEquals(openCodeInputReady(screenAfter(out, out.length)), true, "ready at the end");
  });
}

Deno.test("inputReady: a `╹▀▀▀` edge without the box's `┃` rows above it is not the box", () => {
  const edge = "  ╹" + "▀".repeat(60);
  assertEquals(openCodeInputReady(["  ┃  Ask anything…", "  ┃", edge, "  /tmp/ws"]), true);
  assertEquals(openCodeInputReady(["some text", edge]), false);
  assertEquals(openCodeInputReady([edge]), false);
  assertEquals(openCodeInputReady(["  ┃  text", "  ╹▀▀"]), false, "too short to be the edge");
  assertEquals(openCodeInputReady([]), false);
});

Deno.test("OpenCode and Kilo declare the rule", () => {
  assertEquals(opencode.inputReady, openCodeInputReady);
  assertEquals(kilo.inputReady, openCodeInputReady);
});
