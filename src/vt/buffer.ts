/**
 * One screen buffer (normal or alternate): visible rows, cursor, margins, tab stops, saved
 * cursor, and for the normal buffer the scrollback.
 *
 * @module
 */
import { Line, NULL_CELL, WIDTH_SHIFT } from "./line.ts";
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
  /** Tab stops, one slot per column: 1 where a stop is (changed only through the methods). */
  tabs: Uint8Array;
  /** Saved cursor column (DECSC). */
  savedX = 0;
  /** Saved cursor row, absolute (scrollback length + row, as xterm.js keeps it). */
  savedY = 0;
  /** Saved character set (DECSC). */
  savedCharset: Charset | null = null;
  // The lines that may hold content since the last reset: the first #touchedCount slots (a
  // screenful at most, else all may). Slots are overwritten, not removed: no array per reset.
  #touched: Line[] = [];
  #touchedCount = 0;
  #overflow = false;
  // Every visible line is blank (not dirty): blanking rows then has nothing to do.
  #blank = true;
  // The tab stops are the default ones (every 8 columns): a reset need not rewrite them.
  #defaultTabs = false;

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
    if (this.#overflow) { for (const line of this.lines) line.reset(cols); }
    else for (let i = 0; i < this.#touchedCount; i++) this.#touched[i].reset(cols);
    this.#touchedCount = 0;
    this.#overflow = false;
    this.#blank = true;
    if (this.tabs.length !== cols) {
      this.tabs = new Uint8Array(cols);
      this.#defaultTabs = false;
    }
    this.resetTabs();
    this.scrollback?.clear();
    this.x = this.y = this.scrollTop = 0;
    this.scrollBottom = this.lines.length - 1;
    this.savedX = this.savedY = 0;
    this.savedCharset = null;
  }

  /** Notes that `line` may hold content now: `reset` erases the lines noted, not every line. */
  touched(line: Line): void {
    this.#blank = false;
    if (this.#touchedCount < this.lines.length) this.#touched[this.#touchedCount++] = line;
    else this.#overflow = true;
  }

  /**
   * Every visible line is blank (no line was noted by `touched` since the last reset or
   * `markBlank`, and no line with content came on screen by a resize).
   */
  get blank(): boolean {
    return this.#blank;
  }

  /** Notes that every visible line is blank now (the screen just blanked them all). */
  markBlank(): void {
    this.#blank = true;
  }

  /** Notes that a visible line may hold content without `touched` (a resize pulled it back). */
  markNotBlank(): void {
    this.#blank = false;
  }

  /** Number of scrollback lines (xterm's `ybase`). */
  get base(): number {
    return this.scrollback?.length ?? 0;
  }

  /** Tab stops every 8 columns. */
  resetTabs(): void {
    if (this.#defaultTabs) return;
    this.#defaultTabs = true;
    this.tabs.fill(0);
    for (let i = 0; i < this.tabs.length; i += 8) this.tabs[i] = 1;
  }

  /** Tab stops put back from a saved terminal (terminal_state.ts). */
  restoreTabs(tabs: Uint8Array): void {
    this.tabs = tabs;
    this.#defaultTabs = false;
  }

  /** HTS: a tab stop at column `x` (none past the last column). */
  setStop(x: number): void {
    if (x >= this.tabs.length || this.tabs[x] === 1) return;
    this.tabs[x] = 1;
    this.#defaultTabs = false;
  }

  /** TBC 0: no tab stop at column `x`. */
  clearStop(x: number): void {
    if (x >= this.tabs.length || this.tabs[x] === 0) return;
    this.tabs[x] = 0;
    this.#defaultTabs = false;
  }

  /** TBC 3: no tab stops at all. */
  clearStops(): void {
    this.tabs.fill(0);
    this.#defaultTabs = false;
  }

  /** The tab stops for `cols` columns: kept where they were, every 8 columns in new ones. */
  resizeTabs(cols: number): void {
    const old = this.tabs;
    const tabs = new Uint8Array(cols);
    tabs.set(old.subarray(0, Math.min(cols, old.length)));
    for (let i = Math.ceil(old.length / 8) * 8; i < cols; i += 8) tabs[i] = 1;
    this.tabs = tabs; // default stops stay default
  }

  /**
   * Resizes to `cols` × `rows` without reflow: rows are cut or padded; growing pulls lines back
   * from the scrollback while the cursor is on the last row, shrinking drops rows below the
   * cursor first, then pushes rows above it to the scrollback; the cursor and saved column are
   * clamped, the margins reset to the whole screen.
   */
  resize(cols: number, rows: number): void {
    const oldRows = this.lines.length;
    if (cols !== this.tabs.length) {
      for (const line of this.lines) {
        line.setWidth(cols);
        const cells = line.cells;
        if ((cells[cols - 1] >>> WIDTH_SHIFT) === 2) cells[cols - 1] = NULL_CELL;
      }
      this.resizeTabs(cols);
    }
    if (rows > oldRows) {
      for (let k = oldRows; k < rows; k++) {
        // cursor on the last row and scrollback available: pull a line back down
        const pulled = this.y === this.lines.length - 1 ? this.scrollback?.pop() : undefined;
        if (pulled) {
          if (pulled.cells.length !== cols) pulled.setWidth(cols);
          if (pulled.dirty) this.markNotBlank();
          this.lines.unshift(pulled);
          this.y++;
          this.savedY = Math.max(0, this.savedY);
        } else this.lines.push(new Line(cols));
      }
    } else if (rows < oldRows) {
      for (let k = oldRows; k > rows; k--) {
        if (this.lines.length - 1 > this.y) this.lines.pop();
        else {
          const top = this.lines.shift()!;
          this.scrollback?.push(top);
          this.y--;
        }
      }
    }
    this.x = Math.min(this.x, cols - 1);
    this.y = Math.max(0, Math.min(this.y, rows - 1));
    this.savedX = Math.min(this.savedX, cols - 1);
    this.scrollTop = 0;
    this.scrollBottom = rows - 1;
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
