/**
 * A big bracketed paste through the key tracker uuldana uses:
 *
 *   tools/deno.sh run -A --v8-flags=--expose-gc bench/input_bench.ts [--rounds N]
 *
 * Each paste (1 MB and 10 MB of log lines, then a typed question and Enter) is fed in 64 KiB
 * reads, as stdin delivers it. Printed per tracker: total time, the slowest single read (how long
 * keys to the agent wait behind the paste), the heap the line holds just before Enter, and the
 * length of the recorded turn. The paste is between the keyboard and the agent: the target is
 * that no read costs more than a few milliseconds and the held line stays bounded. (The tracker
before its line became bounded pieces, one string per code point and no cap, took 178–224 /
1,818–2,717 ms in total for 1 / 10 MB, 39–48 / 350–417 ms for its slowest read and held 22 / 248 MB:
the README's numbers, kept as history; what it did with keys is kept as data in
`testdata/keys/`, which `src/session/input_test.ts` holds today's tracker to.)
 *
 * @module
 */
import { InputTracker } from "../src/session/input.ts";

const READ = 65536;
const args = Deno.args;
const ROUNDS = (() => {
  const i = args.indexOf("--rounds");
  return i >= 0 ? Number(args[i + 1]) : 3;
})();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.error("(run with --v8-flags=--expose-gc for the held-heap column)");

/** `size` bytes of numbered log lines. */
function logText(size: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 1; n < size; i++) {
    const line = `2026-12-01T12:00:00Z worker ${i % 7} handled request ${i} in 12 ms\n`;
    parts.push(line);
    n += line.length;
  }
  return parts.join("").slice(0, size);
}

interface Tracker {
  feed(bytes: Uint8Array, now?: number): { events: { type: string; text?: string }[] };
}

interface Result {
  totalMs: number;
  worstReadMs: number;
  heldMB: number;
  turnLength: number;
}

function heap(): number {
  gc?.();
  return Deno.memoryUsage().heapUsed;
}

function once(make: () => Tracker, input: Uint8Array, enter: Uint8Array): Result {
  const base = heap();
  const t = make();
  let worst = 0;
  const start = performance.now();
  for (let at = 0; at < input.length; at += READ) {
    const s = performance.now();
    t.feed(input.subarray(at, at + READ), s);
    worst = Math.max(worst, performance.now() - s);
  }
  const fed = performance.now();
  const held = heap() - base; // the line the tracker holds, with the paste in it
  const s = performance.now();
  const [e] = t.feed(enter, s).events;
  const end = performance.now();
  worst = Math.max(worst, end - s);
  return {
    totalMs: fed - start + (end - s),
    worstReadMs: worst,
    heldMB: held / 1e6,
    turnLength: e?.text?.length ?? 0,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const trackers: [string, () => Tracker][] = [
  ["now (pieces, capped)", () => new InputTracker()],
];
const enc = new TextEncoder();
console.log(`key tracker, bracketed paste in ${READ / 1024} KiB reads, median of ${ROUNDS}`);
console.log(
  "paste   tracker                          total ms  worst read ms  held MB  turn (code units)",
);
for (const mb of [1, 10]) {
  const input = enc.encode(`explain this log: \x1b[200~${logText(mb * 1_000_000)}\x1b[201~ please`);
  const enter = enc.encode("\r");
  for (const [name, make] of trackers) {
    const runs = Array.from({ length: ROUNDS }, () => once(make, input, enter));
    const m = (k: keyof Result) => median(runs.map((r) => r[k]));
    console.log(
      `${String(mb).padStart(2)} MB   ${name.padEnd(32)} ${m("totalMs").toFixed(1).padStart(8)}` +
        `  ${m("worstReadMs").toFixed(2).padStart(13)}  ${m("heldMB").toFixed(1).padStart(7)}` +
        `  ${String(m("turnLength")).padStart(17)}`,
    );
  }
}
