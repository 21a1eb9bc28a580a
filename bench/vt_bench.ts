/**
 * Throughput of uuldana's VT interpreter next to @xterm/headless (Unicode 11 widths), in one run:
 *
 *   tools/deno.sh run -A bench/vt_bench.ts [--mib N] [--rounds N]
 *
 * Workloads: (a) the corpus recordings concatenated and repeated to ~50 MiB, (b) a generated
 * mix of text, SGR and cursor motion, (c) full-screen repaints. Both terminals get 1 MiB
 * chunks; xterm.js is awaited after each chunk (it discards input above ~50 MB pending).
 * Prints MiB/s for both and the ratio (target: ours ≥ 1.5× xterm-headless).
 *
 * @module
 */
import { Terminal as XtermTerminal } from "@xterm/headless/lib-headless/xterm-headless.mjs";
import { Unicode11Addon } from "@xterm/addon-unicode11/lib/addon-unicode11.mjs";
import { Terminal } from "../src/vt/mod.ts";
import { AGENT_CORPUS_DIR, VT_CORPUS_DIR } from "../tests/_paths.ts";
import { join } from "node:path";
import { concatBytes } from "../src/bytes.ts";

const CHUNK = 1 << 20;
const COLS = 120;
const ROWS = 40;
const args = Deno.args;
const argValue = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const TARGET_MIB = argValue("--mib", 50);
const ROUNDS = argValue("--rounds", 3);
const CORPUS_DIRS = [VT_CORPUS_DIR, AGENT_CORPUS_DIR];

function repeatTo(parts: Uint8Array[], targetBytes: number): Uint8Array {
  const one = concatBytes(parts);
  const times = Math.max(1, Math.ceil(targetBytes / one.length));
  const out = new Uint8Array(one.length * times);
  for (let i = 0; i < times; i++) out.set(one, i * one.length);
  return out;
}

function corpusStream(): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const dir of CORPUS_DIRS) {
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".raw"));
    for (const n of names.sort()) {
      parts.push(Deno.readFileSync(join(dir, n)));
      parts.push(new TextEncoder().encode("\x1b[?1049l\x1b[0m\x1b[r\r\n")); // back to a sane state
    }
  }
  return repeatTo(parts, TARGET_MIB * CHUNK);
}

function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
}

function mixedStream(): Uint8Array {
  const rnd = seeded(42);
  const words = ["const", "value", "return", "function", "terminal", "状态", "✓", "📦", "=>", "{}"];
  let s = "";
  while (s.length < 1 << 20) {
    const r = rnd();
    if (r < 0.55) s += words[(rnd() * words.length) | 0] + " ";
    else if (r < 0.7) s += `\x1b[${30 + ((rnd() * 8) | 0)};${rnd() < 0.5 ? 1 : 22}m`;
    else if (r < 0.78) s += "\x1b[0m";
    else if (r < 0.86) s += "\r\n";
    else if (r < 0.9) s += `\x1b[${1 + ((rnd() * ROWS) | 0)};${1 + ((rnd() * COLS) | 0)}H`;
    else if (r < 0.94) s += "\x1b[K";
    else if (r < 0.97) s += `\x1b[${1 + ((rnd() * 5) | 0)}C`;
    else s += `\x1b[38;2;${(rnd() * 255) | 0};${(rnd() * 255) | 0};${(rnd() * 255) | 0}m`;
  }
  return repeatTo([new TextEncoder().encode(s)], (TARGET_MIB / 2) * CHUNK);
}

function repaintStream(): Uint8Array {
  let frame = "\x1b[?2026h\x1b[H";
  for (let y = 0; y < ROWS; y++) {
    frame += `\x1b[${y + 1};1H\x1b[38;5;${y % 256}m`;
    const text = `│ row ${y} ` + "lorem ipsum dolor sit amet ".repeat(5);
    frame += text.slice(0, COLS - 2) + "\x1b[0m\x1b[K";
  }
  frame += "\x1b[?2026l";
  return repeatTo([new TextEncoder().encode(frame)], (TARGET_MIB / 2) * CHUNK);
}

function runOurs(data: Uint8Array): number {
  const t = new Terminal({ cols: COLS, rows: ROWS });
  const start = performance.now();
  for (let i = 0; i < data.length; i += CHUNK) t.write(data.subarray(i, i + CHUNK));
  return performance.now() - start;
}

async function runXterm(data: Uint8Array): Promise<number> {
  // deno-lint-ignore no-explicit-any
  const term: any = new XtermTerminal({
    cols: COLS,
    rows: ROWS,
    scrollback: 10_000,
    allowProposedApi: true,
    logLevel: "off",
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  const write = (d: Uint8Array) => new Promise<void>((r) => term.write(d, r));
  const start = performance.now();
  for (let i = 0; i < data.length; i += CHUNK) await write(data.subarray(i, i + CHUNK));
  const ms = performance.now() - start;
  term.dispose();
  return ms;
}

const mib = (bytes: number, ms: number) => bytes / CHUNK / (ms / 1000);

const workloads: [string, Uint8Array][] = [
  ["(a) corpus x N", corpusStream()],
  ["(b) text/SGR/cursor mix", mixedStream()],
  ["(c) full-screen repaints", repaintStream()],
];

console.log(`${COLS}x${ROWS}, 1 MiB chunks, best of ${ROUNDS} rounds\n`);
console.log("| workload | MiB | uuldana MiB/s | xterm-headless MiB/s | ratio |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const [name, data] of workloads) {
  let ours = Infinity;
  let xterm = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    ours = Math.min(ours, runOurs(data));
    xterm = Math.min(xterm, await runXterm(data));
  }
  const a = mib(data.length, ours);
  const b = mib(data.length, xterm);
  console.log(
    `| ${name} | ${(data.length / CHUNK).toFixed(1)} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${
      (a / b).toFixed(2)
    }× |`,
  );
}
