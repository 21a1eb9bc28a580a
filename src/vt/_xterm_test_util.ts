/**
 * Test helper: hold the VT interpreter to `@xterm/headless` (tools/xterm-oracle) on one stream.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { xtermState } from "../../tools/xterm-oracle/xterm_state.ts";
import { Terminal } from "./terminal.ts";

const _encoder = new TextEncoder();

/** Asserts that `stream` leaves our terminal in xterm-headless' state (`cols` × `rows`). */
export async function assertLikeXterm(
  stream: string | Uint8Array,
  cols: number,
  rows: number,
  where = JSON.stringify(typeof stream === "string" ? stream : [...stream]),
): Promise<void> {
  const bytes = typeof stream === "string" ? _encoder.encode(stream) : stream;
  const expected = await xtermState(bytes, cols, rows);
  const term = new Terminal({ cols, rows, scrollback: 100_000 });
  term.write(bytes);
  assertEquals(term.snapshot(), expected, `${where} (${cols}x${rows})`);
}
