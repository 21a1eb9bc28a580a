import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import { generateStream } from "./_stream_gen_test_util.ts";
import { HOSTILE_KINDS, hostileStream } from "./_hostile_streams_test_util.ts";

const enc = new TextEncoder();

// Everything a reader of the model can see, and what later input builds on.
function looks(t: Terminal): unknown {
  return {
    snap: t.snapshot(),
    modes: t.modes,
    logical: t.logicalScreenLines(),
    last: t.lastLines(120),
  };
}

/**
 * Feeds `stream` in `chunk`-byte pieces to a terminal; at every piece where its state can be
 * saved, a terminal restored from the state (through JSON, as a recording keeps it) is fed the
 * rest, and both must end the same.
 */
function assertRestoresAnywhere(stream: Uint8Array, chunk: number, cols = 80, rows = 24): number {
  const opts = { cols, rows, scrollback: 300 };
  let restored = 0;
  for (let cut = chunk; cut < stream.length; cut += chunk * 7) {
    const live = new Terminal(opts);
    live.write(stream.subarray(0, cut));
    const state = live.saveState();
    if (state === null) continue;
    const copy = new Terminal(opts);
    copy.restoreState(JSON.parse(JSON.stringify(state)));
    assertEquals(looks(copy), looks(live), `at ${cut}, before the rest`);
    live.write(stream.subarray(cut));
    copy.write(stream.subarray(cut));
    assertEquals(looks(copy), looks(live), `at ${cut}, after the rest`);
    restored++;
  }
  return restored;
}

Deno.test("a terminal restored from its saved state computes what the original computes", () => {
  for (const seed of [1, 2]) {
    const n = assertRestoresAnywhere(generateStream(seed, 20_000, 24), 331);
    if (n < 3) throw new Error(`seed ${seed}: only ${n} cuts could be saved`);
  }
});

Deno.test("hostile streams restore exactly too", () => {
  for (const kind of HOSTILE_KINDS) assertRestoresAnywhere(hostileStream(kind, 40_000), 1_511);
});

Deno.test("the alternate screen, margins, tabs, charsets, saved cursor and modes are kept", () => {
  const setup = "line one\r\nline two\x1b[?2004h\x1b[?1049h\x1b[5;10r\x1b[3g\x1bH\x1b(0" +
    "\x1b[7;3Hqqq\x1b7\x1b[?6h\x1b]0;title\x07e\u0301\u4e2d\u{1f600}\x01";
  const rest = "\x1b8x\tq\x1b[1;1Hmore\x1b[?1049l\x1b(Bdone\x1b[10b";
  const opts = { cols: 40, rows: 12, scrollback: 50 };
  const live = new Terminal(opts);
  live.write(enc.encode(setup));
  const copy = new Terminal(opts);
  copy.restoreState(JSON.parse(JSON.stringify(live.saveState())));
  live.write(enc.encode(rest));
  copy.write(enc.encode(rest));
  assertEquals(looks(copy), looks(live));
});

Deno.test("no state is saved in the middle of a sequence or a character", () => {
  const t = new Terminal({ cols: 20, rows: 5 });
  t.write(enc.encode("ab\x1b["));
  assertEquals(t.saveState(), null);
  t.write(enc.encode("2J\xe4"));
  t.write(new Uint8Array([0xe4]));
  assertEquals(t.saveState(), null);
  t.write(new Uint8Array([0xb8, 0xad]));
  if (t.saveState() === null) throw new Error("at rest after the character ended");
});
