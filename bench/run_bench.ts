/**
 * The whole `uuldana run` against bare `script`, side by side in one run, same test agents. The
 * uuldana side is the real program: the `script` shim, plus the VT interpreter, the output
 * recording, limit detection and input tracking on every byte. Measured:
 * - keystroke echo round trip (one byte to a raw `cat` in the pty and back through stdout);
 * - a 100 MB output burst, first byte to last, as read from the process's stdout;
 * - uuldana's peak RSS during the burst (VmHWM from /proc).
 *
 * Run: tools/deno.sh run -A bench/run_bench.ts [--echoes N] [--bursts N] [--baseline DIR]
 *
 * `--baseline DIR` adds another checkout of uuldana (e.g. a worktree of main before a change) as a
 * third contender, its bursts interleaved with this one's, so a change's cost is measured side by
 * side in one run (same machine, same load).
 *
 * @module
 */
import { join } from "node:path";
import { UULDANA, uuldanaFrom } from "../tests/_paths.ts";

const AGENTS = new URL("../tests/fixtures/pty_agents/", import.meta.url).pathname;
const BURST_BYTES = 100 * 1024 * 1024;
const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const ECHOES = arg("--echoes", 400);
const BURSTS = arg("--bursts", 3);
const baselineAt = Deno.args.indexOf("--baseline");
const BASELINE_DIR = baselineAt >= 0 ? Deno.args[baselineAt + 1] : null;
/** uuldana from the baseline checkout, started the way `UULDANA` starts this one. */
const BASELINE: readonly string[] | null = BASELINE_DIR === null ? null : uuldanaFrom(BASELINE_DIR);
type Contender = "uuldana" | "baseline" | "script";

const dir = Deno.makeTempDirSync({ prefix: "uuldana-run-bench-" });
function _agent(name: string, exec: string): string {
  const path = join(dir, name);
  // Answers uuldana's `--version` probe without running the benchmark body.
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh\n[ "$1" = --version ] && { echo 1.0.0; exit 0; }\nexec ${exec}\n`,
  );
  Deno.chmodSync(path, 0o755);
  return path;
}
const echoAgent = _agent("echo-agent", `'${AGENTS}echo_raw.sh'`);
const burstAgent = _agent(
  "burst-agent",
  `'${Deno.execPath()}' run -q -A --no-config '${AGENTS}burst.ts' ${BURST_BYTES}`,
);

interface Proc {
  child: Deno.ChildProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  reader: ReadableStreamDefaultReader<Uint8Array>;
}

function _start(contender: Contender, agent: string): Proc {
  const home = Deno.makeTempDirSync({ dir });
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ chain: ["gemini"], agents: { gemini: { bin: agent } } }),
  );
  const [cmd, ...args] = contender === "script"
    ? ["script", "-q", "-f", "-e", "-c", `'${agent}'`, "/dev/null"]
    : [
      ...(contender === "baseline" ? BASELINE! : UULDANA),
      "run",
      "gemini",
      "--cols",
      "120",
      "--rows",
      "40",
    ];
  const child = new Deno.Command(cmd, {
    args,
    env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json"), SHELL: "/bin/sh" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  return { child, writer: child.stdin.getWriter(), reader: child.stdout.getReader() };
}

async function _stop(p: Proc): Promise<void> {
  await p.writer.close().catch(() => {});
  try {
    p.child.kill("SIGTERM");
  } catch { /* already gone */ }
  await p.child.status;
  await p.reader.cancel().catch(() => {});
}

/** `count` round trips of one byte, in ms, after the agent first echoed. */
async function echo(contender: Contender, count: number): Promise<number[]> {
  const p = _start(contender, echoAgent);
  const x = new Uint8Array([0x78]);
  // Warm up: until the agent echoes at all. One read stays pending across tries: a read given up
  // on would take the next echo, and every later try would wait one echo behind.
  let pending = p.reader.read();
  for (;;) {
    await p.writer.write(x);
    const got = await Promise.race([
      pending.then((r) => r.value ?? new Uint8Array()),
      new Promise<null>((r) => setTimeout(() => r(null), 200)),
    ]);
    if (got === null) continue;
    if (got.includes(0x78)) break;
    pending = p.reader.read();
  }
  await new Promise((r) => setTimeout(r, 300));
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await p.writer.write(x);
    for (;;) {
      const { value } = await p.reader.read();
      if (value?.includes(0x78)) break;
    }
    times.push(performance.now() - t);
  }
  await _stop(p);
  return times;
}

/** MB/s of one 100 MB burst (first byte to last) and, for uuldana, its peak RSS in MB. */
async function burst(contender: Contender): Promise<{ mbps: number; peakMb: number | null }> {
  const p = _start(contender, burstAgent);
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${p.child.pid}/status`));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch { /* exited */ }
  }, 20);
  let bytes = 0;
  let first = 0;
  for (;;) {
    const { value, done } = await p.reader.read();
    if (done) break;
    if (!first) first = performance.now();
    bytes += value.length;
  }
  const seconds = (performance.now() - first) / 1000;
  clearInterval(sample);
  await p.child.status;
  if (bytes < BURST_BYTES) {
    throw new Error(`${contender}: only ${bytes} of ${BURST_BYTES} bytes arrived`);
  }
  return { mbps: bytes / 1e6 / seconds, peakMb: contender === "script" ? null : peakKb / 1024 };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs: number[]) => pct(xs, 50);

// The echoes in rounds, the contenders' order reversed every other round: whoever went first was
// ~1.3x slower at p99 (the same checkout against itself), which a single pass reads as a cost.
const ECHO_ROUNDS = 4;
const echoes: Record<Contender, number[]> = { uuldana: [], baseline: [], script: [] };
const echoOrder: Contender[] = BASELINE ? ["uuldana", "baseline", "script"] : ["uuldana", "script"];
for (let round = 0; round < ECHO_ROUNDS; round++) {
  for (const c of round % 2 ? [...echoOrder].reverse() : echoOrder) {
    echoes[c].push(...await echo(c, Math.ceil(ECHOES / ECHO_ROUNDS)));
  }
}
const { uuldana: echoOurs, baseline: echoBase, script: echoBare } = echoes;
const mbpsOurs: number[] = [];
const mbpsBase: number[] = [];
const mbpsBare: number[] = [];
let peak = 0;
let peakBase = 0;
for (let i = 0; i < BURSTS; i++) {
  const o = await burst("uuldana");
  mbpsOurs.push(o.mbps);
  peak = Math.max(peak, o.peakMb ?? 0);
  if (BASELINE) {
    const b = await burst("baseline");
    mbpsBase.push(b.mbps);
    peakBase = Math.max(peakBase, b.peakMb ?? 0);
  }
  mbpsBare.push((await burst("script")).mbps);
}
Deno.removeSync(dir, { recursive: true });

const f = (n: number) => n.toFixed(3);
console.log(
  `whole \`uuldana run\` vs bare script; ${ECHOES} echoes, ${BURSTS} bursts of 100 MB each`,
);
console.log("| metric | bare script | uuldana run | added / ratio | target |");
console.log("| --- | ---: | ---: | ---: | --- |");
console.log(
  `| echo RTT p50 (ms) | ${f(median(echoBare))} | ${f(median(echoOurs))} | +${
    f(median(echoOurs) - median(echoBare))
  } | |`,
);
console.log(
  `| echo RTT p99 (ms) | ${f(pct(echoBare, 99))} | ${f(pct(echoOurs, 99))} | +${
    f(pct(echoOurs, 99) - pct(echoBare, 99))
  } | ≤ 1 ms added |`,
);
console.log(
  `| 100 MB burst (MB/s, median) | ${median(mbpsBare).toFixed(0)} | ${
    median(mbpsOurs).toFixed(0)
  } | ${(median(mbpsOurs) / median(mbpsBare)).toFixed(2)}× | ≥ 0.8× |`,
);
console.log(`| uuldana peak RSS (MB) | | ${peak.toFixed(1)} | | ≤ 80 MB |`);
if (BASELINE) {
  console.log(`\nbaseline: ${BASELINE_DIR}, interleaved with the bursts above`);
  console.log("| metric | baseline | this checkout | ratio |");
  console.log("| --- | ---: | ---: | ---: |");
  console.log(
    `| echo RTT p50 (ms) | ${f(median(echoBase))} | ${f(median(echoOurs))} | ${
      (median(echoOurs) / median(echoBase)).toFixed(2)
    }× |`,
  );
  console.log(
    `| echo RTT p99 (ms) | ${f(pct(echoBase, 99))} | ${f(pct(echoOurs, 99))} | ${
      (pct(echoOurs, 99) / pct(echoBase, 99)).toFixed(2)
    }× |`,
  );
  console.log(
    `| 100 MB burst (MB/s, median) | ${median(mbpsBase).toFixed(0)} | ${
      median(mbpsOurs).toFixed(0)
    } | ${(median(mbpsOurs) / median(mbpsBase)).toFixed(2)}× |`,
  );
  console.log(
    `| peak RSS (MB) | ${peakBase.toFixed(1)} | ${peak.toFixed(1)} | ${
      (peak / peakBase).toFixed(2)
    }× |`,
  );
  console.log(
    `bursts (MB/s): this ${mbpsOurs.map((x) => x.toFixed(0))}, baseline ${
      mbpsBase.map((x) => x.toFixed(0))
    }`,
  );
}
