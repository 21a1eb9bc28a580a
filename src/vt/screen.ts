/**
 * The screen model the interpreter drives, and the one place its rules live: the normal and
 * alternate buffers, the cursor and how it is clamped (margins, origin mode, pending wrap),
 * printing (autowrap, wide and combining characters, charsets), editing (erase, insert, delete,
 * scroll) and resize. Every operation is named for what it does (`cursorUp`, `insertLines`,
 * `setScrollRegion`…); the handlers of `csi.ts`, `esc.ts` and `controls.ts` only read their
 * parameters and call one. Pure. REP is `repeat.ts`, reading the screen as text
 * `screen_text.ts`.
 *
 * @module
 */
import { ScreenBuffer } from "./buffer.ts";
import { Charsets } from "./charsets.ts";
import { COMBINED, CP_MASK, Line, NULL_CELL, WIDTH_MASK, WIDTH_SHIFT } from "./line.ts";
import type { Modes } from "./modes.ts";
import { Repeater } from "./repeat.ts";
import { charWidth } from "./width.ts";

const _E = 0x45;

/** The screen of a {@link Terminal}: buffers, cursor and every operation on them. */
export class Screen {
  /** Columns. */
  cols: number;
  /** Rows. */
  rows: number;
  /** The normal buffer (it owns the scrollback). */
  normal!: ScreenBuffer;
  /** The alternate buffer (no scrollback). */
  alt!: ScreenBuffer;
  /** The buffer shown: `normal` or `alt`. */
  buf!: ScreenBuffer;
  /** LNM (CSI 20 h): line feed also returns the carriage. */
  convertEol = false;
  /** G0–G3 and the set printing maps through. */
  readonly charsets: Charsets = new Charsets();
  /** Width of the preceding printed char, 0 when a combining mark would not join it. */
  joinWidth = 0;
  /** Inside a run of printed characters (the wide-char fix-up of `#startRun` is done). */
  inPrintRun = false;
  readonly #scrollbackSize: number;
  // shared with the ModeState, which changes it in place: insert, wraparound, origin…
  readonly #modes: Readonly<Modes>;
  readonly #rep: Repeater;

  constructor(cols: number, rows: number, scrollback: number, modes: Readonly<Modes>) {
    this.cols = cols;
    this.rows = rows;
    this.#scrollbackSize = scrollback;
    this.#modes = modes;
    this.#rep = new Repeater(this, modes);
    this.resetBuffers();
  }

  /**
   * Blank normal and alternate buffers, the normal one shown. The buffers and their lines are
   * reused (RIS in a loop must not allocate a screen of garbage each time).
   */
  resetBuffers(): void {
    this.#rep.forget();
    if (this.normal === undefined) {
      this.normal = new ScreenBuffer(this.cols, this.rows, this.#scrollbackSize);
      this.alt = new ScreenBuffer(this.cols, this.rows, null);
    } else {
      this.normal.reset(this.cols);
      this.alt.reset(this.cols);
    }
    this.buf = this.normal;
  }

  /** DECSTR's part of the screen: full margins, charsets reset, saved cursor home. */
  softReset(): void {
    const buf = this.buf;
    buf.scrollTop = 0;
    buf.scrollBottom = this.rows - 1;
    this.charsets.reset();
    buf.savedX = 0;
    buf.savedY = buf.base;
    buf.savedCharset = null;
  }

  /** Resizes both buffers; content is kept (no reflow), the cursor is clamped. */
  resize(cols: number, rows: number): void {
    this.#rep.forget();
    this.normal.resize(cols, rows);
    this.alt.resize(cols, rows);
    this.cols = cols;
    this.rows = rows;
  }

  // ---------------------------------------------------------------- printing

  /** Start of a print run: writing over the right half of a wide char erases its left half. */
  #startRun(): void {
    this.inPrintRun = true;
    const buf = this.buf;
    const x = buf.x;
    if (x > 0 && x <= this.cols) {
      const cells = buf.lines[buf.y].cells;
      if ((cells[x - 1] >>> WIDTH_SHIFT) === 2) cells[x - 1] = NULL_CELL;
    }
  }

  /** After printing: an orphaned right half at the cursor becomes an erased cell. */
  endPrint(): void {
    const buf = this.buf;
    if (buf.x < this.cols) {
      const cells = buf.lines[buf.y].cells;
      if (cells[buf.x] === 0) cells[buf.x] = NULL_CELL;
    }
  }

  /** Prints bytes [start, end) of `bytes`, all printable ASCII (the fast path). */
  printAscii(bytes: Uint8Array, start: number, end: number): void {
    if (this.charsets.gl !== null || this.#modes.insert) {
      for (let i = start; i < end; i++) this.printCp(bytes[i]);
      return;
    }
    const buf = this.buf;
    const rep = this.#rep;
    rep.note(buf.lines[buf.y], buf.x - 1, buf.x + 1); // what #startRun may change
    if (!this.inPrintRun) this.#startRun();
    const cols = this.cols;
    const wrap = this.#modes.wraparound;
    let x = buf.x;
    let line = buf.lines[buf.y];
    let cells = line.cells;
    this.touch(line);
    let i = start;
    while (i < end) {
      if (x >= cols) {
        if (wrap) {
          this.#wrapDown();
          line = buf.lines[buf.y];
          this.touch(line);
          cells = line.cells;
          x = 0;
        } else {
          // no autowrap: everything left overwrites the last column
          rep.note(line, cols - 1, cols);
          cells[cols - 1] = bytes[end - 1] | NULL_CELL;
          x = cols;
          break;
        }
      }
      let m = cols - x;
      if (m > end - i) m = end - i;
      rep.note(line, x, x + m + 1); // and what endPrint may change
      for (let k = 0; k < m; k++) cells[x + k] = bytes[i + k] | NULL_CELL;
      x += m;
      i += m;
    }
    buf.x = x;
    this.joinWidth = 1;
    this.endPrint();
  }

  /** Prints one code point: charset mapping, width, joining a combining mark, autowrap. */
  printCp(cp: number): void {
    const buf = this.buf;
    // #startRun, joining a mark, the character, endPrint
    this.#rep.note(buf.lines[buf.y], buf.x - 2, buf.x + 3);
    if (!this.inPrintRun) this.#startRun();
    const cols = this.cols;
    const gl = this.charsets.gl;
    if (cp < 127 && gl !== null) {
      const mapped = gl[cp];
      if (mapped) cp = mapped;
    }
    let w = cp < 0x7f ? 1 : charWidth(cp);
    let oldW = 0;
    let join = false;
    if (w === 0 && this.joinWidth !== 0) {
      join = true;
      oldW = this.joinWidth;
      w = oldW;
    }
    this.joinWidth = w;
    let line = buf.lines[buf.y];
    if (buf.x + w - oldW > cols) {
      if (this.#modes.wraparound) {
        const oldRow = line;
        let oldCol = buf.x - oldW;
        this.#wrapDown();
        buf.x = oldW;
        line = buf.lines[buf.y];
        this.#rep.note(oldRow, oldCol, cols);
        this.#rep.note(line, 0, oldW + 3);
        for (; oldCol < cols; oldCol++) oldRow.cells[oldCol] = NULL_CELL;
      } else {
        buf.x = cols - 1;
        if (w === 2) return;
      }
    }
    const cells = line.cells;
    if (join && buf.x) {
      const offset = (cells[buf.x - 1] & WIDTH_MASK) ? 1 : 2;
      if (buf.x - offset >= 0) {
        this.touch(line);
        line.addToCell(buf.x - offset, cp, w);
      }
      return;
    }
    if (this.#modes.insert) {
      this.#rep.forget();
      line.insertCells(buf.x, w - oldW);
      if ((cells[cols - 1] >>> WIDTH_SHIFT) === 2) cells[cols - 1] = NULL_CELL;
    }
    if (buf.x >= cols) return; // a zero-width char at a pending wrap: nowhere to put it
    this.touch(line);
    cells[buf.x++] = cp | (w << WIDTH_SHIFT);
    while (w-- > 1 && buf.x < cols) cells[buf.x++] = 0;
    this.endPrint();
  }

  /** REP: prints the preceding character `n` more times (see `repeat.ts`). */
  repeat(n: number): void {
    this.#rep.repeat(n);
  }

  /** Autowrap: move to the next row, scrolling at the bottom margin; marks it wrapped. */
  #wrapDown(): void {
    const buf = this.buf;
    // on the last row below the margins xterm.js flags the row it stays on
    if (this.#down(true) || buf.y !== buf.scrollBottom) {
      const line = buf.lines[buf.y];
      line.wrapped = true;
      this.touch(line);
    }
  }

  /** `line` (of the buffer shown) may now hold content: RIS must erase it. */
  touch(line: Line): void {
    if (line.dirty) return;
    line.dirty = true;
    this.buf.touched(line);
  }

  // ---------------------------------------------------------------- lines and scrolling

  /**
   * One row down; at the bottom margin the region scrolls up instead, its new blank row
   * flagged `wrapped`. True when the cursor moved (false: scrolled, or stuck on the last row).
   */
  #down(wrapped: boolean): boolean {
    const buf = this.buf;
    if (buf.y === buf.scrollBottom) {
      this.#scrollOne(wrapped);
      return false;
    }
    if (buf.y >= this.rows - 1) return false;
    this.#rep.forget();
    buf.y++;
    return true;
  }

  /** A blank line, reusing `recycled` when it is given. */
  blank(recycled: Line | null | undefined): Line {
    if (recycled) {
      recycled.reset(this.cols);
      return recycled;
    }
    return new Line(this.cols);
  }

  /** Scrolls the region up one line (LF/IND at the bottom margin, autowrap). */
  #scrollOne(wrapped: boolean): void {
    const buf = this.buf;
    const top = buf.scrollTop;
    const bottom = buf.scrollBottom;
    let line: Line;
    let out: Line; // the row that leaves the region
    if (top === 0 && buf.scrollback !== null) {
      out = buf.lines.shift()!;
      // a row of the REP memo's pattern: its count of combined cells is known
      const known = this.#rep.patternCells(out, buf, top, bottom);
      line = this.blank(
        buf.scrollback.push(out, known === undefined ? known : out.combinedBytes(known)),
      );
    } else {
      out = buf.lines.splice(top, 1)[0];
      line = this.blank(out);
    }
    line.wrapped = wrapped;
    if (wrapped) this.touch(line);
    if (bottom === this.rows - 1) buf.lines.push(line);
    else buf.lines.splice(bottom, 0, line);
    this.#rep.scrolled(buf, top, bottom, out, line);
  }

  /**
   * Removes `n` lines at row `at` and inserts as many blank lines at row `insertAt`, as if one
   * line were moved `n` times (`n` at most the rows between them, plus one). Above the insertion
   * point the removed lines are rows `at`…`at+n-1`, below it `at-n+1`…`at`; they are reused as
   * the blank ones, all in one splice, so a huge count on a huge region costs O(rows).
   */
  #shiftLines(at: number, insertAt: number, n: number): void {
    this.#rep.forget();
    const buf = this.buf;
    if (buf.blank) return; // blank lines moved and blanked: the same blank screen
    const lines = buf.lines;
    if (at === insertAt) {
      this.blank(lines[at]);
      return;
    }
    const up = at < insertAt;
    if (n > Math.abs(insertAt - at)) {
      // every row between them goes: blank them in place
      const from = Math.min(at, insertAt);
      const to = Math.max(at, insertAt);
      for (let y = from; y <= to; y++) this.blank(lines[y]);
      if (from === 0 && to === this.rows - 1) buf.markBlank();
      return;
    }
    const removed = lines.splice(up ? at : at - n + 1, n);
    for (const line of removed) this.blank(line);
    lines.splice(up ? insertAt - n + 1 : insertAt, 0, ...removed);
  }

  /** LF/VT/FF: next row, scrolling at the bottom margin. */
  lineFeed(): void {
    const buf = this.buf;
    if (this.convertEol) buf.x = 0;
    if (this.#down(false)) buf.lines[buf.y].wrapped = false;
    if (buf.x >= this.cols) buf.x--;
  }

  /** IND: next row, scrolling at the bottom margin; a pending wrap is dropped. */
  index(): void {
    this.restrictCursor();
    this.#down(false);
    this.restrictCursor();
  }

  /** NEL: first column of the next row, scrolling at the bottom margin. */
  nextLine(): void {
    this.buf.x = 0;
    this.index();
  }

  /** RI: previous row, scrolling down at the top margin. */
  reverseIndex(): void {
    this.restrictCursor();
    const buf = this.buf;
    if (buf.y === buf.scrollTop) {
      this.#shiftLines(buf.scrollBottom, buf.scrollTop, 1);
    } else {
      buf.y--;
      this.restrictCursor();
    }
  }

  /** Whether the cursor row is inside the scroll region (IL, DL, SL, SR… act only there). */
  #inRegion(): boolean {
    const buf = this.buf;
    return buf.y >= buf.scrollTop && buf.y <= buf.scrollBottom;
  }

  /** IL: `n` blank lines at the cursor row, the region below moving down; column 0. */
  insertLines(n: number): void {
    this.restrictCursor();
    if (!this.#inRegion()) return;
    const buf = this.buf;
    this.#shiftLines(buf.scrollBottom, buf.y, Math.min(n, buf.scrollBottom - buf.y + 1));
    buf.x = 0;
  }

  /** DL: deletes `n` lines at the cursor row, the region below moving up; column 0. */
  deleteLines(n: number): void {
    this.restrictCursor();
    if (!this.#inRegion()) return;
    const buf = this.buf;
    this.#shiftLines(buf.y, buf.scrollBottom, Math.min(n, buf.scrollBottom - buf.y + 1));
    buf.x = 0;
  }

  /** SU: scrolls the region up `n` lines (never into the scrollback). */
  scrollUp(n: number): void {
    const buf = this.buf;
    const k = Math.min(n, buf.scrollBottom - buf.scrollTop + 1);
    this.#shiftLines(buf.scrollTop, buf.scrollBottom, k);
  }

  /** SD: scrolls the region down `n` lines. */
  scrollDown(n: number): void {
    const buf = this.buf;
    const k = Math.min(n, buf.scrollBottom - buf.scrollTop + 1);
    this.#shiftLines(buf.scrollBottom, buf.scrollTop, k);
  }

  /**
   * DECSTBM: the scroll region becomes rows `top`…`bottom` (1-based; 0 or past the screen:
   * the last row); ignored unless `bottom` is below `top`. The cursor goes home.
   */
  setScrollRegion(top: number, bottom: number): void {
    if (bottom > this.rows || bottom === 0) bottom = this.rows;
    if (bottom <= top) return;
    const buf = this.buf;
    buf.scrollTop = top - 1;
    buf.scrollBottom = bottom - 1;
    this.setCursor(0, 0);
  }

  // ---------------------------------------------------------------- editing

  /** ICH: `n` blank cells at the cursor, the rest of the row moving right. */
  insertChars(n: number): void {
    this.restrictCursor();
    this.#rep.forget();
    this.buf.lines[this.buf.y].insertCells(this.buf.x, n);
  }

  /** DCH: deletes `n` cells at the cursor, the rest of the row moving left. */
  deleteChars(n: number): void {
    this.restrictCursor();
    this.#rep.forget();
    this.buf.lines[this.buf.y].deleteCells(this.buf.x, n);
  }

  /** ECH: erases `n` cells from the cursor (the cursor stays). */
  eraseChars(n: number): void {
    this.restrictCursor();
    const buf = this.buf;
    this.#eraseCells(buf.y, buf.x, buf.x + n, false);
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
    this.#editColumns(this.buf.x, n, insert);
  }

  #editColumns(x: number, n: number, insert: boolean): void {
    if (!this.#inRegion()) return;
    this.#rep.forget();
    const buf = this.buf;
    for (let y = buf.scrollTop; y <= buf.scrollBottom; y++) {
      const line = buf.lines[y];
      if (insert) line.insertCells(x, n);
      else line.deleteCells(x, n);
      line.wrapped = false;
    }
  }

  /** Erases cells [start, end) of row `y`, fixing wide characters cut at either edge. */
  #eraseCells(y: number, start: number, end: number, clearWrap: boolean): void {
    this.#rep.forget();
    this.buf.lines[y].eraseCells(start, end, clearWrap);
  }

  #resetLine(y: number): void {
    this.#rep.forget();
    this.buf.lines[y].reset(this.cols);
  }

  /** ED / DECSED with parameter `mode`. */
  eraseInDisplay(mode: number): void {
    this.restrictCursor(this.cols);
    const buf = this.buf;
    const cols = this.cols;
    switch (mode) {
      case 0:
        this.#eraseCells(buf.y, buf.x, cols, buf.x === 0);
        for (let y = buf.y + 1; y < this.rows; y++) this.#resetLine(y);
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
        for (let y = 0; y < this.rows; y++) this.#resetLine(y);
        buf.markBlank();
        return;
      case 3:
        buf.scrollback?.clear();
        return;
    }
  }

  /** EL / DECSEL with parameter `mode`. */
  eraseInLine(mode: number): void {
    this.restrictCursor(this.cols);
    const buf = this.buf;
    if (mode === 0) this.#eraseCells(buf.y, buf.x, this.cols, buf.x === 0);
    else if (mode === 1) this.#eraseCells(buf.y, 0, buf.x + 1, false);
    else if (mode === 2) this.#eraseCells(buf.y, 0, this.cols, true);
  }

  /** DECALN: fills the screen with `E`. */
  screenAlignment(): void {
    this.#rep.forget();
    this.setCursor(0, 0);
    const buf = this.buf;
    for (let y = buf.y; y < this.rows; y++) {
      const line = buf.lines[y];
      line.cells.fill(_E | NULL_CELL);
      line.combined = null;
      line.wrapped = false;
      this.touch(line);
    }
    this.setCursor(0, 0);
  }

  // ---------------------------------------------------------------- cursor

  /** Clamps the cursor into the screen (into the margins in origin mode). */
  restrictCursor(maxCol = this.cols - 1): void {
    const buf = this.buf;
    buf.x = Math.min(maxCol, Math.max(0, buf.x));
    buf.y = this.#modes.origin
      ? Math.min(buf.scrollBottom, Math.max(buf.scrollTop, buf.y))
      : Math.min(this.rows - 1, Math.max(0, buf.y));
  }

  /** CUP: moves the cursor to (x, y), relative to the top margin in origin mode, clamped. */
  setCursor(x: number, y: number): void {
    const buf = this.buf;
    buf.x = x;
    buf.y = this.#modes.origin ? buf.scrollTop + y : y;
    this.restrictCursor();
  }

  /** CHA/HPA: to column `x` (0-based) of the cursor row. */
  cursorToColumn(x: number): void {
    this.setCursor(x, this.buf.y);
  }

  /** VPA: to row `y` (0-based, relative to the top margin in origin mode), same column. */
  cursorToRow(y: number): void {
    this.setCursor(this.buf.x, y);
  }

  /** Moves the cursor by (dx, dy); like xterm.js, adds the top margin in origin mode. */
  moveCursor(dx: number, dy: number): void {
    this.restrictCursor();
    this.setCursor(this.buf.x + dx, this.buf.y + dy);
  }

  /** CUU: `n` rows up, stopping at the top margin when the cursor is below it. */
  cursorUp(n: number): void {
    const d = this.buf.y - this.buf.scrollTop;
    this.moveCursor(0, -(d >= 0 ? Math.min(d, n) : n));
  }

  /** CUD: `n` rows down, stopping at the bottom margin when the cursor is above it. */
  cursorDown(n: number): void {
    const d = this.buf.scrollBottom - this.buf.y;
    this.moveCursor(0, d >= 0 ? Math.min(d, n) : n);
  }

  /** CR: column 0. */
  carriageReturn(): void {
    this.buf.x = 0;
  }

  /** HT: to the next tab stop (the last column at most); nothing at a pending wrap. */
  tab(): void {
    const buf = this.buf;
    if (buf.x < this.cols) buf.x = buf.nextStop(buf.x);
  }

  /** CHT (`forward`) / CBT: `n` tab stops right or left; nothing at a pending wrap. */
  tabs(n: number, forward: boolean): void {
    const buf = this.buf;
    if (buf.x >= this.cols) return;
    for (let k = Math.min(n, this.cols); k > 0; k--) {
      buf.x = forward ? buf.nextStop(buf.x) : buf.prevStop(buf.x);
    }
  }

  /** HTS: a tab stop at the cursor column. */
  setTabStop(): void {
    this.buf.setStop(this.buf.x);
  }

  /** TBC 0 (`all` false) / TBC 3: no tab stop at the cursor column, or none at all. */
  clearTabStops(all: boolean): void {
    if (all) this.buf.clearStops();
    else this.buf.clearStop(this.buf.x);
  }

  /** BS, wrapping back over soft-wrapped rows in reverse-wraparound mode. */
  backspace(): void {
    this.#rep.forget();
    const buf = this.buf;
    if (!this.#modes.reverseWraparound) {
      this.restrictCursor();
      if (buf.x > 0) buf.x--;
      return;
    }
    this.restrictCursor(this.cols);
    if (buf.x > 0) buf.x--;
    else if (buf.y > buf.scrollTop && buf.y <= buf.scrollBottom && buf.lines[buf.y].wrapped) {
      buf.lines[buf.y].wrapped = false;
      buf.y--;
      buf.x = this.cols - 1;
      const c = buf.lines[buf.y].cells[buf.x];
      if ((c & WIDTH_MASK) && !(c & (CP_MASK | COMBINED))) buf.x--;
    }
    this.restrictCursor();
  }

  /** DECSC: saves the cursor (row as an absolute index, like xterm.js) and charset. */
  saveCursor(): void {
    const buf = this.buf;
    buf.savedX = buf.x;
    buf.savedY = buf.base + buf.y;
    buf.savedCharset = this.charsets.gl;
  }

  /** DECRC: restores what `saveCursor` saved. */
  restoreCursor(): void {
    const buf = this.buf;
    buf.x = buf.savedX || 0;
    buf.y = Math.max(buf.savedY - buf.base, 0);
    this.charsets.gl = buf.savedCharset;
    this.restrictCursor();
  }

  // ---------------------------------------------------------------- buffers

  /** Shows the alternate buffer, the cursor carried over. */
  activateAlt(): void {
    this.#rep.forget();
    if (this.buf === this.alt) return;
    const alt = this.alt;
    alt.x = this.normal.x;
    alt.y = this.normal.y;
    this.buf = alt;
  }

  /** Shows the normal buffer again; the alternate one starts blank next time. */
  activateNormal(): void {
    this.#rep.forget();
    if (this.buf === this.normal) return;
    const normal = this.normal;
    normal.x = this.alt.x;
    normal.y = this.alt.y;
    // the alternate buffer starts blank the next time; xterm.js keeps its saved cursor
    const alt = this.alt;
    const { savedX, savedY, savedCharset } = alt;
    alt.reset(this.cols);
    alt.savedX = savedX;
    alt.savedY = savedY;
    alt.savedCharset = savedCharset;
    this.buf = normal;
  }
}
