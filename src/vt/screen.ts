/**
 * The screen model the interpreter drives: the normal and alternate buffers, the cursor,
 * printing (autowrap, wide and combining characters, charsets), editing (erase, insert,
 * delete, scroll) and resize. Pure; the parser and mode handling live in `terminal.ts`.
 *
 * @module
 */
import { ScreenBuffer } from "./buffer.ts";
import type { Charset } from "./charsets.ts";
import { ClusterRun } from "./cluster_run.ts";
import { COMBINED, CP_MASK, Line, NULL_CELL, WIDTH_MASK, WIDTH_SHIFT } from "./line.ts";
import type { Modes } from "./modes.ts";
import { RepMemo } from "./rep_memo.ts";
import { charWidth } from "./width.ts";

/**
 * The most rows, and cells, of one logical line that `lastLines` and `logicalScreenLines` join; a
 * longer line keeps its end after a "…". The cell bound (50 rows of 240 columns) keeps a flood
 * at 400 columns from making a string of up to a MB each time the screen is read.
 */
const _MAX_JOINED_ROWS = 50;
const _MAX_JOINED_CELLS = 12_000;

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
  /** The character set in use (GL), null for ASCII. */
  charset: Charset | null = null;
  /** Width of the preceding printed char, 0 when a combining mark would not join it. */
  joinWidth = 0;
  /** Inside a run of printed characters (the wide-char fix-up of `#startRun` is done). */
  inPrintRun = false;
  readonly #scrollbackSize: number;
  // shared with the Terminal, which changes it in place: insert, wraparound, origin…
  readonly #modes: Readonly<Modes>;
  #gsets: (Charset | null)[] = [null, null, null, null];
  // The last REP that ran through every row it could reach, while only rows it lists changed
  // since (every other change clears it): see `RepMemo`, `#repeatInPlace`, `#repeatAgain`.
  #repDone: RepMemo | null = null;
  // The code points of the last REP's text (a flood repeats the same one).
  #repText = "";
  #repCps: number[] = [];
  // Writes a REP's runs of its cluster.
  readonly #run = new ClusterRun();
  #glevel = 0;

  constructor(cols: number, rows: number, scrollback: number, modes: Readonly<Modes>) {
    this.cols = cols;
    this.rows = rows;
    this.#scrollbackSize = scrollback;
    this.#modes = modes;
    this.resetBuffers();
  }

  /**
   * Blank normal and alternate buffers, the normal one shown. The buffers and their lines are
   * reused (RIS in a loop must not allocate a screen of garbage each time).
   */
  resetBuffers(): void {
    this.#repDone = null;
    if (this.normal === undefined) {
      this.normal = new ScreenBuffer(this.cols, this.rows, this.#scrollbackSize);
      this.alt = new ScreenBuffer(this.cols, this.rows, null);
    } else {
      this.normal.reset(this.cols);
      this.alt.reset(this.cols);
    }
    this.buf = this.normal;
  }

  /** G0–G3 back to ASCII, G0 in use. */
  resetCharsets(): void {
    for (let i = 0; i < 4; i++) this.#gsets[i] = null;
    this.#glevel = 0;
    this.charset = null;
  }

  /** Resizes both buffers; content is kept (no reflow), the cursor is clamped. */
  resize(cols: number, rows: number): void {
    this.#repDone = null;
    for (const buf of [this.normal, this.alt]) this.#resizeBuffer(buf, cols, rows);
    this.cols = cols;
    this.rows = rows;
  }

  /** Visible rows of the active buffer, trailing spaces stripped. */
  screenLines(): string[] {
    return this.buf.lines.map((l) => l.text());
  }

  /**
   * Visible rows with soft-wrap continuations joined into one line each (a line of more than
   * `#joinedRows` rows keeps its end, after a "…").
   */
  logicalScreenLines(): string[] {
    const out: string[] = [];
    const lines = this.buf.lines;
    const most = this.#joinedRows();
    let start = 0;
    for (let y = 1; y <= lines.length; y++) {
      if (y < lines.length && lines[y].wrapped) continue;
      const from = Math.max(start, y - most);
      out.push((from > start ? "…" : "") + _joinRows(lines, from, y));
      start = y;
    }
    return out;
  }

  /** How many rows of one logical line are joined at most. */
  #joinedRows(): number {
    return Math.max(1, Math.min(_MAX_JOINED_ROWS, Math.floor(_MAX_JOINED_CELLS / this.cols)));
  }

  /**
   * The last `n` logical lines that have text (not empty after stripping trailing spaces),
   * oldest first, from the normal scrollback followed by the visible screen.
   */
  lastLines(n: number): string[] {
    const sb = this.normal.scrollback;
    const screen = this.buf.lines;
    const total = (sb?.length ?? 0) + screen.length;
    const at = (i: number): Line => i < (sb?.length ?? 0) ? sb!.get(i) : screen[i - sb!.length];
    const out: string[] = [];
    let i = total - 1;
    while (i >= 0 && out.length < n) {
      // one logical line: rows start..i, where rows start+1..i are continuations
      let start = i;
      while (start > 0 && at(start).wrapped) start--;
      // A logical line longer than that (a soft-wrapped flood) keeps its end.
      const from = Math.max(start, i - this.#joinedRows() + 1);
      const rows: Line[] = [];
      for (let k = from; k <= i; k++) rows.push(at(k));
      const text = (from > start ? "…" : "") + _joinRows(rows, 0, rows.length);
      if (text.trim() !== "") out.push(text);
      i = start - 1;
    }
    return out.reverse();
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
  #endPrint(): void {
    const buf = this.buf;
    if (buf.x < this.cols) {
      const cells = buf.lines[buf.y].cells;
      if (cells[buf.x] === 0) cells[buf.x] = NULL_CELL;
    }
  }

  /** Prints bytes [start, end) of `bytes`, all printable ASCII (the fast path). */
  printAscii(bytes: Uint8Array, start: number, end: number): void {
    if (this.charset !== null || this.#modes.insert) {
      for (let i = start; i < end; i++) this.printCp(bytes[i]);
      return;
    }
    const buf = this.buf;
    this.#noteRep(buf.lines[buf.y], buf.x - 1, buf.x + 1); // what #startRun may change
    if (!this.inPrintRun) this.#startRun();
    const cols = this.cols;
    const wrap = this.#modes.wraparound;
    let x = buf.x;
    let line = buf.lines[buf.y];
    let cells = line.cells;
    this.#touch(line);
    let i = start;
    while (i < end) {
      if (x >= cols) {
        if (wrap) {
          this.#wrapDown();
          line = buf.lines[buf.y];
          this.#touch(line);
          cells = line.cells;
          x = 0;
        } else {
          // no autowrap: everything left overwrites the last column
          this.#noteRep(line, cols - 1, cols);
          cells[cols - 1] = bytes[end - 1] | NULL_CELL;
          x = cols;
          break;
        }
      }
      let m = cols - x;
      if (m > end - i) m = end - i;
      this.#noteRep(line, x, x + m + 1); // and what #endPrint may change
      for (let k = 0; k < m; k++) cells[x + k] = bytes[i + k] | NULL_CELL;
      x += m;
      i += m;
    }
    buf.x = x;
    this.joinWidth = 1;
    this.#endPrint();
  }

  /** Prints one code point: charset mapping, width, joining a combining mark, autowrap. */
  printCp(cp: number): void {
    const buf = this.buf;
    // #startRun, joining a mark, the character, #endPrint
    this.#noteRep(buf.lines[buf.y], buf.x - 2, buf.x + 3);
    if (!this.inPrintRun) this.#startRun();
    const cols = this.cols;
    if (cp < 127 && this.charset !== null) {
      const mapped = this.charset[cp];
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
        this.#noteRep(oldRow, oldCol, cols);
        this.#noteRep(line, 0, oldW + 3);
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
        this.#touch(line);
        line.addToCell(buf.x - offset, cp, w);
      }
      return;
    }
    if (this.#modes.insert) {
      this.insertCells(line, buf.x, w - oldW);
      if ((cells[cols - 1] >>> WIDTH_SHIFT) === 2) cells[cols - 1] = NULL_CELL;
    }
    if (buf.x >= cols) return; // a zero-width char at a pending wrap: nowhere to put it
    this.#touch(line);
    cells[buf.x++] = cp | (w << WIDTH_SHIFT);
    while (w-- > 1 && buf.x < cols) cells[buf.x++] = 0;
    this.#endPrint();
  }

  /** Autowrap: move to the next row, scrolling at the bottom margin; marks it wrapped. */
  #wrapDown(): void {
    const buf = this.buf;
    // on the last row below the margins xterm.js flags the row it stays on
    if (this.#down(true) || buf.y !== buf.scrollBottom) {
      const line = buf.lines[buf.y];
      line.wrapped = true;
      this.#touch(line);
    }
  }

  /** Columns [from, to) of `line` change: the REP memo follows, or is forgotten. */
  #noteRep(line: Line, from: number, to: number): void {
    if (this.#repDone !== null && !this.#repDone.note(line, from, to)) this.#repDone = null;
  }

  /** `line` (of the buffer shown) may now hold content: RIS must erase it. */
  #touch(line: Line): void {
    if (line.dirty) return;
    line.dirty = true;
    this.buf.touched(line);
  }

  /**
   * One row down; at the bottom margin the region scrolls up instead, its new blank row
   * flagged `wrapped`. True when the cursor moved (false: scrolled, or stuck on the last row).
   */
  #down(wrapped: boolean): boolean {
    const buf = this.buf;
    if (buf.y === buf.scrollBottom) {
      this.#scrollUp(wrapped);
      return false;
    }
    if (buf.y >= this.rows - 1) return false;
    this.#repDone = null;
    buf.y++;
    return true;
  }

  // ---------------------------------------------------------------- buffer operations

  /** A blank line, reusing `recycled` when it is given. */
  #blank(recycled: Line | null | undefined): Line {
    if (recycled) {
      recycled.reset(this.cols);
      return recycled;
    }
    return new Line(this.cols);
  }

  /** Scrolls the region up one line (LF/IND at the bottom margin, autowrap). */
  #scrollUp(wrapped: boolean): void {
    const buf = this.buf;
    const top = buf.scrollTop;
    const bottom = buf.scrollBottom;
    let line: Line;
    let out: Line; // the row that leaves the region
    if (top === 0 && buf.scrollback !== null) {
      out = buf.lines.shift()!;
      // a row of the REP memo's pattern: its count of combined cells is known
      const known = this.#repDone?.patternCells(out, buf, top, bottom);
      line = this.#blank(
        buf.scrollback.push(out, known === undefined ? known : out.combinedBytes(known)),
      );
    } else {
      out = buf.lines.splice(top, 1)[0];
      line = this.#blank(out);
    }
    line.wrapped = wrapped;
    if (wrapped) this.#touch(line);
    if (bottom === this.rows - 1) buf.lines.push(line);
    else buf.lines.splice(bottom, 0, line);
    const done = this.#repDone;
    if (done !== null) {
      // the rows the last REP left all hold its pattern but these few: follow the scroll
      if (
        !done.scrolls || done.buf !== buf || done.top !== top || done.bottom !== bottom ||
        !done.scrolled(out, line)
      ) this.#repDone = null;
    }
  }

  /**
   * Removes `n` lines at row `at` and inserts as many blank lines at row `insertAt`, as if one
   * line were moved `n` times (`n` at most the rows between them, plus one). Above the insertion
   * point the removed lines are rows `at`…`at+n-1`, below it `at-n+1`…`at`; they are reused as
   * the blank ones, all in one splice, so a huge count on a huge region costs O(rows).
   */
  shiftLines(at: number, insertAt: number, n: number): void {
    this.#repDone = null;
    const buf = this.buf;
    if (buf.blank) return; // blank lines moved and blanked: the same blank screen
    const lines = buf.lines;
    if (at === insertAt) {
      this.#blank(lines[at]);
      return;
    }
    const up = at < insertAt;
    if (n > Math.abs(insertAt - at)) {
      // every row between them goes: blank them in place
      const from = Math.min(at, insertAt);
      const to = Math.max(at, insertAt);
      for (let y = from; y <= to; y++) this.#blank(lines[y]);
      if (from === 0 && to === this.rows - 1) buf.markBlank();
      return;
    }
    const removed = lines.splice(up ? at : at - n + 1, n);
    for (const line of removed) this.#blank(line);
    lines.splice(up ? insertAt - n + 1 : insertAt, 0, ...removed);
  }

  /** ICH on `line`: inserts `n` blank cells at `pos`, shifting the rest right. */
  insertCells(line: Line, pos: number, n: number): void {
    this.#repDone = null;
    if (!line.dirty) return; // every cell erased: shifting erased cells changes nothing
    const cells = line.cells;
    const len = cells.length;
    pos %= len;
    if (pos && (cells[pos - 1] >>> WIDTH_SHIFT) === 2) cells[pos - 1] = NULL_CELL;
    if (n < len - pos) {
      cells.copyWithin(pos + n, pos, len - n);
      line.moveTexts(pos + n, pos, len - n);
      cells.fill(NULL_CELL, pos, pos + n);
    } else {
      cells.fill(NULL_CELL, pos, len);
    }
    if ((cells[len - 1] >>> WIDTH_SHIFT) === 2) cells[len - 1] = NULL_CELL;
  }

  /** DCH on `line`: deletes `n` cells at `pos`, shifting the rest left. */
  deleteCells(line: Line, pos: number, n: number): void {
    this.#repDone = null;
    if (!line.dirty) return;
    const cells = line.cells;
    const len = cells.length;
    pos %= len;
    if (n < len - pos) {
      cells.copyWithin(pos, pos + n, len);
      line.moveTexts(pos, pos + n, len);
      cells.fill(NULL_CELL, len - n, len);
    } else {
      cells.fill(NULL_CELL, pos, len);
    }
    if (pos && (cells[pos - 1] >>> WIDTH_SHIFT) === 2) cells[pos - 1] = NULL_CELL;
    if (cells[pos] === 0) cells[pos] = NULL_CELL;
  }

  /** Erases cells [start, end) of row `y`, fixing wide characters cut at either edge. */
  eraseCells(y: number, start: number, end: number, clearWrap: boolean): void {
    this.#repDone = null;
    const line = this.buf.lines[y];
    if (!line.dirty) return; // erased already, and not wrapped
    const cells = line.cells;
    const len = cells.length;
    if (start && (cells[start - 1] >>> WIDTH_SHIFT) === 2) cells[start - 1] = NULL_CELL;
    if (end < len && end > 0 && (cells[end - 1] >>> WIDTH_SHIFT) === 2) cells[end] = NULL_CELL;
    if (start < end) cells.fill(NULL_CELL, start, Math.min(end, len));
    if (clearWrap) line.wrapped = false;
  }

  #resetLine(y: number): void {
    this.#repDone = null;
    this.buf.lines[y].reset(this.cols);
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

  /** Moves the cursor to (x, y), relative to the top margin in origin mode, clamped. */
  setCursor(x: number, y: number): void {
    const buf = this.buf;
    buf.x = x;
    buf.y = this.#modes.origin ? buf.scrollTop + y : y;
    this.restrictCursor();
  }

  /** Moves the cursor by (dx, dy); like xterm.js, adds the top margin in origin mode. */
  moveCursor(dx: number, dy: number): void {
    this.restrictCursor();
    this.setCursor(this.buf.x + dx, this.buf.y + dy);
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

  /** RI: previous row, scrolling down at the top margin. */
  reverseIndex(): void {
    this.restrictCursor();
    const buf = this.buf;
    if (buf.y === buf.scrollTop) {
      this.shiftLines(buf.scrollBottom, buf.scrollTop, 1);
    } else {
      buf.y--;
      this.restrictCursor();
    }
  }

  /** BS, wrapping back over soft-wrapped rows in reverse-wraparound mode. */
  backspace(): void {
    this.#repDone = null;
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
    buf.savedCharset = this.charset;
  }

  /** DECRC: restores what `saveCursor` saved. */
  restoreCursor(): void {
    const buf = this.buf;
    buf.x = buf.savedX || 0;
    buf.y = Math.max(buf.savedY - buf.base, 0);
    this.charset = buf.savedCharset;
    this.restrictCursor();
  }

  /** Locking shift: G`level` becomes the charset in use. */
  setGLevel(level: number): void {
    this.#glevel = level;
    this.charset = this.#gsets[level];
  }

  /** SCS: designates `charset` as G`g`. */
  setGCharset(g: number, charset: Charset | null): void {
    this.#gsets[g] = charset;
    if (this.#glevel === g) this.charset = charset;
  }

  /** DECALN: fills the screen with `E`. */
  screenAlignment(): void {
    this.#repDone = null;
    this.setCursor(0, 0);
    const buf = this.buf;
    for (let y = buf.y; y < this.rows; y++) {
      const line = buf.lines[y];
      line.cells.fill(_E | NULL_CELL);
      line.combined = null;
      line.wrapped = false;
      this.#touch(line);
    }
    this.setCursor(0, 0);
  }

  /** ED / DECSED with parameter `mode`. */
  eraseInDisplay(mode: number): void {
    this.restrictCursor(this.cols);
    const buf = this.buf;
    const cols = this.cols;
    switch (mode) {
      case 0:
        this.eraseCells(buf.y, buf.x, cols, buf.x === 0);
        for (let y = buf.y + 1; y < this.rows; y++) this.#resetLine(y);
        return;
      case 1: {
        this.eraseCells(buf.y, 0, buf.x + 1, true);
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
        this.#repDone = null;
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
    if (mode === 0) this.eraseCells(buf.y, buf.x, this.cols, buf.x === 0);
    else if (mode === 1) this.eraseCells(buf.y, 0, buf.x + 1, false);
    else if (mode === 2) this.eraseCells(buf.y, 0, this.cols, true);
  }

  /**
   * REP: prints the preceding character (with its combining marks) `n` more times. The cost is
   * bounded by a screenful whatever `n` is: see {@link repeatCount} for why a smaller count ends
   * in the same screen, and the rest of each row is filled in one go.
   */
  repeat(n: number): void {
    const w = this.joinWidth;
    if (!w) return;
    const buf = this.buf;
    const x = buf.x - w;
    if (x < 0 || x >= this.cols) return;
    const text = buf.lines[buf.y].cellText(x);
    if (text === "") return;
    if (text !== this.#repText) {
      this.#repText = text;
      this.#repCps = Array.from(text, (c) => c.codePointAt(0)!);
    }
    const cps = this.#repCps;
    const cols = this.cols;
    const wrap = this.#modes.wraparound;
    let left = repeatCount(n, cols, this.rows, w, wrap);
    const bulk = wrap && !this.#modes.insert && w <= cols;
    const per = Math.max(1, Math.floor(cols / w));
    const saturates = bulk && left >= per * (this.rows + 4);
    if (saturates && this.#repDone !== null && this.#repeatInPlace(left)) return;
    while (left > 0) {
      // one cluster the ordinary way (it wraps and scrolls as needed)…
      for (const cp of cps) this.printCp(cp);
      left--;
      if (!bulk || left === 0) continue;
      // …then as many copies of its cell as fit in the rest of the row
      const line = buf.lines[buf.y];
      const cells = line.cells;
      const at = buf.x - w;
      const cell = cells[at];
      if (at < 0 || (cell >>> WIDTH_SHIFT) !== w || (w === 2 && cells[at + 1] !== 0)) continue;
      let m = Math.floor((cols - buf.x) / w);
      if (m > left) m = left;
      if (m === 0) continue;
      const cluster = cell & COMBINED ? line.combinedSlots()[at] : "";
      this.#touch(line);
      this.#noteRep(line, buf.x, buf.x + m * w + 1);
      this.#run.write(line, buf.x, m, cell, cluster, w);
      buf.x += m * w;
      left -= m;
      this.#endPrint();
      if (
        saturates && left > 0 && this.#repDone && this.#repeatAgain(line, cell, cluster, w, left)
      ) {
        left = 0;
      }
    }
    const scrolls = buf.y === buf.scrollBottom;
    if (saturates && this.#repDone === null && (scrolls || buf.y === this.rows - 1)) {
      const line = buf.lines[buf.y];
      const at = buf.x - w;
      const cell = at >= 0 ? line.cells[at] : 0;
      const cluster = cell & COMBINED ? line.combined![at] : "";
      // the cursor row holds the clusters left of the cursor (a last row below the margins,
      // rewritten in place, a whole row of them)
      const known = scrolls ? Math.floor(buf.x / w) : per;
      const { scrollTop: top, scrollBottom: bottom } = buf;
      this.#repDone = new RepMemo(buf, line, known, scrolls, top, bottom, cell, w, cluster);
    }
  }

  /**
   * A REP through every row it can reach (`left` clusters), when the last one left every such
   * row holding this pattern and only more of it was printed since (checked in the columns
   * written since, see `RepMemo.holds`): every row but the cursor row holds the pattern already,
   * so only where the cursor row's clusters end, and the cursor, change. False when the state
   * does not fit (the REP then runs the ordinary way).
   */
  #repeatInPlace(left: number): boolean {
    const done = this.#repDone!;
    const buf = this.buf;
    const y = buf.y;
    const line = buf.lines[y];
    const w = done.w;
    const cursor = done.row(line);
    if (
      cursor === undefined || done.buf !== buf || this.joinWidth !== w || buf.x % w !== 0 ||
      done.top !== buf.scrollTop || done.bottom !== buf.scrollBottom ||
      done.scrolls !== (y === buf.scrollBottom) || (!done.scrolls && y !== this.rows - 1)
    ) return false;
    const per = Math.max(1, Math.floor(this.cols / w));
    const c = buf.x / w;
    // the cursor row holds the clusters left of the cursor (below the margins, a whole row)
    for (const r of done.rows) {
      if (!done.holds(r, r === cursor && done.scrolls ? c : per)) return false;
    }
    const last = (c + left) % per || per;
    for (const r of done.rows) {
      r.line.wrapped = true; // every row it reaches was reached by autowrap
      this.#touch(r.line);
    }
    if (done.scrolls && last > c) {
      this.#run.write(line, c * w, last - c, done.cell, done.cluster, w);
    } else if (done.scrolls && last < c) line.cells.fill(NULL_CELL, last * w, c * w);
    buf.x = last * w;
    this.#endPrint();
    this.inPrintRun = true;
    done.restart(line, done.scrolls ? last : per);
    return true;
  }

  /**
   * The rest of a REP whose row is complete and that runs through every row it can reach
   * (`left` clusters more), when the last REP left every row it could reach holding this same
   * pattern but a few (`RepMemo.rows`, the cursor row among them) and nothing else changed
   * since: only those rows change. At the bottom margin they scroll out in order (to the
   * scrollback, where the full repeat would push them among rows of the pattern), pattern rows
   * take their places and a fresh last row the last clusters; on a last row below the margins
   * (no scrolling) the row is rewritten. False when the state does not fit.
   */
  #repeatAgain(line: Line, cell: number, cluster: string, w: number, left: number): boolean {
    const buf = this.buf;
    const done = this.#repDone!;
    const y = buf.y;
    if (
      done.buf !== buf || done.row(line) === undefined || done.cell !== cell || done.w !== w ||
      done.cluster !== cluster || done.top !== buf.scrollTop || done.bottom !== buf.scrollBottom ||
      done.scrolls !== (y === buf.scrollBottom) || (!done.scrolls && y !== this.rows - 1)
    ) return false;
    const per = Math.max(1, Math.floor(this.cols / w));
    const last = left % per || per;
    if (!done.scrolls) {
      this.#fillPattern(line, cell, cluster, w, per);
      buf.x = last * w;
      this.#endPrint();
      done.restart(line, per);
      return true;
    }
    const listed = done.rows.map((r) => ({ r, y: buf.lines.indexOf(r.line) }));
    listed.sort((a, b) => a.y - b.y);
    if (listed[0].y < buf.scrollTop || listed[listed.length - 1].y !== y) return false;
    const sb = buf.scrollTop === 0 ? buf.scrollback : null;
    for (const { r, y: ry } of listed) {
      const old = r.line;
      if (done.holds(r, per)) {
        // a row of the pattern already: the scrollback may miss it (see repeatCount)
        old.wrapped = true;
        if (ry === y) old.cells.fill(NULL_CELL, last * w); // the pattern ends between clusters
        continue;
      }
      const row = this.#blank(sb !== null ? sb.push(old) : old);
      this.#fillPattern(row, cell, cluster, w, ry === y ? last : per);
      buf.lines[ry] = row;
    }
    buf.x = last * w;
    this.#endPrint();
    done.restart(buf.lines[y], last);
    return true;
  }

  /** Writes `count` clusters of `cell` (text `cluster`) from column 0; marks the row wrapped. */
  #fillPattern(row: Line, cell: number, cluster: string, w: number, count: number): void {
    row.wrapped = true;
    this.#touch(row);
    this.#run.write(row, 0, count, cell, cluster, w);
  }

  /** Shows the alternate buffer, the cursor carried over. */
  activateAlt(): void {
    this.#repDone = null;
    if (this.buf === this.alt) return;
    const alt = this.alt;
    alt.x = this.normal.x;
    alt.y = this.normal.y;
    this.buf = alt;
  }

  /** Shows the normal buffer again; the alternate one starts blank next time. */
  activateNormal(): void {
    this.#repDone = null;
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

  #resizeBuffer(buf: ScreenBuffer, cols: number, rows: number): void {
    const oldRows = this.rows;
    if (cols !== this.cols) {
      const resizeLine = (line: Line) => {
        line.setWidth(cols);
        const cells = line.cells;
        if ((cells[cols - 1] >>> WIDTH_SHIFT) === 2) cells[cols - 1] = NULL_CELL;
      };
      buf.lines.forEach(resizeLine);
      buf.resizeTabs(cols);
    }
    if (rows > oldRows) {
      for (let k = oldRows; k < rows; k++) {
        // cursor on the last row and scrollback available: pull a line back down
        const pulled = buf.y === buf.lines.length - 1 ? buf.scrollback?.pop() : undefined;
        if (pulled) {
          if (pulled.cells.length !== cols) pulled.setWidth(cols);
          if (pulled.dirty) buf.markNotBlank();
          buf.lines.unshift(pulled);
          buf.y++;
          buf.savedY = Math.max(0, buf.savedY);
        } else buf.lines.push(new Line(cols));
      }
    } else if (rows < oldRows) {
      for (let k = oldRows; k > rows; k--) {
        if (buf.lines.length - 1 > buf.y) buf.lines.pop();
        else {
          const top = buf.lines.shift()!;
          buf.scrollback?.push(top);
          buf.y--;
        }
      }
    }
    buf.x = Math.min(buf.x, cols - 1);
    buf.y = Math.max(0, Math.min(buf.y, rows - 1));
    buf.savedX = Math.min(buf.savedX, cols - 1);
    buf.scrollTop = 0;
    buf.scrollBottom = rows - 1;
  }
}

/** Text of rows [start, end) joined: all but the last row untrimmed, trailing spaces stripped. */
function _joinRows(lines: Line[], start: number, end: number): string {
  let text = "";
  for (let k = start; k < end; k++) {
    const line = lines[k];
    text += k < end - 1 ? line.text(false, line.cells.length) : line.text();
  }
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) === 0x20) n--;
  return text.slice(0, n);
}

/**
 * How many times REP must really print a `w`-wide cluster so the screen ends as after `n`
 * (xterm prints all `n`). With autowrap, once the repeat has run through `rows + 4` rows from
 * its start (the first partial row, then at most every row down to the bottom and a full
 * scroll of the region), every row it can reach holds the same pattern, so any longer repeat
 * ends in the same screen as one a whole row (`per` clusters) shorter: the count is reduced by
 * whole rows, which keeps the cursor column. Only the scrollback differs: it receives at most
 * `rows + 4` rows of the pattern where xterm fills it. Without autowrap every print past the
 * last column overwrites the same cells, so `cols + 2` prints reach the final state.
 */
export function repeatCount(n: number, cols: number, rows: number, w: number, wrap: boolean) {
  if (!wrap) return Math.min(n, cols + 2);
  const per = Math.max(1, Math.floor(cols / w));
  const limit = per * (rows + 4);
  return n <= limit + per ? n : limit + ((n - limit) % per);
}
