/**
 * The screen model the interpreter drives: the normal and alternate buffers and which one is
 * shown, printing (autowrap, wide and combining characters, charsets), line feeds and scrolling
 * (margins, the scrollback), resize. Its parts, one concept each: the cursor rules (`cursor.ts`),
 * cell edits (`cell_edits.ts`), REP (`repeat.ts`); reading it as text is `screen_text.ts`. Every
 * operation is named for what it does (`insertLines`, `setScrollRegion`, `cursor.up`…): the
 * handlers of `csi.ts`, `esc.ts` and `controls.ts` only read their parameters and call one, and
 * clamping is the screen's. Pure.
 *
 * @module
 */
import { ScreenBuffer } from "./buffer.ts";
import { CellEdits } from "./cell_edits.ts";
import { Charsets } from "./charsets.ts";
import { Cursor } from "./cursor.ts";
import { Line, NULL_CELL, WIDTH_MASK, WIDTH_SHIFT } from "./line.ts";
import type { Modes } from "./modes.ts";
import { Repeater } from "./repeat.ts";
import { charWidth } from "./width.ts";

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
  /** The cursor rules (the position is the buffer's). */
  readonly cursor: Cursor;
  /** Erasing, inserting and deleting cells. */
  readonly edits: CellEdits;
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
    this.cursor = new Cursor(this, modes, this.#rep);
    this.edits = new CellEdits(this, this.#rep);
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
    this.cursor.restrict();
    this.#down(false);
    this.cursor.restrict();
  }

  /** NEL: first column of the next row, scrolling at the bottom margin. */
  nextLine(): void {
    this.buf.x = 0;
    this.index();
  }

  /** RI: previous row, scrolling down at the top margin. */
  reverseIndex(): void {
    this.cursor.restrict();
    const buf = this.buf;
    if (buf.y === buf.scrollTop) {
      this.#shiftLines(buf.scrollBottom, buf.scrollTop, 1);
    } else {
      buf.y--;
      this.cursor.restrict();
    }
  }

  /** Whether the cursor row is inside the scroll region (IL, DL, SL, SR… act only there). */
  #inRegion(): boolean {
    const buf = this.buf;
    return buf.y >= buf.scrollTop && buf.y <= buf.scrollBottom;
  }

  /** IL: `n` blank lines at the cursor row, the region below moving down; column 0. */
  insertLines(n: number): void {
    this.cursor.restrict();
    if (!this.#inRegion()) return;
    const buf = this.buf;
    this.#shiftLines(buf.scrollBottom, buf.y, Math.min(n, buf.scrollBottom - buf.y + 1));
    buf.x = 0;
  }

  /** DL: deletes `n` lines at the cursor row, the region below moving up; column 0. */
  deleteLines(n: number): void {
    this.cursor.restrict();
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
    this.cursor.set(0, 0);
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
