import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import { xtermState } from "../../tools/xterm-oracle/xterm_state.ts";
import { generateStream } from "./_stream_gen_test_util.ts";
import { seededRandom } from "./_corpus_test_util.ts";

const SIZES: [number, number][] = [[20, 6], [33, 10], [80, 24], [7, 3]];

Deno.test("differential: generated streams render exactly like @xterm/headless", async () => {
  for (let seed = 1; seed <= 200; seed++) {
    const [cols, rows] = SIZES[seed % SIZES.length];
    const bytes = generateStream(seed, 300 + (seed % 5) * 200, rows);
    const expected = await xtermState(bytes, cols, rows);
    const term = new Terminal({ cols, rows, scrollback: 100_000 });
    term.write(bytes);
    assertEquals(term.snapshot(), expected, `seed ${seed} (${cols}x${rows})`);
  }
});

Deno.test("differential: erasing and scrolling blank screens and lines (huge counts, RIS)", async () => {
  // A blank screen makes SU/SD/IL/DL/ED 2 no-ops and a blank line ICH/DCH/ECH/EL: these streams
  // reach those shortcuts often, with text and resets between.
  const ops = [
    "\x1b[999S",
    "\x1b[999T",
    "\x1b[999L",
    "\x1b[999M",
    "\x1b[999@",
    "\x1b[999P",
    "\x1b[999X",
    "\x1b[2S",
    "\x1b[3T",
    "\x1b[2L",
    "\x1b[M",
    "\x1b[2J",
    "\x1b[J",
    "\x1b[K",
    "\x1b[2K",
    "\x1b[1;999999r",
    "\x1b[2;3r",
    "\x1b[1;2r",
    "\x1b[1;3r",
    "\x1b[r",
    "\x1bc",
    "\x1bM",
    "\x1bD",
    "\x1b[?1049h",
    "\x1b[?1049l",
    "\x1b[5;2H",
    "\x1b[H",
    "\r\n",
    "x",
    "wrapped text that is longer than a row",
    "中",
    "e\u0301",
    "\x1bH",
    "\x1b[3g",
    "\tz",
  ];
  // content outside a region that starts or ends at the screen's edge, then a blank region
  const edges = ["\x1b[1;2r\x1b[999S", "\x1b[2;99r\x1b[999T", "\x1b[1;2r\x1b[H\x1b[999M"];
  for (let seed = 1; seed <= 150; seed++) {
    const [cols, rows] = SIZES[seed % SIZES.length];
    const rnd = seededRandom(500 + seed);
    let s = "";
    if (seed <= 30) {
      const edge = edges[seed % edges.length];
      s = `\x1b[${rows};1Hbottom\x1b[Htop${edge}${
        ["\x1b[2J", "\x1b[r\x1b[999S", "\x1b[r\x1b[999L"][seed % 3]
      }`;
    }
    // short streams: a later erase would hide a wrong one
    for (let i = 0; i < 30; i++) s += ops[Math.floor(rnd() * ops.length)];
    const bytes = new TextEncoder().encode(s);
    const expected = await xtermState(bytes, cols, rows);
    const term = new Terminal({ cols, rows, scrollback: 100_000 });
    term.write(bytes);
    assertEquals(term.snapshot(), expected, `seed ${seed} (${cols}x${rows}): ${JSON.stringify(s)}`);
  }
});
