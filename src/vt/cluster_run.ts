/**
 * Writing a run of one repeated cluster into a row, as REP does: a cell (1 or 2 columns wide,
 * its text in the line's combined slots when it has combining marks) copied `count` times. The
 * cells are copied from a row-long template of the pattern in one native copy, and the texts
 * set with one `fill`, so a run costs no JavaScript loop over the row.
 *
 * @module
 */
import { COMBINED, type Line } from "./line.ts";

/** A template row of one cluster repeated, rebuilt only when the cluster or the width change. */
export class ClusterRun {
  #row = new Uint32Array(0);
  #cell = -1;
  #w = 0;

  /**
   * Writes `count` copies of `cell` (`w` columns each; text `cluster` when the cell is
   * combined) into `line` from column `from` (they must fit: `from + count * w` ≤ columns).
   * The combined slot of every column written is set, the right halves' too (they are read
   * only where a cell has the COMBINED flag).
   */
  write(line: Line, from: number, count: number, cell: number, cluster: string, w: number): void {
    const cells = line.cells;
    const end = from + count * w;
    if (w === 1) cells.fill(cell, from, end);
    else cells.set(this.#template(cell, w, cells.length).subarray(0, end - from), from);
    if (cell & COMBINED) line.fillText(from, end, cluster);
  }

  #template(cell: number, w: number, cols: number): Uint32Array {
    if (cell === this.#cell && w === this.#w && this.#row.length >= cols) return this.#row;
    if (this.#row.length < cols) this.#row = new Uint32Array(cols);
    const row = this.#row;
    row.fill(0);
    for (let p = 0; p < row.length; p += w) row[p] = cell;
    this.#cell = cell;
    this.#w = w;
    return row;
  }
}
