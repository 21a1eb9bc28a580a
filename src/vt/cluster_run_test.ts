import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ClusterRun } from "./cluster_run.ts";
import { COMBINED, Line, NULL_CELL, WIDTH_SHIFT } from "./line.ts";
import { seededRandom } from "./_corpus_test_util.ts";

/** The slow path: the run written cell by cell. */
function writeCells(
  line: Line,
  from: number,
  count: number,
  cell: number,
  text: string,
  w: number,
) {
  for (let k = 0; k < count; k++) {
    const p = from + k * w;
    line.cells[p] = cell;
    if (w === 2) line.cells[p + 1] = 0;
    if (cell & COMBINED) line.combinedSlots()[p] = text;
  }
}

/** What a line shows: its text and widths (slots are read only where a cell is combined). */
function shown(line: Line) {
  const texts = Array.from(line.cells, (_, x) => line.cellText(x));
  return { cells: Array.from(line.cells), texts, text: line.text(false, line.cells.length) };
}

Deno.test("ClusterRun writes what writing the cells one by one writes", () => {
  const run = new ClusterRun(); // one template, reused across clusters and sizes
  const rnd = seededRandom(12);
  const int = (n: number) => Math.floor(rnd() * n);
  const clusters = [
    { cp: 0x78, w: 1, text: "" },
    { cp: 0x4e2d, w: 2, text: "" },
    { cp: 0, w: 1, text: "e\u0301\u0302" },
    { cp: 0, w: 2, text: "中\u0301" },
  ];
  for (let i = 0; i < 500; i++) {
    const cols = 1 + int(40);
    const { cp, w, text } = clusters[int(clusters.length)];
    if (w > cols) continue;
    const cell = (text ? COMBINED : cp) | (w << WIDTH_SHIFT);
    const fast = new Line(cols);
    const slow = new Line(cols);
    // some content first, the same in both
    for (let x = 0; x < cols; x++) {
      if (rnd() < 0.5) continue;
      const c = 0x61 + int(26);
      fast.addToCell(x, c, 1);
      slow.addToCell(x, c, 1);
      if (rnd() < 0.3) {
        fast.addToCell(x, 0x308, 1);
        slow.addToCell(x, 0x308, 1);
      }
    }
    const from = int(cols - w + 1);
    const count = int(Math.floor((cols - from) / w) + 1);
    run.write(fast, from, count, cell, text, w);
    writeCells(slow, from, count, cell, text, w);
    assertEquals(shown(fast), shown(slow), `case ${i}: ${cols} cols, ${count} × w${w} at ${from}`);
  }
  assertEquals(new Line(3).cells[0], NULL_CELL);
});
