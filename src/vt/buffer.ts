/**
 * One screen buffer (normal or alternate): visible rows, cursor, margins, tab stops, saved
 * cursor, and for the normal buffer the scrollback.
 *
 * @module
 */
import { Line } from "./line.ts";
import { Scrollback } from "./scrollback.ts";
import type { Charset } from "./charsets.ts";

/** A screen buffer. Row 0 is the top visible row. */
export class ScreenBuffer {
  /** Visible rows, top first. */
  lines: Line[] = [];
  /** Lines scrolled off the top (normal buffer only). */
  readonly scrollback: Scrollback | null;
  /** Cursor column, 0..cols (cols = pending wrap after the last column). */
  x = 0;
  /** Cursor row, 0..rows-1. */
  y = 0;
  /** Top margin (DECSTBM), 0-based inclusive. */
  scrollTop = 0;
  /** Bottom margin (DECSTBM), 0-based inclusive. */
  scrollBottom: number;
  /** Tab stops: 1 at columns with a stop. */
  tabs: Uint8Array;
  /** Saved cursor column (DECSC). */
  savedX = 0;
  /** Saved cursor row, absolute (scrollback length + row, as xterm.js keeps it). */
  savedY = 0;
  /** Saved character set (DECSC). */
  savedCharset: Charset | null = null;
  // The lines that may hold content since the last reset (a screenful at most, else all may).
  #touched: Line[] = [];
  #overflow = false;

  constructor(cols: number, rows: number, scrollback: number | null) {
    this.scrollback = scrollback === null ? null : new Scrollback(scrollback);
    this.scrollBottom = rows - 1;
    for (let i = 0; i < rows; i++) this.lines.push(new Line(cols));
    this.tabs = new Uint8Array(cols);
    this.resetTabs();
  }

  /**
   * Back to a new buffer's state, reusing its lines (only lines noted by `touched` are erased):
   * blank rows, cursor home, full margins, default tabs, no saved cursor, no scrollback.
   */
  reset(cols: number): void {
    for (const line of this.#overflow ? this.lines : this.#touched) line.reset(cols);
    this.#touched.length = 0;
    this.#overflow = false;
    if (this.tabs.length !== cols) this.tabs = new Uint8Array(cols);
    this.resetTabs();
    this.scrollback?.clear();
    this.x = this.y = this.scrollTop = 0;
    this.scrollBottom = this.lines.length - 1;
    this.savedX = this.savedY = 0;
    this.savedCharset = null;
  }

  /** Notes that `line` may hold content now: `reset` erases the lines noted, not every line. */
  touched(line: Line): void {
    if (this.#touched.length < this.lines.length) this.#touched.push(line);
    else this.#overflow = true;
  }

  /** Number of scrollback lines (xterm's `ybase`). */
  get base(): number {
    return this.scrollback?.length ?? 0;
  }

  /** Tab stops every 8 columns. */
  resetTabs(): void {
    this.tabs.fill(0);
    for (let i = 0; i < this.tabs.length; i += 8) this.tabs[i] = 1;
  }

  /** Next tab stop right of `x`, clamped to the last column. */
  nextStop(x: number): number {
    const cols = this.tabs.length;
    while (++x < cols && !this.tabs[x]);
    return x >= cols ? cols - 1 : x < 0 ? 0 : x;
  }

  /** Previous tab stop left of `x`, clamped to column 0. */
  prevStop(x: number): number {
    const cols = this.tabs.length;
    while (--x > 0 && !this.tabs[x]);
    return x >= cols ? cols - 1 : x < 0 ? 0 : x;
  }
}
