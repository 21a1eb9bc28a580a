/**
 * What the screen remembers of the last REP that ran through every row it could reach: every
 * such row holds its pattern (one cluster repeated), but a few rows, which are listed with what
 * each held when it was listed and the columns written in it since. The screen notes every write
 * to a listed row (`note`) and forgets the memo on any other change, so a flood of huge REPs can
 * check that only the pattern was printed since in time linear in what was printed, not in the
 * row or the screen (see `Screen.repeat`).
 *
 * @module
 */
import type { ScreenBuffer } from "./buffer.ts";
import { COMBINED, type Line, NULL_CELL } from "./line.ts";

/** How many rows other than its pattern rows the memo lists before it is forgotten. */
export const REP_OTHER_ROWS = 4;

/** A listed row: it held `known` clusters from column 0, then erased cells; written since in [from, to). */
export interface RepRow {
  line: Line;
  /** Clusters of the pattern from column 0 when listed, erased cells after them. */
  known: number;
  /** First column written since (a large number when none). */
  from: number;
  /** End of the columns written since (-1 when none). */
  to: number;
}

/** The memo of the last REP that reached every row (see the module doc). */
export class RepMemo {
  /** The rows that may differ from the pattern: the cursor row and rows scrolled in since. */
  rows: RepRow[];

  constructor(
    /** The buffer it ran in. */
    readonly buf: ScreenBuffer,
    /** The cursor row. */
    line: Line,
    /** Clusters the cursor row holds from column 0 (erased cells after). */
    known: number,
    /** It ended on the bottom margin (true) or on a last row below the margins (false). */
    readonly scrolls: boolean,
    /** The margins it ran in. */
    readonly top: number,
    readonly bottom: number,
    /** The repeated cell, its width and its text (for a combined cell). */
    readonly cell: number,
    readonly w: number,
    readonly cluster: string,
  ) {
    this.rows = [RepMemo.#row(line, known)];
  }

  static #row(line: Line, known: number): RepRow {
    return { line, known, from: Number.MAX_SAFE_INTEGER, to: -1 };
  }

  /** The listed row of `line`, or undefined. */
  row(line: Line): RepRow | undefined {
    const rows = this.rows;
    for (let i = rows.length - 1; i >= 0; i--) if (rows[i].line === line) return rows[i];
    return undefined;
  }

  /**
   * The number of combined cells of `line` when it is a row of the pattern that is not listed
   * (so it holds the whole pattern), in `buf` with these margins; else undefined.
   */
  patternCells(line: Line, buf: ScreenBuffer, top: number, bottom: number): number | undefined {
    if (buf !== this.buf || !this.scrolls || top !== this.top || bottom !== this.bottom) {
      return undefined;
    }
    if (this.row(line) !== undefined) return undefined;
    return this.cell & COMBINED ? Math.max(1, Math.floor(line.cells.length / this.w)) : 0;
  }

  /** Notes writes to columns [from, to) of `line`; false when `line` is not listed. */
  note(line: Line, from: number, to: number): boolean {
    const r = this.row(line);
    if (r === undefined) return false;
    if (from < r.from) r.from = from;
    if (to > r.to) r.to = to;
    return true;
  }

  /**
   * The region scrolled up one row: `out` left it, the blank `added` came in at the bottom.
   * False when the memo no longer holds (too many rows listed).
   */
  scrolled(out: Line, added: Line): boolean {
    const gone = this.rows.findIndex((r) => r.line === out);
    if (gone >= 0) this.rows.splice(gone, 1);
    else if (this.rows.length >= REP_OTHER_ROWS) return false;
    this.rows.push(RepMemo.#row(added, 0));
    return true;
  }

  /** Only `line` is listed from now on, holding `known` clusters. */
  restart(line: Line, known: number): void {
    this.rows = [RepMemo.#row(line, known)];
  }

  /**
   * Whether the listed row `r` holds exactly `count` clusters of the pattern from column 0 and
   * erased cells after. Only the columns written since it was listed are read: the others hold
   * what it held then.
   */
  holds(r: RepRow, count: number): boolean {
    const { cell, w, cluster } = this;
    const cells = r.line.cells;
    const end = count * w;
    const knownEnd = r.known * w;
    const from = Math.max(0, r.from);
    const to = Math.min(cells.length, r.to);
    // the columns where what it held differs from what it must hold were all written since
    if (knownEnd !== end && (from > Math.min(knownEnd, end) || to < Math.max(knownEnd, end))) {
      return false;
    }
    const slots = cell & COMBINED ? r.line.combined : null;
    for (let p = from; p < to; p++) {
      const want = p >= end ? NULL_CELL : p % w === 0 ? cell : 0;
      if (cells[p] !== want) return false;
      if (want === cell && slots !== null && slots[p] !== cluster) return false;
    }
    return !(cell & COMBINED) || end === 0 || slots !== null;
  }
}
