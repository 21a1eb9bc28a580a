import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import { xtermState } from "../../tools/xterm-oracle/xterm_state.ts";
import { generateStream } from "./_stream_gen_test_util.ts";

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
