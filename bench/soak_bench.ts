/**
 * The soak: an 8-hour session compressed in time, through the real `uuldana run` (issue 32). A
 * small real agent (bench/_soak_agent.ts, drawn like Claude Code) answers `--turns` typed prompts
 * (default 2,000) with about `--turn-bytes` of output each (default 256 KiB: ≥ 500 MB in all:
 * spinners, long tool output, redraw storms), then shows its session-limit menu; uuldana hands
 * off to the next agent of the chain (a shell that waits). Measured:
 *
 * - uuldana's RSS over the run (VmRSS, sampled every second; target ≤ 100 MB and flat), and its
 *   V8 heap at the end is not visible from outside: `--inspect-heap` is not used, RSS is the truth;
 * - its CPU per MB of output (utime+stime from /proc), by tenth of the run: flat;
 * - the journal's and the recording's sizes (the recording within its 4 MB bound);
 * - the handoff's compose time (the conversation read from the journal, composed for its road
 *   and in full; target < 100 ms);
 * - `uuldana debug detect RUN --json` of the soak run: its replay acts on the final limit, with
 *   the same decisions as the run made (from the recording's most recent part).
 *
 * Run: tools/deno.sh run -A bench/soak_bench.ts [--turns N] [--turn-bytes N] [--keep]
 *   [--uuldana DIR] (DIR: another checkout, e.g. main's, run instead of this one)
 *
 * @module
 */
import { join } from "node:path";
import { UULDANA, uuldanaFrom } from "../tests/_paths.ts";
import { Journal, JOURNAL_FILE } from "../src/journal/journal.ts";
import { recordingPartPaths } from "../src/journal/recording_file.ts";
import { runConversation } from "../src/handoff/prepare.ts";
import { composeFull, composeHandoff } from "../src/handoff/compose.ts";
import type { HandoffPackage } from "../src/handoff/package.ts";

const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const TURNS = arg("--turns", 2000);
const TURN_BYTES = arg("--turn-bytes", 256 * 1024);
const KEEP = Deno.args.includes("--keep");
// `--uuldana DIR`: another checkout's uuldana (e.g. main's worktree) runs the same soak.
const otherAt = Deno.args.indexOf("--uuldana");
const RUN: readonly string[] = otherAt >= 0 ? uuldanaFrom(Deno.args[otherAt + 1]) : UULDANA;

const dir = Deno.makeTempDirSync({ prefix: "uuldana-soak-" });
const home = join(dir, "home");
Deno.mkdirSync(home);
const done = join(dir, "turn-done");
const agentPath = join(dir, "claude");
const agentScript = new URL("./_soak_agent.ts", import.meta.url).pathname;
Deno.writeTextFileSync(
  agentPath,
  `#!/bin/sh\nexec '${Deno.execPath()}' run -q -A --no-config '${agentScript}' "$@" ` +
    `--turn-bytes ${TURN_BYTES} --done '${done}'\n`,
);
const nextPath = join(dir, "gemini");
Deno.writeTextFileSync(
  nextPath,
  `#!/bin/sh\n[ "$1" = --version ] && { echo 0.61.0; exit 0; }\necho; echo SOAK-NEXT-READY\nexec sleep 600\n`,
);
for (const p of [agentPath, nextPath]) Deno.chmodSync(p, 0o755);
Deno.writeTextFileSync(
  join(home, "config.json"),
  JSON.stringify({
    chain: ["claude", "gemini"],
    agents: { claude: { bin: agentPath }, gemini: { bin: nextPath } },
  }),
);

const [cmd, ...args] = RUN;
// From source, Deno compiles each module the first time a checkout's files (or its deno.json) are
// new to it, and that compiler's memory stays in the process: up to ~20 MB a shipped binary never
// holds. `--help` loads every command once, so the soak measures the program, not that.
await new Deno.Command(cmd, { args: [...args, "--help"], stdout: "null", stderr: "null" }).output();
const child = new Deno.Command(cmd, {
  args: [...args, "run", "claude", "--cols", "120", "--rows", "40"],
  cwd: dir,
  env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json"), SHELL: "/bin/sh" },
  stdin: "piped",
  stdout: "piped",
  stderr: "piped",
}).spawn();
const writer = child.stdin.getWriter();
const enc = new TextEncoder();

// The output as the user's terminal would read it: counted, the last bytes kept for markers.
let bytes = 0;
let tail = "";
const dec = new TextDecoder();
const reading = (async () => {
  for await (const chunk of child.stdout) {
    bytes += chunk.length;
    tail = (tail + dec.decode(chunk.subarray(Math.max(0, chunk.length - 4096)))).slice(-8192);
  }
})();
const stderr = new Response(child.stderr).text();

interface Sample {
  s: number;
  turn: number;
  mb: number;
  rssMb: number;
  cpuS: number;
}
const samples: Sample[] = [];
const t0 = performance.now();
let turnNow = 0;
const ticks = 100; // USER_HZ on Linux
function sample(): void {
  try {
    const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
    const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`);
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    samples.push({
      s: (performance.now() - t0) / 1000,
      turn: turnNow,
      mb: bytes / 1e6,
      rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024,
      cpuS: (Number(f[11]) + Number(f[12])) / ticks,
    });
  } catch { /* exited */ }
}
const sampler = setInterval(sample, 1000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, ok: () => boolean, ms = 120_000): Promise<void> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) throw new Error(`soak: timed out waiting for ${what}`);
    await sleep(10);
  }
}
const doneTurns = () => {
  try {
    return Number(Deno.readTextFileSync(done)) || 0;
  } catch {
    return 0;
  }
};

// Whatever happens, uuldana (and through it the agents) is stopped when the benchmark ends.
globalThis.addEventListener("unload", () => {
  try {
    child.kill("SIGKILL");
  } catch { /* gone */ }
});
await until("the agent's first screen", () => tail.includes("for shortcuts") || bytes > 500);
await sleep(500);
for (let i = 1; i <= TURNS; i++) {
  turnNow = i;
  await writer.write(enc.encode(`turn ${i}: fix the failing test in src/cart.ts, then run it\r`));
  await until(`turn ${i}`, () => doneTurns() >= i);
}
const turnsS = (performance.now() - t0) / 1000;
await writer.write(enc.encode("LIMIT\r"));
await until("the handoff to the next agent", () => tail.includes("SOAK-NEXT-READY"), 180_000);
sample();
clearInterval(sampler);
child.kill("SIGTERM");
await child.status;
await writer.close().catch(() => {});
await reading.catch(() => {});
const errText = await stderr;

// What the journal and the data folder hold.
const journal = Journal.open(home);
const runs = journal.runs(10);
const soakRun = runs.find((r) => r.agent === "claude")!;
const fileSize = (p: string) => {
  try {
    return Deno.statSync(p).size;
  } catch {
    return 0;
  }
};
const journalBytes = [JOURNAL_FILE, `${JOURNAL_FILE}-wal`, `${JOURNAL_FILE}-shm`]
  .reduce((n, f) => n + fileSize(join(home, f)), 0);
const stored = journal.output(soakRun.id);
const recParts = stored?.path ? [stored.path, ...recordingPartPaths(stored.path)] : [];
const recSizes = recParts.map(fileSize);

// The handoff's composition, as uuldana composes it at the limit (the workspace left out).
const composeTimes: number[] = [];
let characters = 0;
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const entries = runConversation(journal, soakRun.id);
  const pkg: HandoffPackage = {
    workspace: dir,
    git: null,
    from: "claude",
    to: "gemini",
    reason: { kind: "limit", message: soakRun.limitMessage ?? "", resetsAt: null },
    time: new Date().toISOString(),
    entries,
    actions: [],
  };
  const full = composeFull(pkg, { pointer: join(home, "handoff.md"), nonce: "50a450a4" });
  const composed = composeHandoff(pkg, { road: "paste", pointer: "x", nonce: full.nonce });
  composeTimes.push(performance.now() - t);
  characters = composed?.characters ?? 0;
}
const handoffs = journal.handoffsFrom(soakRun.id);
journal.close();

// The replay of the soak run's recording.
const detect = new Deno.Command(cmd, {
  args: [...args, "debug", "detect", String(soakRun.id), "--json"],
  env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json") },
  stdout: "piped",
  stderr: "piped",
});
const td = performance.now();
const detected = await detect.output();
const detectS = (performance.now() - td) / 1000;
const report = JSON.parse(new TextDecoder().decode(detected.stdout) || "{}");
const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

// Tenths of the run: RSS and CPU per MB.
const tenths: string[] = [];
for (let k = 1; k <= 10; k++) {
  const lo = samples[Math.floor(((k - 1) / 10) * (samples.length - 1))];
  const hi = samples[Math.floor((k / 10) * (samples.length - 1))];
  const cpuPerMb = (hi.cpuS - lo.cpuS) / Math.max(0.001, hi.mb - lo.mb);
  tenths.push(
    `| ${k * 10}% | ${hi.turn} | ${hi.mb.toFixed(0)} | ${hi.rssMb.toFixed(1)} | ${
      (cpuPerMb * 1000).toFixed(1)
    } |`,
  );
}
const maxRss = Math.max(...samples.map((s) => s.rssMb));
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `soak: ${TURNS} turns, ${(bytes / 1e6).toFixed(0)} MB through \`uuldana run\` in ` +
    `${turnsS.toFixed(0)} s (then the limit), load at the end ${load}`,
);
console.log("| part of the run | turn | MB out | uuldana RSS (MB) | CPU ms per MB |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const row of tenths) console.log(row);
console.log(`peak RSS ${maxRss.toFixed(1)} MB (target ≤ 100)`);
console.log(
  `journal ${(journalBytes / 1e6).toFixed(2)} MB; recording ${
    recSizes.map((s) => (s / 1e6).toFixed(2)).join(" + ")
  } MB = ${(recSizes.reduce((a, b) => a + b, 0) / 1e6).toFixed(2)} MB (bound 4.19 MB)`,
);
console.log(
  `handoff compose (conversation from the journal + full + paste road): median ${
    med(composeTimes).toFixed(1)
  } ms, max ${Math.max(...composeTimes).toFixed(1)} ms, ${characters} characters; handoffs ` +
    `journaled from the run: ${handoffs.length} (target < 100 ms)`,
);
console.log(
  `debug detect ${soakRun.id} (${detectS.toFixed(1)} s): ${report.kind ?? "no"} limit ` +
    `"${report.message ?? ""}" at ${report.atMs ?? "?"} ms, from ${report.fromMs ?? 0} ms; ` +
    `live: ${report.live?.match ?? "?"} (${report.live?.decisions?.length ?? 0} decisions); ` +
    `the run ended: ${soakRun.endReason ?? "?"}`,
);
if (detected.code !== 0) console.log(new TextDecoder().decode(detected.stderr));
if (errText.trim()) console.log(`uuldana's stderr: ${errText.slice(-500)}`);
if (KEEP) console.log(`kept: ${dir}`);
else Deno.removeSync(dir, { recursive: true });
