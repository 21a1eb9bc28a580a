import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Terminal, type TerminalSnapshot } from "./terminal.ts";
import { repeatCount } from "./repeat.ts";
import { seededRandom } from "./_corpus_test_util.ts";
import { generateStream } from "./_stream_gen_test_util.ts";
import { ELEVEN_MARKS } from "./_hostile_streams_test_util.ts";

const CLUSTERS = ["x", "中", "e\u0301", "e" + ELEVEN_MARKS, "中\u0301", "🚀", "q"];

/** What is visible: everything but the scrollback (and bells). */
function visible(s: TerminalSnapshot): Omit<TerminalSnapshot, "scrollback" | "bells"> {
  const { scrollback: _s, bells: _b, ...rest } = s;
  return rest;
}

/**
 * One random case: a random state, then a few "cluster + REP n" (with text or a line feed
 * between), as bytes with REP and as the same text printed n more times (what REP means).
 */
function randomCase(seed: number) {
  const rnd = seededRandom(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const cols = 1 + int(13);
  const rows = 1 + int(6);
  const scrollback = int(30);
  let setup = new TextDecoder().decode(generateStream(seed, 20 + int(40), rows));
  setup += "\x1b[?7h\x1b[4l"; // autowrap on, insert off; then perhaps changed
  if (rnd() < 0.15) setup += "\x1b[4h";
  if (rnd() < 0.3 && rows > 1) setup += `\x1b[${1 + int(rows)};${1 + int(rows)}r`;
  if (rnd() < 0.5) setup += `\x1b[${1 + int(rows + 1)};${1 + int(cols + 1)}H`;
  let withRep = setup;
  let literal = setup;
  let saturating = false;
  const floods = 1 + int(4);
  for (let k = 0; k < floods; k++) {
    let cluster = CLUSTERS[int(CLUSTERS.length)];
    const wrapOff = rnd() < 0.1 && !/中|🚀/.test(cluster);
    if (wrapOff) cluster = "\x1b[?7l" + cluster;
    const w = /中|🚀/.test(cluster) ? 2 : 1;
    const per = Math.max(1, Math.floor(cols / w));
    const limit = per * (rows + 4);
    const pick = rnd();
    const n = pick < 0.3 ? 1 + int(5) : pick < 0.6 ? limit - 3 + int(per * 3 + 6) : 1 + int(2500);
    if (repeatCount(n, cols, rows, w, !wrapOff) < n) saturating = true;
    const after = ["", "y", "\r\n", "\n", "中"][int(5)] + (wrapOff ? "\x1b[?7h" : "");
    withRep += `${cluster}\x1b[${n}b${after}`;
    literal += cluster + cluster.replace("\x1b[?7l", "").repeat(n) + after;
  }
  return { cols, rows, scrollback, withRep, literal, saturating };
}

Deno.test("REP n ends in the screen that printing its character n more times gives", () => {
  let saturated = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const c = randomCase(seed);
    const a = new Terminal({ cols: c.cols, rows: c.rows, scrollback: c.scrollback });
    const b = new Terminal({ cols: c.cols, rows: c.rows, scrollback: c.scrollback });
    a.write(c.withRep);
    b.write(c.literal);
    const where = `seed ${seed} (${c.cols}x${c.rows}, ${JSON.stringify(c.withRep)})`;
    const sa = a.snapshot();
    const sb = b.snapshot();
    if (!c.saturating) assertEquals(sa, sb, where);
    else {
      saturated++;
      assertEquals(visible(sa), visible(sb), where);
      // the scrollback only misses rows of the repeated pattern
      ok(sa.scrollback.length <= sb.scrollback.length, where);
    }
  }
  ok(saturated > 100, `only ${saturated} cases reached every row`);
});

Deno.test("REP with a huge count prints at most a screenful and a few rows", () => {
  for (const [cols, rows] of [[120, 40], [400, 100], [7, 3], [1, 1]]) {
    for (const w of [1, 2]) {
      const per = Math.max(1, Math.floor(cols / w));
      for (const n of [2 ** 31 - 1, 999_999_999, 65_535]) {
        const k = repeatCount(n, cols, rows, w, true);
        ok(k <= per * (rows + 5), `${cols}x${rows} w${w} n${n}: ${k}`);
        assertEquals((n - k) % per, 0, "reduced by whole rows only");
      }
      ok(repeatCount(2 ** 31 - 1, cols, rows, w, false) <= cols + 2);
    }
  }
  // A huge REP gives the screen the same REP a whole number of rows shorter gives.
  const huge = new Terminal({ cols: 10, rows: 4, scrollback: 50 });
  const small = new Terminal({ cols: 10, rows: 4, scrollback: 50 });
  huge.write("hello\r\nab\x1b[2147483647bZ");
  small.write("hello\r\na" + "b".repeat(1 + ((2 ** 31 - 1) % 10) + 10 * 20) + "Z");
  assertEquals(visible(huge.snapshot()), visible(small.snapshot()));
  ok(huge.snapshot().scrollback.includes("hello"), "the rows scrolled out are kept");
});

Deno.test("a flood of huge REPs keeps keys' worth of work: each adds a bounded scrollback", () => {
  const t = new Terminal({ cols: 120, rows: 40, scrollback: 2000 });
  t.write("before\r\n");
  for (let i = 0; i < 200; i++) t.write("x\x1b[2147483647b");
  const s = t.snapshot();
  ok(s.screen.every((row, y) => y === 39 || row === "x".repeat(120)), "every row but the last");
  ok(s.scrollback.includes("before"));
});

Deno.test("a flood of huge REPs, with or without other output between, ends as printing them", () => {
  // After a REP that reached every row, the next one with only its pattern printed since changes
  // the cursor row in place; anything else printed since makes it run the ordinary way.
  const noises = [
    "",
    "",
    "",
    "",
    "y",
    "yz",
    "abc",
    "ab\r\nc",
    "yz\x1b[2D",
    "abc\x1b[3D",
    "\x1b[3Dabc",
    "\r",
    "\x1b[C",
    "\x1b[D",
    "\r\n",
    "\x1b[A",
    "\x1b[2X",
    "\b",
  ];
  for (let seed = 1; seed <= 300; seed++) {
    const rnd = seededRandom(1000 + seed);
    const int = (n: number) => Math.floor(rnd() * n);
    const cols = 1 + int(12);
    const rows = 1 + int(5);
    const scrollback = int(30);
    const cluster = CLUSTERS[int(CLUSTERS.length)];
    const w = /中|🚀/.test(cluster) ? 2 : 1;
    const per = Math.max(1, Math.floor(cols / w));
    const limit = per * (rows + 4);
    let setup = "text\r\nmore text\x1b[?7h\x1b[4l";
    if (rnd() < 0.3 && rows > 1) setup += `\x1b[${1 + int(rows)};${1 + int(rows)}r`;
    let withRep = setup;
    let literal = setup;
    for (let k = 2 + int(12); k > 0; k--) {
      // the cluster itself half the time (what a flood prints between REPs)
      const noise = rnd() < 0.5 ? cluster.repeat(int(3)) : noises[int(noises.length)];
      const n = limit + int(per * 3 + 2);
      withRep += `${noise}${cluster}\x1b[${n}b`;
      literal += noise + cluster + cluster.repeat(n);
    }
    const a = new Terminal({ cols, rows, scrollback });
    const b = new Terminal({ cols, rows, scrollback });
    a.write(withRep);
    b.write(literal);
    const where = `seed ${seed} (${cols}x${rows}, ${JSON.stringify(withRep)})`;
    assertEquals(visible(a.snapshot()), visible(b.snapshot()), where);
    ok(a.snapshot().scrollback.length <= b.snapshot().scrollback.length, where);
  }
});
