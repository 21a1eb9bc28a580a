/**
 * Hostile terminal output (the streams the tests generate, `src/vt/_hostile_streams_test_util.ts`):
 *
 * 1. throughput of the VT interpreter per stream kind, at 120x40 and 400x100 with the scrollback
 *    `uuldana run` keeps (target: no kind below 20 MiB/s);
 * 2. peak RSS of the whole `uuldana run` (VmHWM from /proc) while an agent prints each kind
 *    (target: ≤ 100 MB whatever the agent prints, at 120x40 and at 400x100).
 *
 * Run: tools/deno.sh run -A bench/hostile_bench.ts [--mib N] [--run-mib N] [--rounds N]
 *   [--kind rep,ris,…]
 *
 * @module
 */
import { join } from "node:path";
import { UULDANA } from "../tests/_paths.ts";
import { Terminal } from "../src/vt/mod.ts";
import {
  HOSTILE_KINDS,
  type HostileKind,
  hostileStream,
} from "../src/vt/_hostile_streams_test_util.ts";

const arg = (name: string, fallback: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
};
const MIB = 1 << 20;
const VT_MIB = arg("--mib", 8);
const RUN_MIB = arg("--run-mib", 16);
const ROUNDS = arg("--rounds", 3);
const SIZES: [number, number][] = [[120, 40], [400, 100]];
const SCROLLBACK = 2_000; // what `uuldana run` keeps (src/session/agent_run.ts)
const CHUNK = 64 * 1024; // about what one pty read gives

function throughput(kind: HostileKind, cols: number, rows: number): number {
  const data = hostileStream(kind, VT_MIB * MIB);
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t = new Terminal({ cols, rows, scrollback: SCROLLBACK });
    const start = performance.now();
    for (let i = 0; i < data.length; i += CHUNK) t.write(data.subarray(i, i + CHUNK));
    best = Math.min(best, performance.now() - start);
  }
  return data.length / MIB / (best / 1000);
}

const AGENT = new URL("../tests/fixtures/pty_agents/hostile.ts", import.meta.url).pathname;
const dir = Deno.makeTempDirSync({ prefix: "uuldana-hostile-bench-" });

/** Peak RSS (MB) of `uuldana run` while its agent prints `kind` (RUN_MIB MiB of it). */
async function peakRss(kind: HostileKind, cols: number, rows: number): Promise<number> {
  const home = Deno.makeTempDirSync({ dir });
  const bin = join(home, "agent");
  Deno.writeTextFileSync(
    bin,
    `#!/bin/sh\ncase "$1" in --version) echo 1.0.0; exit 0;; --help) echo usage; exit 0;; esac\n` +
      `exec '${Deno.execPath()}' run -q -A --no-config '${AGENT}' - ${kind}:${RUN_MIB * MIB}\n`,
  );
  Deno.chmodSync(bin, 0o755);
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ chain: ["gemini"], agents: { gemini: { bin } } }),
  );
  const child = new Deno.Command(UULDANA[0], {
    args: [...UULDANA.slice(1), "run", "gemini", "--cols", String(cols), "--rows", String(rows)],
    env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json"), SHELL: "/bin/sh" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${child.pid}/status`));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch { /* exited */ }
  }, 20);
  let tail = "";
  for await (const chunk of child.stdout) {
    tail = (tail + new TextDecoder().decode(chunk)).slice(-200);
  }
  clearInterval(sample);
  await child.stdin.close().catch(() => {});
  await child.status;
  if (!tail.includes("flooded 1")) {
    throw new Error(`${kind}: the agent's output did not all arrive`);
  }
  return peakKb / 1024;
}

console.log(
  `VT throughput, ${VT_MIB} MiB per kind in ${
    CHUNK / 1024
  } KiB writes, scrollback ${SCROLLBACK}, ` +
    `best of ${ROUNDS}; peak RSS of the whole \`uuldana run\` while its agent prints ${RUN_MIB} MiB\n`,
);
console.log(
  "| stream kind | 120x40 MiB/s | 400x100 MiB/s | run peak RSS 120x40 (MB) | run peak RSS 400x100 (MB) |",
);
console.log("| --- | ---: | ---: | ---: | ---: |");
let worstMibs = Infinity;
let worstRss = 0;
const only = Deno.args.includes("--kind") ? Deno.args[Deno.args.indexOf("--kind") + 1] : null;
for (const kind of HOSTILE_KINDS.filter((k) => only === null || only.split(",").includes(k))) {
  const mibs = SIZES.map(([c, r]) => throughput(kind, c, r));
  const rss: number[] = [];
  for (const [c, r] of SIZES) rss.push(await peakRss(kind, c, r));
  worstMibs = Math.min(worstMibs, ...mibs);
  worstRss = Math.max(worstRss, ...rss);
  console.log(
    `| ${kind} | ${mibs.map((m) => m.toFixed(1)).join(" | ")} | ${
      rss.map((m) => m.toFixed(1)).join(" | ")
    } |`,
  );
}
Deno.removeSync(dir, { recursive: true });
console.log(
  `\nworst: ${worstMibs.toFixed(1)} MiB/s (target ≥ 20), peak RSS ${worstRss.toFixed(1)} MB ` +
    `(target ≤ 100)`,
);
