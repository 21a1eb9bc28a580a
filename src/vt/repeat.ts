/**
 * REP (`CSI n b`: print the preceding character n more times) at a cost bounded by what changes,
 * whatever n: a count reduced by whole rows ({@link repeatCount}), the rest of each row filled in
 * one go (`ClusterRun`), and, in a flood of huge REPs, the memo of the last one (`RepMemo`) that
 * lets the next one change only the cursor row. The screen tells it of every change it makes
 * (`note`, `forget`, `scrolled`) so the memo is forgotten the moment it could be wrong.
 *
 * @module
 */
import type { ScreenBuffer } from "./buffer.ts";
import { ClusterRun } from "./cluster_run.ts";
import { COMBINED, type Line, NULL_CELL, WIDTH_SHIFT } from "./line.ts";
import type { Modes } from "./modes.ts";
import { RepMemo } from "./rep_memo.ts";
import type { Screen } from "./screen.ts";

/** The REP of one screen, and what it remembers of the last one. */
export class Repeater {
  readonly #screen: Screen;
  readonly #modes: Readonly<Modes>;
  // The last REP that ran through every row it could reach, while only rows it lists changed
  // since (every other change clears it): see `RepMemo`, `#repeatInPlace`, `#repeatAgain`.
  #memo: RepMemo | null = null;
  // The code points of the last REP's text (a flood repeats the same one).
  #text = "";
  #cps: number[] = [];
  // Writes a REP's runs of its cluster.
  readonly #run = new ClusterRun();

  constructor(screen: Screen, modes: Readonly<Modes>) {
    this.#screen = screen;
    this.#modes = modes;
  }

  /** The screen changed in a way the memo does not follow: forget it. */
  forget(): void {
    this.#memo = null;
  }

  /** Columns [from, to) of `line` change: the memo follows, or is forgotten. */
  note(line: Line, from: number, to: number): void {
    if (this.#memo !== null && !this.#memo.note(line, from, to)) this.#memo = null;
  }

  /**
   * The combined-cell count of `out`, about to leave `buf` for its scrollback from a region with
   * these margins, when the memo knows it (a row of its pattern); else undefined.
   */
  patternCells(out: Line, buf: ScreenBuffer, top: number, bottom: number): number | undefined {
    return this.#memo?.patternCells(out, buf, top, bottom);
  }

  /** `buf`'s region [top, bottom] scrolled up one row: `out` left, the blank `added` came in. */
  scrolled(buf: ScreenBuffer, top: number, bottom: number, out: Line, added: Line): void {
    const memo = this.#memo;
    if (memo === null) return;
    // the rows the last REP left all hold its pattern but these few: follow the scroll
    if (
      !memo.scrolls || memo.buf !== buf || memo.top !== top || memo.bottom !== bottom ||
      !memo.scrolled(out, added)
    ) this.#memo = null;
  }

  /**
   * REP: prints the preceding character (with its combining marks) `n` more times. The cost is
   * bounded by a screenful whatever `n` is: see {@link repeatCount} for why a smaller count ends
   * in the same screen, and the rest of each row is filled in one go.
   */
  repeat(n: number): void {
    const s = this.#screen;
    const w = s.joinWidth;
    if (!w) return;
    const buf = s.buf;
    const x = buf.x - w;
    if (x < 0 || x >= s.cols) return;
    const text = buf.lines[buf.y].cellText(x);
    if (text === "") return;
    if (text !== this.#text) {
      this.#text = text;
      this.#cps = Array.from(text, (c) => c.codePointAt(0)!);
    }
    const cps = this.#cps;
    const cols = s.cols;
    const wrap = this.#modes.wraparound;
    let left = repeatCount(n, cols, s.rows, w, wrap);
    const bulk = wrap && !this.#modes.insert && w <= cols;
    const per = Math.max(1, Math.floor(cols / w));
    const saturates = bulk && left >= per * (s.rows + 4);
    if (saturates && this.#memo !== null && this.#repeatInPlace(left)) return;
    while (left > 0) {
      // one cluster the ordinary way (it wraps and scrolls as needed)…
      for (const cp of cps) s.printCp(cp);
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
      s.touch(line);
      this.note(line, buf.x, buf.x + m * w + 1);
      this.#run.write(line, buf.x, m, cell, cluster, w);
      buf.x += m * w;
      left -= m;
      s.endPrint();
      if (
        saturates && left > 0 && this.#memo && this.#repeatAgain(line, cell, cluster, w, left)
      ) {
        left = 0;
      }
    }
    const scrolls = buf.y === buf.scrollBottom;
    if (saturates && this.#memo === null && (scrolls || buf.y === s.rows - 1)) {
      const line = buf.lines[buf.y];
      const at = buf.x - w;
      const cell = at >= 0 ? line.cells[at] : 0;
      const cluster = cell & COMBINED ? line.combined![at] : "";
      // the cursor row holds the clusters left of the cursor (a last row below the margins,
      // rewritten in place, a whole row of them)
      const known = scrolls ? Math.floor(buf.x / w) : per;
      const { scrollTop: top, scrollBottom: bottom } = buf;
      this.#memo = new RepMemo(buf, line, known, scrolls, top, bottom, cell, w, cluster);
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
    const s = this.#screen;
    const done = this.#memo!;
    const buf = s.buf;
    const y = buf.y;
    const line = buf.lines[y];
    const w = done.w;
    const cursor = done.row(line);
    if (
      cursor === undefined || done.buf !== buf || s.joinWidth !== w || buf.x % w !== 0 ||
      done.top !== buf.scrollTop || done.bottom !== buf.scrollBottom ||
      done.scrolls !== (y === buf.scrollBottom) || (!done.scrolls && y !== s.rows - 1)
    ) return false;
    const per = Math.max(1, Math.floor(s.cols / w));
    const c = buf.x / w;
    // the cursor row holds the clusters left of the cursor (below the margins, a whole row)
    for (const r of done.rows) {
      if (!done.holds(r, r === cursor && done.scrolls ? c : per)) return false;
    }
    const last = (c + left) % per || per;
    for (const r of done.rows) {
      r.line.wrapped = true; // every row it reaches was reached by autowrap
      s.touch(r.line);
    }
    if (done.scrolls && last > c) {
      this.#run.write(line, c * w, last - c, done.cell, done.cluster, w);
    } else if (done.scrolls && last < c) line.cells.fill(NULL_CELL, last * w, c * w);
    buf.x = last * w;
    s.endPrint();
    s.inPrintRun = true;
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
    const s = this.#screen;
    const buf = s.buf;
    const done = this.#memo!;
    const y = buf.y;
    if (
      done.buf !== buf || done.row(line) === undefined || done.cell !== cell || done.w !== w ||
      done.cluster !== cluster || done.top !== buf.scrollTop || done.bottom !== buf.scrollBottom ||
      done.scrolls !== (y === buf.scrollBottom) || (!done.scrolls && y !== s.rows - 1)
    ) return false;
    const per = Math.max(1, Math.floor(s.cols / w));
    const last = left % per || per;
    if (!done.scrolls) {
      this.#fillPattern(line, cell, cluster, w, per);
      buf.x = last * w;
      s.endPrint();
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
      const row = s.blank(sb !== null ? sb.push(old) : old);
      this.#fillPattern(row, cell, cluster, w, ry === y ? last : per);
      buf.lines[ry] = row;
    }
    buf.x = last * w;
    s.endPrint();
    done.restart(buf.lines[y], last);
    return true;
  }

  /** Writes `count` clusters of `cell` (text `cluster`) from column 0; marks the row wrapped. */
  #fillPattern(row: Line, cell: number, cluster: string, w: number, count: number): void {
    row.wrapped = true;
    this.#screen.touch(row);
    this.#run.write(row, 0, count, cell, cluster, w);
  }
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
export function repeatCount(
  n: number,
  cols: number,
  rows: number,
  w: number,
  wrap: boolean,
): number {
  if (!wrap) return Math.min(n, cols + 2);
  const per = Math.max(1, Math.floor(cols / w));
  const limit = per * (rows + 4);
  return n <= limit + per ? n : limit + ((n - limit) % per);
}
