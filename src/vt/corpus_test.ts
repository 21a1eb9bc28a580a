import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import {
  assertMatches,
  CHECKPOINT_KEYS,
  FINAL_KEYS,
  loadRecordings,
  seededRandom,
} from "./_corpus_test_util.ts";

const recordings = loadRecordings();

Deno.test("corpus: final state and every checkpoint equal the xterm.js oracle", () => {
  let checkpoints = 0;
  for (const rec of recordings) {
    const term = new Terminal({ cols: rec.cols, rows: rec.rows, scrollback: 100_000 });
    let fed = 0;
    for (const cp of rec.checkpoints) {
      term.write(rec.raw.subarray(fed, cp.offset));
      fed = cp.offset;
      assertMatches(term.snapshot(), cp, CHECKPOINT_KEYS, `${rec.name} @${cp.offset}`);
      checkpoints++;
    }
    term.write(rec.raw.subarray(fed));
    assertMatches(term.snapshot(), rec.oracle, FINAL_KEYS, `${rec.name} final`);
  }
  assertEquals(recordings.length, 54);
  assertEquals(checkpoints >= 88, true);
});

Deno.test("corpus: same state fed whole, one byte at a time, and in seeded random chunks", () => {
  const rnd = seededRandom(20240611);
  for (const rec of recordings) {
    const whole = new Terminal({ cols: rec.cols, rows: rec.rows, scrollback: 100_000 });
    whole.write(rec.raw);
    const expected = whole.snapshot();
    assertMatches(expected, rec.oracle, FINAL_KEYS, `${rec.name} whole`);

    const bytewise = new Terminal({ cols: rec.cols, rows: rec.rows, scrollback: 100_000 });
    for (let i = 0; i < rec.raw.length; i++) bytewise.write(rec.raw.subarray(i, i + 1));
    assertEquals(bytewise.snapshot(), expected, `${rec.name} 1 byte at a time`);

    const chunked = new Terminal({ cols: rec.cols, rows: rec.rows, scrollback: 100_000 });
    for (let i = 0; i < rec.raw.length;) {
      const n = 1 + Math.floor(rnd() * 97);
      chunked.write(rec.raw.subarray(i, i + n));
      i += n;
    }
    assertEquals(chunked.snapshot(), expected, `${rec.name} random chunks`);
  }
});

Deno.test("corpus: default 10,000-line scrollback keeps the newest lines", () => {
  const rec = recordings.find((r) => r.name === "vt/long-scrollback")!;
  const term = new Terminal({ cols: rec.cols, rows: rec.rows, scrollback: 1000 });
  term.write(rec.raw);
  const snap = term.snapshot();
  const expected = rec.oracle.scrollback as string[];
  assertEquals(snap.scrollback.length, 1000);
  assertEquals(snap.scrollback, expected.slice(-1000));
  assertEquals(snap.screen, rec.oracle.screen);
});
