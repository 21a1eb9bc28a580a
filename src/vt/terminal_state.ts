/**
 * A terminal's whole state as plain JSON data, and a terminal put back from it: what a long run's
 * recording keeps at the start of each recent segment, so a replay can begin there and compute
 * exactly what the live terminal computed (src/session/recording.ts). Everything the model reads
 * again is kept: every cell (code point, width, combined text) and wrap flag of both buffers and
 * the scrollback, cursors, margins, tab stops, saved cursor, charsets, modes, title. Caches (the
 * REP memo, the erase bookkeeping) are not: a restored terminal rebuilds them. A state is saved
 * only between sequences (the parser at rest). Cells are base64 of their `Uint32Array` in the
 * machine's byte order (little-endian everywhere Deno runs).
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";
import { Line } from "./line.ts";
import type { Modes } from "./modes.ts";
import type { Parser } from "./parser.ts";
import type { ScreenBuffer } from "./buffer.ts";
import { charsetFinal, charsetFor } from "./charsets.ts";

/** One row: its cells (absent: all erased), wrap flag, combined texts by column. */
export interface LineState {
  c?: string;
  /** Width in cells (rows of the scrollback may be narrower or wider than the screen). */
  n: number;
  w?: 1;
  t?: Record<string, string>;
}

/** One buffer's state. */
export interface BufferState {
  lines: LineState[];
  x: number;
  y: number;
  top: number;
  bottom: number;
  /** Columns with a tab stop. */
  tabs: number[];
  savedX: number;
  savedY: number;
  /** SCS final byte of the saved charset, or null. */
  savedCharset: number | null;
  /** The normal buffer's scrollback, oldest first. */
  scrollback?: LineState[];
}

/** A terminal's state (see the module documentation). */
export interface TerminalState {
  v: 1;
  cols: number;
  rows: number;
  normal: BufferState;
  alt: BufferState;
  active: "normal" | "alternate";
  convertEol: boolean;
  joinWidth: number;
  inPrintRun: boolean;
  charsets: { g: number[]; level: number };
  modes: Modes;
  title: string | null;
  bells: number;
  pristine: boolean;
  afterControl: boolean;
}

/** The state of `vt` read by `parser`, or null while a sequence or character is half read. */
export function saveTerminalState(vt: Interpreter, parser: Parser): TerminalState | null {
  if (!parser.atRest) return null;
  const s = vt.screen;
  return {
    v: 1,
    cols: s.cols,
    rows: s.rows,
    normal: _saveBuffer(s.normal),
    alt: _saveBuffer(s.alt),
    active: s.buf === s.alt ? "alternate" : "normal",
    convertEol: s.convertEol,
    joinWidth: s.joinWidth,
    inPrintRun: s.inPrintRun,
    charsets: s.charsets.save(),
    modes: vt.modes.copy(),
    title: vt.title,
    bells: vt.bells,
    pristine: vt.pristine,
    afterControl: parser.afterControl,
  };
}

/**
 * Puts `state` into `vt` and `parser`, which must be new (made with the state's size and the same
 * scrollback capacity, nothing written yet).
 */
export function restoreTerminalState(vt: Interpreter, parser: Parser, state: TerminalState): void {
  const s = vt.screen;
  if (s.cols !== state.cols || s.rows !== state.rows) s.resize(state.cols, state.rows);
  _restoreBuffer(s.normal, state.normal);
  _restoreBuffer(s.alt, state.alt);
  s.buf = state.active === "alternate" ? s.alt : s.normal;
  s.convertEol = state.convertEol;
  s.joinWidth = state.joinWidth;
  s.inPrintRun = state.inPrintRun;
  s.charsets.restore(state.charsets);
  vt.modes.restore(state.modes);
  vt.title = state.title;
  vt.bells = state.bells;
  vt.pristine = state.pristine;
  parser.afterControl = state.afterControl;
}

function _saveBuffer(buf: ScreenBuffer): BufferState {
  const tabs: number[] = [];
  for (let i = 0; i < buf.tabs.length; i++) if (buf.tabs[i]) tabs.push(i);
  const state: BufferState = {
    lines: buf.lines.map(_saveLine),
    x: buf.x,
    y: buf.y,
    top: buf.scrollTop,
    bottom: buf.scrollBottom,
    tabs,
    savedX: buf.savedX,
    savedY: buf.savedY,
    savedCharset: buf.savedCharset === null ? null : charsetFinal(buf.savedCharset),
  };
  if (buf.scrollback) {
    const sb = buf.scrollback;
    state.scrollback = [];
    for (let i = 0; i < sb.length; i++) state.scrollback.push(_saveLine(sb.get(i)));
  }
  return state;
}

function _restoreBuffer(buf: ScreenBuffer, state: BufferState): void {
  buf.lines = state.lines.map(_restoreLine);
  for (const line of buf.lines) if (line.dirty) buf.touched(line);
  buf.markNotBlank();
  if (buf.scrollback && state.scrollback) {
    for (const line of state.scrollback) buf.scrollback.push(_restoreLine(line));
  }
  buf.x = state.x;
  buf.y = state.y;
  buf.scrollTop = state.top;
  buf.scrollBottom = state.bottom;
  const tabs = new Uint8Array(buf.tabs.length);
  for (const x of state.tabs) if (x < tabs.length) tabs[x] = 1;
  buf.restoreTabs(tabs);
  buf.savedX = state.savedX;
  buf.savedY = state.savedY;
  buf.savedCharset = state.savedCharset === null ? null : charsetFor(state.savedCharset) ?? null;
}

function _saveLine(line: Line): LineState {
  const state: LineState = { n: line.cells.length };
  if (line.wrapped) state.w = 1;
  if (!line.dirty) return state;
  const cells = line.cells;
  state.c = _base64(new Uint8Array(cells.buffer, cells.byteOffset, cells.byteLength));
  if (line.combined !== null) {
    const texts: Record<string, string> = {};
    let any = false;
    for (let x = 0; x < cells.length; x++) {
      const text = line.combined[x];
      if (text) {
        texts[x] = text;
        any = true;
      }
    }
    if (any) state.t = texts;
  }
  return state;
}

function _restoreLine(state: LineState): Line {
  const line = new Line(state.n);
  line.wrapped = state.w === 1;
  if (state.c !== undefined) {
    const bytes = _unbase64(state.c);
    const cells = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
    line.cells.set(cells.subarray(0, state.n));
    line.dirty = true;
  }
  if (state.t) line.restoreTexts(state.t);
  return line;
}

const _B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const _B64_CODES = Uint8Array.from(_B64, (c) => c.charCodeAt(0));
const _B64_VALUES = new Uint8Array(128);
for (let i = 0; i < 64; i++) _B64_VALUES[_B64_CODES[i]] = i;
const _latin1 = new TextDecoder("utf-8");

// Base64 by table (no `node:` module in the VT; btoa of a string built per byte is 10x slower).
function _base64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = _B64_CODES[v >> 18];
    out[o++] = _B64_CODES[(v >> 12) & 63];
    out[o++] = _B64_CODES[(v >> 6) & 63];
    out[o++] = _B64_CODES[v & 63];
  }
  if (i < n) {
    const v = (bytes[i] << 16) | ((i + 1 < n ? bytes[i + 1] : 0) << 8);
    out[o++] = _B64_CODES[v >> 18];
    out[o++] = _B64_CODES[(v >> 12) & 63];
    out[o++] = i + 1 < n ? _B64_CODES[(v >> 6) & 63] : 61;
    out[o++] = 61;
  }
  return _latin1.decode(out);
}

function _unbase64(text: string): Uint8Array {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    acc = (acc << 6) | _B64_VALUES[text.charCodeAt(i) & 127];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out;
}
