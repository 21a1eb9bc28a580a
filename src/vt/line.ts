/**
 * One row of cells. A cell is one `Uint32`: bits 0–20 the code point, bit 21 "combined" (the
 * text lives in `combined`), bits 22–23 the width (0 = right half of a wide character, or a
 * lone zero-width character). An erased cell is {@link NULL_CELL}: no code point, width 1.
 *
 * @module
 */

/** Mask of the code point bits. */
export const CP_MASK = 0x1fffff;
/** Flag: the cell's text is a string in `Line.combined` (base + combining marks). */
export const COMBINED = 0x200000;
/** Mask of the bits that make a cell non-empty. */
export const CONTENT_MASK = 0x3fffff;
/** Shift of the width bits. */
export const WIDTH_SHIFT = 22;
/** Mask of the width bits. */
export const WIDTH_MASK = 0xc00000;
/** An erased cell: no content, width 1. */
export const NULL_CELL = 1 << WIDTH_SHIFT;
/**
 * Longest text (UTF-16 code units) one cell keeps: a base and up to 11 BMP combining marks;
 * more marks are dropped. xterm keeps 2 by default, PuTTY 32, xterm.js has no limit. 12 because
 * V8 keeps a string this short flat: appending a mark to a longer string builds a rope, and a
 * screen and scrollback of 32-unit cells cost ~1 KB per cell.
 */
export const MAX_CELL_TEXT = 12;

// V8's size of a flat two-byte string of MAX_CELL_TEXT units: 16 bytes of header plus the text.
const _STRING_BYTES = 16 + 2 * MAX_CELL_TEXT;

/** A row of cells plus its soft-wrap flag. */
export class Line {
  /** The cells, one `Uint32` each (see the module doc). */
  cells: Uint32Array;
  /** This row continues the previous one (it was reached by autowrap). */
  wrapped = false;
  /**
   * Text of combined cells by column (read only where the cell has the COMBINED flag; other
   * slots may hold stale text); null until one exists. Written through `addToCell` and
   * `fillText` only (moving texts within the line aside).
   */
  combined: string[] | null = null;
  /** A cell may hold content (false: every cell is erased, so `reset` has nothing to do). */
  dirty = false;
  // A slot may hold a text the shared table (_KEPT) does not keep: erasing must let go of it.
  // Texts the table keeps cost nothing more when a stale slot points at them, so a line of
  // shared texts (a flood's) is erased without a pass over its slots.
  #ownTexts = false;
  // A text every combined slot holds but maybe the one at #holdExcept (-1: none), or null when
  // unknown. A recycled row of a flood holds its cluster in every slot already (erasing keeps
  // slots), so writing the cluster over the row again needs no store: storing 400 strings was
  // most of the cost of a combining REP flood at 400 columns.
  #hold: string | null = null;
  #holdExcept = -1;

  constructor(cols: number) {
    this.cells = new Uint32Array(cols).fill(NULL_CELL);
  }

  /**
   * Erases every cell and the wrap flag; resizes to `cols` when needed. The combined-text slots
   * are kept (a flood of combining marks must not make an array of garbage per row), emptied
   * when one may hold a text of its own.
   */
  reset(cols: number): void {
    this.wrapped = false;
    if (this.cells.length !== cols) {
      this.cells = new Uint32Array(cols).fill(NULL_CELL);
      this.combined = null;
    } else if (this.dirty) {
      this.cells.fill(NULL_CELL);
      this.dropTexts();
    }
    this.dirty = false;
  }

  /** Lets go of the combined texts of its own (the line left the scrollback; its slot keeps it). */
  dropTexts(): void {
    if (!this.#ownTexts) return;
    this.combined?.fill("");
    this.#ownTexts = false;
    this.#hold = "";
    this.#holdExcept = -1;
  }

  /** Puts back saved combined texts by column (a saved terminal restored, terminal_state.ts). */
  restoreTexts(texts: Readonly<Record<string, string>>): void {
    const slots = this.combinedSlots();
    for (const [x, text] of Object.entries(texts)) slots[Number(x)] = text;
    this.#ownTexts = true;
    this.#hold = null;
    this.#holdExcept = -1;
  }

  /** The text of the cell at `x` ("" for an erased cell). */
  cellText(x: number): string {
    const c = this.cells[x];
    if (c & COMBINED) return this.combined?.[x] ?? "";
    const cp = c & CP_MASK;
    return cp ? String.fromCodePoint(cp) : "";
  }

  /** The combined-text slots, created on first use. */
  combinedSlots(): string[] {
    if (this.combined !== null) return this.combined;
    this.#hold = "";
    this.#holdExcept = -1;
    return this.combined = new Array<string>(this.cells.length).fill("");
  }

  /** Moves the combined texts of [start, end) to `target` (ICH, DCH), as `copyWithin`. */
  moveTexts(target: number, start: number, end: number): void {
    if (this.combined === null) return;
    this.combined.copyWithin(target, start, end);
    this.#hold = null;
  }

  // Slot `x` now holds `text`: keeps #hold true.
  #slotSet(x: number, text: string): void {
    const hold = this.#hold;
    if (hold === null) return;
    if (text === hold) {
      if (x === this.#holdExcept) this.#holdExcept = -1;
    } else if (this.#holdExcept === -1 || this.#holdExcept === x) this.#holdExcept = x;
    else this.#hold = null;
  }

  /** Appends `cp` to the cell at `x` (combining mark); sets the width when `width` > 0. */
  addToCell(x: number, cp: number, width: number): void {
    let c = this.cells[x];
    if (c & COMBINED) {
      const slots = this.combinedSlots();
      const text = slots[x];
      if (text.length + (cp > 0xffff ? 2 : 1) <= MAX_CELL_TEXT) {
        const joined = _append(text, cp);
        slots[x] = joined;
        this.#slotSet(x, joined);
        if (!_appendKept) this.#ownTexts = true;
      }
    } else if (c & CP_MASK) {
      const joined = _append(String.fromCodePoint(c & CP_MASK), cp);
      this.combinedSlots()[x] = joined;
      this.#slotSet(x, joined);
      if (!_appendKept) this.#ownTexts = true;
      c = (c & ~CP_MASK) | COMBINED;
    } else {
      c = cp | NULL_CELL;
    }
    if (width) c = (c & ~WIDTH_MASK) | (width << WIDTH_SHIFT);
    this.cells[x] = c;
    this.dirty = true;
  }

  /** Sets the combined text of columns [from, end) to `text` (cells written as a run). */
  fillText(from: number, end: number, text: string): void {
    if (!this.#ownTexts && !_KEPT.has(text)) this.#ownTexts = true;
    const except = this.#holdExcept;
    if (
      this.combined !== null && this.#hold === text && (except < from || except >= end)
    ) return; // every slot of the range holds it already
    const slots = this.combinedSlots();
    slots.fill(text, from, end);
    this.#holdAfterFill(slots, from, end, text);
  }

  // After [from, end) was filled with `text`: #hold is `text` when the few other slots hold it
  // too (all but one at most), else unknown.
  #holdAfterFill(slots: string[], from: number, end: number, text: string): void {
    this.#hold = null;
    if (from < 0 || end > slots.length || from >= end || from + slots.length - end > 4) return;
    let except = -1;
    for (let x = 0; x < slots.length; x++) {
      if (x === from) x = end;
      if (x >= slots.length || slots[x] === text) continue;
      if (except !== -1) return;
      except = x;
    }
    this.#hold = text;
    this.#holdExcept = except;
  }

  /**
   * Estimated bytes of the combined texts (what this line adds to the scrollback's budget): a
   * pointer per slot, and per combined cell a string of at most {@link MAX_CELL_TEXT} units.
   * `combinedCells`, when the caller knows it, saves counting them.
   */
  combinedBytes(combinedCells?: number): number {
    const slots = this.combined;
    if (slots === null) return 0;
    let n = combinedCells ?? 0;
    if (combinedCells === undefined) {
      const cells = this.cells;
      for (let i = 0; i < cells.length; i++) if (cells[i] & COMBINED) n++;
    }
    return 8 * slots.length + _STRING_BYTES * n;
  }

  /** Number of columns up to the end of the last non-empty cell (xterm's trimmed length). */
  trimmedLength(): number {
    const cells = this.cells;
    for (let i = cells.length - 1; i >= 0; i--) {
      const c = cells[i];
      if (c & CONTENT_MASK) return i + (c >>> WIDTH_SHIFT);
    }
    return 0;
  }

  /**
   * The row as text: cells up to `end` (default: the trimmed length), an erased cell as a
   * space, the right half of a wide character skipped; trailing U+0020 stripped when `trim`.
   */
  text(trim = true, end = this.trimmedLength()): string {
    const cells = this.cells;
    end = Math.min(end, cells.length);
    let out = "";
    let x = 0;
    while (x < end) {
      const c = cells[x];
      if (c & COMBINED) out += this.combined?.[x] ?? "";
      else {
        const cp = c & CP_MASK;
        out += cp ? (cp < 0x10000 ? String.fromCharCode(cp) : String.fromCodePoint(cp)) : " ";
      }
      x += (c >>> WIDTH_SHIFT) || 1;
    }
    if (trim) {
      let n = out.length;
      while (n > 0 && out.charCodeAt(n - 1) === 0x20) n--;
      if (n !== out.length) out = out.slice(0, n);
    }
    return out;
  }

  /** Per-column widths as digits ("2011…"), or null when every cell is 1 wide. */
  widths(): string | null {
    const cells = this.cells;
    let all1 = true;
    for (let i = 0; i < cells.length; i++) {
      if ((cells[i] & WIDTH_MASK) !== NULL_CELL) {
        all1 = false;
        break;
      }
    }
    if (all1) return null;
    let out = "";
    for (let i = 0; i < cells.length; i++) out += cells[i] >>> WIDTH_SHIFT;
    return out;
  }

  /**
   * ICH: inserts `n` erased cells at column `pos`, shifting the rest right (cells pushed past the
   * last column are lost, and a wide character cut at either edge is erased).
   */
  insertCells(pos: number, n: number): void {
    if (!this.dirty) return; // every cell erased: shifting erased cells changes nothing
    const cells = this.cells;
    const len = cells.length;
    pos %= len;
    if (pos && (cells[pos - 1] >>> WIDTH_SHIFT) === 2) cells[pos - 1] = NULL_CELL;
    if (n < len - pos) {
      cells.copyWithin(pos + n, pos, len - n);
      this.moveTexts(pos + n, pos, len - n);
      cells.fill(NULL_CELL, pos, pos + n);
    } else {
      cells.fill(NULL_CELL, pos, len);
    }
    if ((cells[len - 1] >>> WIDTH_SHIFT) === 2) cells[len - 1] = NULL_CELL;
  }

  /** DCH: deletes `n` cells at column `pos`, shifting the rest left (erased cells come in). */
  deleteCells(pos: number, n: number): void {
    if (!this.dirty) return;
    const cells = this.cells;
    const len = cells.length;
    pos %= len;
    if (n < len - pos) {
      cells.copyWithin(pos, pos + n, len);
      this.moveTexts(pos, pos + n, len);
      cells.fill(NULL_CELL, len - n, len);
    } else {
      cells.fill(NULL_CELL, pos, len);
    }
    if (pos && (cells[pos - 1] >>> WIDTH_SHIFT) === 2) cells[pos - 1] = NULL_CELL;
    if (cells[pos] === 0) cells[pos] = NULL_CELL;
  }

  /**
   * Erases cells [start, end), and a wide character cut at either edge; the wrap flag too when
   * `clearWrap`.
   */
  eraseCells(start: number, end: number, clearWrap: boolean): void {
    if (!this.dirty) return; // erased already, and not wrapped
    const cells = this.cells;
    const len = cells.length;
    if (start && (cells[start - 1] >>> WIDTH_SHIFT) === 2) cells[start - 1] = NULL_CELL;
    if (end < len && end > 0 && (cells[end - 1] >>> WIDTH_SHIFT) === 2) cells[end] = NULL_CELL;
    if (start < end) cells.fill(NULL_CELL, start, Math.min(end, len));
    if (clearWrap) this.wrapped = false;
  }

  /** Changes the number of columns: cells beyond `cols` are cut, new ones are erased. */
  setWidth(cols: number): void {
    const cells = new Uint32Array(cols).fill(NULL_CELL);
    cells.set(this.cells.subarray(0, Math.min(cols, this.cells.length)));
    this.cells = cells;
    if (this.combined) {
      const slots = this.combined.slice(0, cols);
      while (slots.length < cols) slots.push("");
      this.combined = slots;
      this.#hold = null;
    }
  }
}

// Combined texts seen, each kept once, by the text it extends and the mark added: output that
// repeats the same clusters (the usual case, and a flood's) then stores one string per cluster
// and makes none, instead of a string per cell that only the old generation's next collection
// frees (a combining flood at 400 columns took RSS from 70 to 130 MB that way). Bounded: past
// the limit, new texts are made as they come and not kept.
const _APPENDED = new Map<string, Map<number, string>>();
const _APPENDED_LIMIT = 4096;
let _appendedCount = 0;
// The texts _APPENDED keeps (it never lets one go).
const _KEPT = new Set<string>();
// Whether the text the last _append returned is one _APPENDED keeps.
let _appendKept = false;

function _append(text: string, cp: number): string {
  let next = _APPENDED.get(text);
  const known = next?.get(cp);
  _appendKept = true;
  if (known !== undefined) return known;
  const joined = text + String.fromCodePoint(cp);
  _appendKept = _appendedCount < _APPENDED_LIMIT;
  if (_appendKept) {
    if (next === undefined) _APPENDED.set(text, next = new Map());
    next.set(cp, joined);
    _KEPT.add(joined);
    _appendedCount++;
  }
  return joined;
}
