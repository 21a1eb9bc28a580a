/**
 * PTY shim benchmark, ours vs bare `script` side by side in one run, same test agents:
 * - keystroke echo round trip (one byte to a raw `cat` in the pty and back): added latency;
 * - a 100 MB output burst read from the output stream and written to a sink: throughput;
 * - peak RSS while reading the burst (`Deno.memoryUsage().rss` sampled every 10 ms), each
 *   contender alone in a fresh child process of this script.
 *
 * Run: tools/deno.sh run -A bench/pty_bench.ts [--rounds N]
 *
 * @module
 */
import { spawnPty } from "../src/pty/pty_process.ts";
import { detectScriptFlavour } from "../src/pty/script.ts";

const AGENTS = new URL("../tests/fixtures/pty_agents/", import.meta.url).pathname;
const ECHO = [`${AGENTS}echo_raw.sh`];
const BURST_BYTES = 100 * 1024 * 1024;
const BURST = [
  Deno.execPath(),
  "run",
  "-q",
  "-A",
  "--no-config",
  `${AGENTS}burst.ts`,
  String(BURST_BYTES),
];
const roundsArg = Deno.args.indexOf("--rounds");
const ROUNDS = roundsArg >= 0 ? Number(Deno.args[roundsArg + 1]) : 5;
const ECHOES_PER_ROUND = 400;

/** The common shape of both contenders. */
interface Pipe {
  write(b: Uint8Array): Promise<void>;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  stop(): Promise<void>;
}

async function ours(argv: string[]): Promise<Pipe> {
  const p = await spawnPty({ argv, cols: 80, rows: 24 });
  return {
    write: (b) => p.write(b),
    reader: p.output.getReader(),
    stop: async () => {
      await p.stop({ termMs: 2000 });
    },
  };
}

async function bare(argv: string[]): Promise<Pipe> {
  const { path } = await detectScriptFlavour();
  const child = new Deno.Command(path, {
    args: [
      "-q",
      "-f",
      "-e",
      "-c",
      argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" "),
      "/dev/null",
    ],
    env: { SHELL: "/bin/sh" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  return {
    write: (b) => writer.write(b),
    reader: child.stdout.getReader(),
    stop: async () => {
      let kids = "";
      try {
        kids = Deno.readTextFileSync(`/proc/${child.pid}/task/${child.pid}/children`);
      } catch { /* script already gone */ }
      for (const k of kids.trim().split(/\s+/).filter(Boolean)) {
        try {
          Deno.kill(-Number(k), "SIGTERM");
        } catch { /* gone */ }
      }
      await writer.close().catch(() => {});
      await child.status;
    },
  };
}

/**
 * Waits until the raw `cat` echoes Ctrl-A as the byte 0x01 (the cooked pty echoes "^A"), then
 * syncs the stream on a marker so every later byte read is the echo of the byte just written.
 */
async function warmEcho(p: Pipe): Promise<void> {
  let seen = false;
  while (!seen) {
    await p.write(new Uint8Array([1]));
    const { value } = await p.reader.read();
    if (value?.includes(1)) seen = true;
  }
  const marker = "#sync-marker#";
  await p.write(new TextEncoder().encode(marker));
  let text = "";
  while (!text.endsWith(marker)) {
    const { value, done } = await p.reader.read();
    if (done) throw new Error("echo agent ended");
    text += new TextDecoder().decode(value);
  }
}

async function echoRound(p: Pipe, n: number): Promise<number[]> {
  const times: number[] = [];
  const key = new Uint8Array([0x61]);
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await p.write(key);
    let got = 0;
    while (got < 1) {
      const { value, done } = await p.reader.read();
      if (done) throw new Error("echo agent ended");
      got += value.length;
    }
    times.push(performance.now() - t0);
  }
  return times;
}

async function burst(p: Pipe, sink: WritableStreamDefaultWriter<Uint8Array>): Promise<number> {
  let n = 0;
  while (true) {
    const { value, done } = await p.reader.read();
    if (done) break;
    n += value.length;
    await sink.write(value);
  }
  return n;
}

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const median = (xs: number[]) => pct(xs, 0.5);

/** One burst in this process; returns MB/s and the peak RSS seen while reading it. */
async function measureBurst(
  who: "ours" | "bare",
  sink: WritableStreamDefaultWriter<Uint8Array>,
): Promise<{ rate: number; peakRss: number }> {
  const p = who === "ours" ? await ours(BURST) : await bare(BURST);
  let peakRss = Deno.memoryUsage().rss;
  const sampler = setInterval(() => peakRss = Math.max(peakRss, Deno.memoryUsage().rss), 10);
  const t0 = performance.now();
  const n = await burst(p, sink);
  const secs = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (n !== BURST_BYTES) throw new Error(`${who}: got ${n} bytes, expected ${BURST_BYTES}`);
  await p.stop();
  return { rate: n / 1024 / 1024 / secs, peakRss };
}

const sinkFile = await Deno.open("/dev/null", { write: true });
const sink = sinkFile.writable.getWriter();

// RSS child mode: one burst in a fresh process, so earlier runs cannot inflate the peak.
const rssArg = Deno.args.indexOf("--rss-child");
if (rssArg >= 0) {
  const who = Deno.args[rssArg + 1] === "bare" ? "bare" : "ours";
  const start = Deno.memoryUsage().rss;
  const { peakRss } = await measureBurst(who, sink);
  console.log(JSON.stringify({ start, peakRss }));
  Deno.exit(0);
}

async function rssInChild(who: "ours" | "bare"): Promise<{ start: number; peakRss: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--rss-child", who],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

// --- memory: each contender alone in a fresh process
const mem = { bare: await rssInChild("bare"), ours: await rssInChild("ours") };

// --- throughput: alternating order
const rate = { ours: [] as number[], bare: [] as number[] };
for (let r = 0; r < Math.max(4, ROUNDS); r++) {
  for (const who of r % 2 === 0 ? ["bare", "ours"] as const : ["ours", "bare"] as const) {
    rate[who].push((await measureBurst(who, sink)).rate);
  }
}
await sink.close();

// --- latency: one long-lived agent each, rounds interleaved
const oursEcho = await ours(ECHO);
const bareEcho = await bare(ECHO);
await warmEcho(oursEcho);
await warmEcho(bareEcho);
const lat = { ours: [] as number[], bare: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  lat.bare.push(...await echoRound(bareEcho, ECHOES_PER_ROUND));
  lat.ours.push(...await echoRound(oursEcho, ECHOES_PER_ROUND));
}
await oursEcho.stop();
await bareEcho.stop();

const f = (x: number) => x.toFixed(3);
const signed = (x: number) => (x >= 0 ? "+" : "") + f(x);
const rows: [string, string, string, string, string][] = [
  ["metric", "bare script", "uuldana shim", "added / ratio", "target"],
  [
    "echo RTT p50 (ms)",
    f(pct(lat.bare, 0.5)),
    f(pct(lat.ours, 0.5)),
    signed(pct(lat.ours, 0.5) - pct(lat.bare, 0.5)),
    "",
  ],
  [
    "echo RTT p99 (ms)",
    f(pct(lat.bare, 0.99)),
    f(pct(lat.ours, 0.99)),
    signed(pct(lat.ours, 0.99) - pct(lat.bare, 0.99)),
    "<= 1 ms added",
  ],
  [
    "100 MB burst (MB/s, median)",
    median(rate.bare).toFixed(0),
    median(rate.ours).toFixed(0),
    `${(median(rate.ours) / median(rate.bare)).toFixed(2)}x`,
    ">= 0.8x",
  ],
  [
    "peak RSS, fresh process (MB)",
    (mem.bare.peakRss / 1024 / 1024).toFixed(1),
    (mem.ours.peakRss / 1024 / 1024).toFixed(1),
    `at start ${(mem.ours.start / 1024 / 1024).toFixed(1)}`,
    "<= 80 MB",
  ],
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
console.log(
  `script: ${(await detectScriptFlavour()).path}; ${lat.ours.length} echoes each; ` +
    `${rate.ours.length} bursts each`,
);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join(" | "));
