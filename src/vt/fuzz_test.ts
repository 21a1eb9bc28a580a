import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import { seededRandom } from "./_corpus_test_util.ts";
import { generateStream } from "./_stream_gen_test_util.ts";

function assertInvariants(t: Terminal, cap: number, where: string): void {
  const s = t.snapshot();
  ok(s.cursor.x >= 0 && s.cursor.x <= t.cols, `${where}: cursor x ${s.cursor.x}`);
  ok(s.cursor.y >= 0 && s.cursor.y < t.rows, `${where}: cursor y ${s.cursor.y}`);
  assertEquals(s.screen.length, t.rows, `${where}: rows`);
  ok(s.scrollback.length <= cap, `${where}: scrollback ${s.scrollback.length} > ${cap}`);
  for (const w of Object.values(s.cellWidths)) assertEquals(w.length, t.cols, where);
}

Deno.test("fuzz: random bytes never throw, cursor stays in bounds, scrollback is capped", () => {
  const rnd = seededRandom(7);
  // bias towards bytes that matter: ESC, [, digits, ;, C0, UTF-8 leads and continuations
  const interesting = [0x1b, 0x5b, 0x3b, 0x3f, 0x0a, 0x0d, 0x08, 0x09, 0x9b, 0xc3, 0xe2, 0xf0];
  for (let round = 0; round < 60; round++) {
    const cols = 1 + Math.floor(rnd() * 40);
    const rows = 1 + Math.floor(rnd() * 12);
    const cap = Math.floor(rnd() * 50);
    const t = new Terminal({ cols, rows, scrollback: cap });
    const bytes = new Uint8Array(20_000);
    for (let i = 0; i < bytes.length; i++) {
      const r = rnd();
      bytes[i] = r < 0.3
        ? interesting[Math.floor(rnd() * interesting.length)]
        : r < 0.5
        ? 0x30 + Math.floor(rnd() * 10)
        : Math.floor(rnd() * 256);
    }
    for (let i = 0; i < bytes.length; i += 997) {
      t.write(bytes.subarray(i, i + 997));
      assertInvariants(t, cap, `round ${round} @${i}`);
    }
    t.resize(1 + Math.floor(rnd() * 50), 1 + Math.floor(rnd() * 15));
    assertInvariants(t, cap, `round ${round} after resize`);
    t.write(generateStream(round, 200, t.rows));
    assertInvariants(t, cap, `round ${round} after stream`);
  }
});

Deno.test("fuzz: memory stays bounded under floods", () => {
  const t = new Terminal({ cols: 20, rows: 5, scrollback: 100 });
  // endless combining marks on one cell, a giant OSC, a giant CSI, a huge REP count
  t.write("a" + "\u0301".repeat(100_000));
  t.write("\x1b]0;" + "x".repeat(1_000_000) + "\x07");
  t.write("\x1b[" + "1;".repeat(100_000) + "m");
  t.write("b\x1b[2147483647b");
  t.write("line\n".repeat(10_000));
  const s = t.snapshot();
  assertEquals(s.scrollback.length, 100);
  ok(s.screen.every((l) => l.length <= 20 * 32));
  assertEquals(s.title, null); // an over-long title is dropped, like xterm.js' payload limit
});
