import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Line } from "./line.ts";

// A small seeded PRNG, so a failure can be replayed.
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return (s >>> 16) % n;
  };
}

const slotsOf = (line: Line): string[] => line.combined?.slice() ?? [];

Deno.test("line: fillText leaves exactly its range holding the text, whatever was written before", () => {
  // fillText skips the stores when it knows the slots hold the text already (a flood's recycled
  // rows): every other way the slots change must make it forget that.
  const texts = ["e\u0301", "\u{1f600}\u0301"];
  for (let seed = 1; seed <= 1000; seed++) {
    const rand = prng(seed);
    let cols = 4 + rand(6);
    const line = new Line(cols);
    for (let step = 0; step < 60; step++) {
      const op = rand(8);
      const before = slotsOf(line);
      if (op <= 2) {
        // a run, often the whole row or all but its first column (as REP writes one)
        const from = op === 0 ? 0 : op === 1 ? 1 : rand(cols);
        const end = op === 2 ? from + rand(cols - from + 1) : cols - rand(2);
        const text = texts[rand(texts.length)];
        line.fillText(from, end, text);
        const want = before.length ? before : new Array<string>(cols).fill("");
        want.fill(text, from, end);
        assertEquals(slotsOf(line), want, `seed ${seed} step ${step}: fill [${from}, ${end})`);
        continue;
      }
      if (op === 3) {
        const x = rand(cols);
        line.cells[x] = 0; // an erased cell takes a base, then marks
        line.addToCell(x, [0x65, 0x61][rand(2)], 1);
        for (let m = rand(3); m > 0; m--) line.addToCell(x, 0x300 + rand(2), 1);
      } else if (op === 4) {
        line.moveTexts(rand(cols), rand(cols), rand(cols + 1));
      } else if (op === 5) {
        line.reset(cols);
      } else if (op === 6) {
        line.dropTexts();
      } else if (rand(2)) {
        line.combined = null; // DECALN
      } else {
        cols = 4 + rand(6);
        line.setWidth(cols);
      }
    }
  }
});

Deno.test("line: a row refilled with the text its slots hold keeps it, and a changed slot is refilled", () => {
  const line = new Line(6);
  line.addToCell(0, 0x65, 1);
  line.addToCell(0, 0x301, 1);
  const cluster = line.cellText(0);
  line.fillText(1, 6, cluster);
  line.reset(6);
  line.addToCell(0, 0x65, 1);
  line.addToCell(0, 0x301, 1);
  line.fillText(1, 6, cluster);
  assertEquals(line.combined, new Array(6).fill(cluster));
  line.moveTexts(2, 0, 1);
  line.combined![3] = "stale"; // a test-only write: moveTexts must already have forgotten
  line.fillText(0, 6, cluster);
  assertEquals(line.combined, new Array(6).fill(cluster));
});
