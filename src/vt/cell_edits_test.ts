import { seededRandom } from "./_corpus_test_util.ts";
import { assertLikeXterm } from "./_xterm_test_util.ts";

// Edits of every kind over rows of narrow, wide and combined cells, cut at every column.
const EDITS = [
  (n: number) => `\x1b[${n}@`,
  (n: number) => `\x1b[${n}P`,
  (n: number) => `\x1b[${n}X`,
  (n: number) => `\x1b[${n % 3}J`,
  (n: number) => `\x1b[${n % 3}K`,
  (n: number) => `\x1b[${n} @`,
  (n: number) => `\x1b[${n} A`,
  (n: number) => `\x1b[${n}'}`,
  (n: number) => `\x1b[${n}'~`,
  () => "\x1b#8",
  () => "\x1b[4h漢",
  () => "\x1b[4l",
];
const TEXT = ["abc", "漢字", "e\u0301", "🚀x", "中\u0301文", " "];

Deno.test("cell edits: random edits of wide and combined cells end as in xterm-headless", async () => {
  const rnd = seededRandom(777);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let round = 0; round < 120; round++) {
    const cols = 4 + int(10);
    const rows = 2 + int(4);
    let s = "";
    for (let y = 1; y <= rows; y++) {
      s += `\x1b[${y};1H`;
      for (let k = 0; k < cols; k++) s += TEXT[int(TEXT.length)];
    }
    if (rnd() < 0.4) s += `\x1b[${1 + int(rows)};${1 + int(rows)}r`;
    for (let k = 0; k < 8; k++) {
      s += `\x1b[${1 + int(rows)};${1 + int(cols + 1)}H`;
      s += EDITS[int(EDITS.length)]([0, 1, 2, 3, 99][int(5)]);
    }
    await assertLikeXterm(s, cols, rows, `round ${round}: ${JSON.stringify(s)}`);
  }
});
