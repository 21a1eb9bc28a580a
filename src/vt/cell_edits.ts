/**
 * Editing cells of the buffer shown in place: erase in display and line (ED, EL), erase, insert
 * and delete characters (ECH, ICH, DCH), shift, insert and delete columns of the scroll region
 * (SL, SR, DECIC, DECDC), and the alignment pattern (DECALN). Each forgets the REP memo (see
 * `repeat.ts`), which follows printing only. Erasing a line known blank does nothing.
 *
 * @module
 */
import { NULL_CELL } from "./line.ts";
import type { Repeater } from "./repeat.ts";
import type { Screen } from "./screen.ts";

const _E = 0x45;

/** The cell edits of one screen. */
export class CellEdits {
  readonly #screen: Screen;
  readonly #rep: Repeater;

  constructor(screen: Screen, rep: Repeater) {
    this.#screen = screen;
    this.#rep = rep;
  }

  /** ICH: `n` blank cells at the cursor, the rest of the row moving right. */
  insertChars(n: number): void {
    const s = this.#screen;
    s.cursor.restrict();
    this.#rep.forget();
    s.buf.lines[s.buf.y].insertCells(s.buf.x, n);
  }

  /** DCH: deletes `n` cells at the cursor, the rest of the row moving left. */
  deleteChars(n: number): void {
    const s = this.#screen;
    s.cursor.restrict();
    this.#rep.forget();
    s.buf.lines[s.buf.y].deleteCells(s.buf.x, n);
  }

  /** ECH: erases `n` cells from the cursor (the cursor stays). */
  eraseChars(n: number): void {
    const s = this.#screen;
    s.cursor.restrict();
    this.#eraseCells(s.buf.y, s.buf.x, s.buf.x + n, false);
  }

  /**
   * SL (`left`) / SR: every row of the scroll region shifts `n` columns left or right, as DCH /
   * ICH at column 0 would; nothing when the cursor is outside the region.
   */
  shiftColumns(n: number, left: boolean): void {
    this.#editColumns(0, n, !left);
  }

  /** DECIC (`insert`) / DECDC: `n` columns inserted or deleted at the cursor's, in the region. */
  editColumns(n: number, insert: boolean): void {
    this.#editColumns(this.#screen.buf.x, n, insert);
  }

  #editColumns(x: number, n: number, insert: boolean): void {
    const buf = this.#screen.buf;
    if (buf.y < buf.scrollTop || buf.y > buf.scrollBottom) return;
    this.#rep.forget();
    for (let y = buf.scrollTop; y <= buf.scrollBottom; y++) {
      const line = buf.lines[y];
      if (insert) line.insertCells(x, n);
      else line.deleteCells(x, n);
      line.wrapped = false;
    }
  }

  /** ED / DECSED with parameter `mode`: below (0), above (1), all (2), the scrollback (3). */
  eraseInDisplay(mode: number): void {
    const s = this.#screen;
    s.cursor.restrict(s.cols);
    const buf = s.buf;
    const cols = s.cols;
    switch (mode) {
      case 0:
        this.#eraseCells(buf.y, buf.x, cols, buf.x === 0);
        for (let y = buf.y + 1; y < s.rows; y++) this.#resetLine(y);
        return;
      case 1: {
        this.#eraseCells(buf.y, 0, buf.x + 1, true);
        if (buf.x + 1 >= cols) {
          // xterm.js clears the wrap flag of the line at absolute index y+1 (ignoring ybase)
          const abs = buf.y + 1;
          const base = buf.base;
          const line = abs < base ? buf.scrollback!.get(abs) : buf.lines[abs - base];
          if (line) line.wrapped = false;
        }
        for (let y = buf.y - 1; y >= 0; y--) this.#resetLine(y);
        return;
      }
      case 2:
        this.#rep.forget();
        if (buf.blank) return;
        for (let y = 0; y < s.rows; y++) this.#resetLine(y);
        buf.markBlank();
        return;
      case 3:
        buf.scrollback?.clear();
        return;
    }
  }

  /** EL / DECSEL with parameter `mode`: right of the cursor (0), left (1), the whole row (2). */
  eraseInLine(mode: number): void {
    const s = this.#screen;
    s.cursor.restrict(s.cols);
    const buf = s.buf;
    if (mode === 0) this.#eraseCells(buf.y, buf.x, s.cols, buf.x === 0);
    else if (mode === 1) this.#eraseCells(buf.y, 0, buf.x + 1, false);
    else if (mode === 2) this.#eraseCells(buf.y, 0, s.cols, true);
  }

  /** DECALN: fills the screen with `E`, the cursor home. */
  screenAlignment(): void {
    const s = this.#screen;
    this.#rep.forget();
    s.cursor.set(0, 0);
    const buf = s.buf;
    for (let y = buf.y; y < s.rows; y++) {
      const line = buf.lines[y];
      line.cells.fill(_E | NULL_CELL);
      line.combined = null;
      line.wrapped = false;
      s.touch(line);
    }
    s.cursor.set(0, 0);
  }

  /** Erases cells [start, end) of row `y`, fixing wide characters cut at either edge. */
  #eraseCells(y: number, start: number, end: number, clearWrap: boolean): void {
    this.#rep.forget();
    this.#screen.buf.lines[y].eraseCells(start, end, clearWrap);
  }

  #resetLine(y: number): void {
    this.#rep.forget();
    this.#screen.buf.lines[y].reset(this.#screen.cols);
  }
}
