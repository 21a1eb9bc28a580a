import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { ScreenBuffer } from "./buffer.ts";
import { COMBINED, Line, NULL_CELL, WIDTH_SHIFT } from "./line.ts";
import { RepMemo } from "./rep_memo.ts";
import { seededRandom } from "./_corpus_test_util.ts";

/** The slow path: the whole row compared with `count` clusters of the pattern, then erased cells. */
function holdsAll(line: Line, count: number, cell: number, w: number, text: string): boolean {
  for (let p = 0; p < line.cells.length; p++) {
    const want = p >= count * w ? NULL_CELL : p % w === 0 ? cell : 0;
    if (line.cells[p] !== want) return false;
    if (want === cell && cell & COMBINED && line.combined?.[p] !== text) return false;
  }
  return true;
}

Deno.test("RepMemo.holds, reading only the columns written since, agrees with a whole-row check", () => {
  const rnd = seededRandom(3);
  const int = (n: number) => Math.floor(rnd() * n);
  let agreedTrue = 0;
  for (let i = 0; i < 3000; i++) {
    const cols = 1 + int(24);
    const w = cols >= 2 && rnd() < 0.4 ? 2 : 1;
    const text = rnd() < 0.4 ? "e\u0301" : "";
    const cell = (text ? COMBINED : (w === 2 ? 0x4e2d : 0x78)) | (w << WIDTH_SHIFT);
    const per = Math.floor(cols / w);
    const line = new Line(cols);
    const known = int(per + 1);
    const fill = (p: number) => {
      line.cells[p] = cell;
      if (w === 2) line.cells[p + 1] = 0;
      if (text) line.combinedSlots()[p] = text;
    };
    for (let k = 0; k < known; k++) fill(k * w);
    const memo = new RepMemo(
      new ScreenBuffer(cols, 1, null),
      line,
      known,
      true,
      0,
      0,
      cell,
      w,
      text,
    );
    // writes since, each noted: more of the pattern, or something else
    for (let k = int(4); k > 0; k--) {
      const at = rnd() < 0.4 ? Math.min(known * w, cols - 1) : int(cols); // often where it ends
      const len = 1 + int(4);
      const to = Math.min(cols, at + len);
      ok(memo.note(line, at, to));
      for (let p = at; p < to; p++) {
        const r = rnd();
        if (r < 0.6 && p % w === 0 && p + w <= to) fill(p);
        else if (r < 0.8) line.cells[p] = NULL_CELL;
        else line.cells[p] = 0x61 | (1 << WIDTH_SHIFT);
      }
    }
    const count = int(per + 1);
    const r = memo.row(line)!;
    const want = holdsAll(line, count, cell, w, text);
    assertEquals(memo.holds(r, count), want, `case ${i}`);
    if (want) agreedTrue++;
  }
  ok(agreedTrue > 150, `only ${agreedTrue} cases held the pattern`);
  const other = new Line(4);
  const memo = new RepMemo(new ScreenBuffer(4, 1, null), new Line(4), 0, true, 0, 0, 1, 1, "");
  ok(!memo.note(other, 0, 1), "a row that is not listed ends the memo");
});
