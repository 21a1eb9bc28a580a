/**
 * A terminal's whole state as plain JSON data, and a terminal put back from it: what a long run's
 * recording keeps at the start of each recent segment, so a replay can begin there and compute
 * exactly what the live terminal computed (src/session/recording.ts). Everything the model reads
 * again is kept: every cell (code point, width, combined text) and wrap flag of both buffers and
 * the scrollback, cursors, margins, tab stops, saved cursor, charsets, modes, title. Caches (the
 * REP memo, the erase bookkeeping) are not: a restored terminal rebuilds them. A state is saved
 * only between sequences (the parser at rest). A row's cells are kept as text, one UTF-16 unit a
 * cell, with the few cells text cannot carry beside it: a saved state is about the size of the
 * screen and scrollback's text, and it is made in a few milliseconds.
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";
import { CP_MASK, Line, NULL_CELL } from "./line.ts";
import type { Modes } from "./modes.ts";
import type { Parser } from "./parser.ts";
import type { ScreenBuffer } from "./buffer.ts";
import { charsetFinal, charsetFor } from "./charsets.ts";

/**
 * One row: its cells as text up to the last one not erased (the rest are erased), its wrap flag,
 * the cells text cannot carry, its combined texts by column.
 */
export interface LineState {
  /** Width in cells (rows of the scrollback may be narrower or wider than the screen). */
  n: number;
  /**
   * One UTF-16 unit per cell: a plain cell (one BMP character of width 1) as its character, an
   * erased cell as U+0001 (never printed: controls are executed), any other as U+0001 with its
   * value in `e`.
   */
  s?: string;
  /** Cells `s` cannot carry (wide halves, astral and combined characters): column, value… */
  e?: number[];
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

// A scratch row of UTF-16 units, grown to the widest row saved.
let _units = new Uint16Array(256);

function _saveLine(line: Line): LineState {
  const state: LineState = { n: line.cells.length };
  if (line.wrapped) state.w = 1;
  if (!line.dirty) return state;
  const cells = line.cells;
  let end = cells.length;
  while (end > 0 && cells[end - 1] === NULL_CELL) end--;
  if (end > 0) {
    if (_units.length < end) _units = new Uint16Array(end);
    let extra: number[] | null = null;
    for (let x = 0; x < end; x++) {
      const cell = cells[x];
      const cp = cell & CP_MASK;
      if (
        cell === (cp | NULL_CELL) && cp >= 0x20 && cp <= 0xffff && (cp < 0xd800 || cp > 0xdfff)
      ) {
        _units[x] = cp;
      } else {
        _units[x] = 1;
        if (cell !== NULL_CELL) (extra ??= []).push(x, cell);
      }
    }
    state.s = String.fromCharCode.apply(null, _units.subarray(0, end) as unknown as number[]);
    if (extra) state.e = extra;
  }
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
  const cells = line.cells;
  if (state.s !== undefined) {
    const s = state.s;
    for (let x = 0; x < s.length && x < cells.length; x++) {
      const unit = s.charCodeAt(x);
      if (unit !== 1) cells[x] = unit | NULL_CELL;
    }
    const e = state.e ?? [];
    for (let k = 0; k + 1 < e.length; k += 2) if (e[k] < cells.length) cells[e[k]] = e[k + 1];
  }
  // As the saved line was: a line that may hold content is erased by a reset.
  line.dirty = true;
  if (state.t) line.restoreTexts(state.t);
  return line;
}
