import { seededRandom } from "./_corpus_test_util.ts";
import { assertLikeXterm } from "./_xterm_test_util.ts";

// Cursor movement of every kind with margins, origin mode, reverse wraparound and pending wraps.
const MOVES = [
  (n: number) => `\x1b[${n}A`,
  (n: number) => `\x1b[${n}B`,
  (n: number) => `\x1b[${n}C`,
  (n: number) => `\x1b[${n}D`,
  (n: number) => `\x1b[${n}E`,
  (n: number) => `\x1b[${n}F`,
  (n: number) => `\x1b[${n}G`,
  (n: number) => `\x1b[${n}d`,
  (n: number) => `\x1b[${n}e`,
  (n: number) => `\x1b[${n}a`,
  (n: number) => `\x1b[${n}\``,
  (n: number) => `\x1b[${n};${n + 2}H`,
  (n: number) => `\x1b[${n}I`,
  (n: number) => `\x1b[${n}Z`,
  (n: number) => `\x1b[${n % 3};${n + 1}r`,
  () => "\x1b[r",
  () => "\b",
  () => "\t",
  () => "\r",
  () => "\n",
  () => "\x1bD",
  () => "\x1bM",
  () => "\x1bE",
  () => "\x1b7",
  () => "\x1b8",
  () => "\x1b[s",
  () => "\x1b[u",
  () => "\x1bH",
  () => "\x1b[3g",
  () => "\x1b[?6h",
  () => "\x1b[?6l",
  () => "\x1b[?45h",
  () => "\x1b[?7l",
  () => "\x1b[?7h",
  (n: number) => "x".repeat(n),
  () => "漢",
];

Deno.test("cursor rules: random moves with margins and modes end where xterm-headless's do", async () => {
  const rnd = seededRandom(4242);
  const int = (n: number) => Math.floor(rnd() * n);
  for (let round = 0; round < 120; round++) {
    const cols = 3 + int(12);
    const rows = 2 + int(6);
    let s = "\x1b[?45l";
    for (let k = 0; k < 25; k++) s += MOVES[int(MOVES.length)]([0, 1, 2, 5, 99][int(5)]);
    await assertLikeXterm(s, cols, rows, `round ${round}: ${JSON.stringify(s)}`);
  }
});
