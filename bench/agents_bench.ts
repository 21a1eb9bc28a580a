/**
 * `uuldana agents` with real agents installed, the code before (a git revision, by default the
 * last commit before the probe cache) next to this checkout, side by side in one run:
 *
 *   tools/deno.sh run -A bench/agents_bench.ts [--agents-dir /work/agents] [--agents a,b] [--rounds N]
 *     [--base REV] [--refresh]
 *
 * Each agent is the newest `<name>@<version>/node_modules/.bin/<name>` under `--agents-dir`
 * (the layout of /work/agents/install.sh), pointed at by a config; every run has the same scratch
 * HOME (warmed once, so no agent's first-run setup is counted). Per round and side: **cold**, an
 * empty data directory (nothing cached), then **warm**, the same command again. Printed: the wall
 * time of the whole `uuldana agents --json` process (Deno's start included) and how many agents
 * it reported a version and a conclusive opening-prompt proof for (and how many of those proofs
 * came from the real-agent record, no `--help` run). `--refresh`: every look is
 * `uuldana agents --refresh`, so every `--help` really runs (what a cold look cost before the
 * record was used). The load average is printed beside each round: on a shared machine it moves
 * every number.
 *
 * @module
 */
import { join } from "node:path";
import { loadavg } from "node:os";
import { REPO_DIR, V8_FLAGS } from "../tests/_paths.ts";
import { compareVersions } from "../adapters/tested.ts";

const arg = (name: string, fallback: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
};
// The seven of issue 23's target by default; `--agents claude,pi,auggie` for others.
const AGENTS = arg("--agents", "claude,codex,gemini,opencode,qwen,copilot,kilo").split(",");
const AGENTS_DIR = arg("--agents-dir", "/work/agents");
const ROUNDS = Number(arg("--rounds", "3"));
const BASE = arg("--base", "b5aa1a5");
// `--refresh`: every look runs `uuldana agents --refresh` (every --help really run, no record).
const REFRESH = Deno.args.includes("--refresh");

/** The newest installed version of each agent under `dir`. */
function installedAgents(dir: string): Record<string, string> {
  const bins: Record<string, string> = {};
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name);
  for (const agent of AGENTS) {
    const versions = names.filter((n) => n.startsWith(`${agent}@`)).map((n) =>
      n.slice(agent.length + 1)
    )
      .filter((v) => {
        try {
          return Deno.statSync(join(dir, `${agent}@${v}`, "node_modules", ".bin", agent)).isFile;
        } catch {
          return false;
        }
      }).sort(compareVersions);
    const newest = versions.at(-1);
    if (newest) bins[agent] = join(dir, `${agent}@${newest}`, "node_modules", ".bin", agent);
  }
  return bins;
}

/** A copy of the repository at `rev` (its tracked files), to run the code before. */
function checkout(rev: string, into: string): void {
  const q = (x: string) => `'${x.replaceAll("'", `'\\''`)}'`;
  const out = new Deno.Command("sh", {
    args: ["-c", `git -C ${q(REPO_DIR)} archive --format=tar ${q(rev)} | tar -x -C ${q(into)}`],
  }).outputSync();
  if (!out.success) throw new Error(`git archive ${rev}: ${new TextDecoder().decode(out.stderr)}`);
}

interface Look {
  /** Wall time of the whole process. */
  ms: number;
  /** CPU time (user + system) of it and the probes it waited for; null without /usr/bin/time. */
  cpuMs: number | null;
  versions: number;
  proofs: number;
  /** Of the proofs, how many came from the real-agent record (no --help run). */
  recorded: number;
}

const TIME = (() => {
  try {
    return Deno.statSync("/usr/bin/time").isFile ? "/usr/bin/time" : null;
  } catch {
    return null;
  }
})();

/** One `uuldana agents --json` from the tree at `root`, with data in `data`. */
async function look(root: string, data: string, env: Record<string, string>): Promise<Look> {
  const argv = [
    Deno.execPath(),
    ...uuldanaArgs(root),
    "agents",
    "--json",
    ...(REFRESH ? ["--refresh"] : []),
  ];
  const cpuFile = join(work, "cpu");
  const [cmd, ...args] = TIME ? [TIME, "-o", cpuFile, "-f", "%U %S", ...argv] : argv;
  const started = performance.now();
  const out = await new Deno.Command(cmd, {
    args,
    env: { ...env, UULDANA_HOME: data },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const cpuMs = TIME
    ? Deno.readTextFileSync(cpuFile).trim().split(/\s+/).map(Number).reduce((a, b) => a + b, 0) *
      1000
    : null;
  const list = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    name: string;
    found: boolean;
    version: string | null;
    proof: { inconclusive?: boolean; recorded?: unknown } | null;
  }[];
  const found = list.filter((a) => a.found && AGENTS.includes(a.name));
  return {
    ms,
    cpuMs,
    versions: found.filter((a) => a.version !== null).length,
    proofs: found.filter((a) => a.proof && !a.proof.inconclusive).length,
    recorded: found.filter((a) => a.proof?.recorded).length,
  };
}

/** `deno run` arguments that start the uuldana of checkout `root` as `deno task start` does. */
function uuldanaArgs(root: string): string[] {
  return [
    "run",
    "-A",
    "--quiet",
    V8_FLAGS,
    "--config",
    join(root, "deno.json"),
    join(root, "mod.ts"),
  ];
}

const bins = installedAgents(AGENTS_DIR);
console.log(
  `agents: ${Object.entries(bins).map(([n, p]) => `${n} ${p.split("/").at(-4)}`).join(", ")}`,
);
if (Object.keys(bins).length === 0) {
  console.error(
    `no agents under ${AGENTS_DIR} (its layout: <name>@<version>/node_modules/.bin/<name>)`,
  );
  Deno.exit(2);
}
const work = Deno.makeTempDirSync({ prefix: "uuldana-agents-bench-" });
const home = join(work, "home");
Deno.mkdirSync(home);
const config = join(work, "config.json");
Deno.writeTextFileSync(
  config,
  JSON.stringify({
    agents: Object.fromEntries(Object.entries(bins).map(([n, p]) => [n, { bin: p }])),
  }),
);
const before = join(work, "before");
Deno.mkdirSync(before);
checkout(BASE, before);
const env = { HOME: home, UULDANA_CONFIG: config, PATH: "/usr/bin:/bin", NO_COLOR: "1" };
const sides = { before, now: REPO_DIR } as const;
// Warm the agents' own first start (their HOME setup), not uuldana's cache.
await look(REPO_DIR, join(work, "warmup"), env);

const results: Record<string, { cold: Look[]; warm: Look[] }> = {
  before: { cold: [], warm: [] },
  now: { cold: [], warm: [] },
};
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? ["before", "now"] as const : ["now", "before"] as const;
  for (const side of order) {
    const data = join(work, `data-${side}-${round}`);
    const load = loadavg()[0].toFixed(1);
    const cold = await look(sides[side], data, env);
    const warm = await look(sides[side], data, env);
    results[side].cold.push(cold);
    results[side].warm.push(warm);
    const fmt = (l: Look) =>
      `${(l.ms / 1000).toFixed(2)} s${
        l.cpuMs === null ? "" : ` (CPU ${(l.cpuMs / 1000).toFixed(2)} s)`
      }, ${l.versions}/${
        Object.keys(bins).length
      } versions, ${l.proofs} proofs (${l.recorded} from the record)`;
    console.log(
      `round ${round} ${side.padEnd(6)} load ${load}: cold ${fmt(cold)}, warm ${fmt(warm)}`,
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const span = (xs: number[]) =>
  `${median(xs).toFixed(2)} s (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
const wall = (ls: Look[]) => span(ls.map((l) => l.ms / 1000));
const cpu = (ls: Look[]) => ls[0].cpuMs === null ? "—" : span(ls.map((l) => l.cpuMs! / 1000));
console.log(
  `\n| ${
    Object.keys(bins).length
  } real agents | cold wall | cold CPU | warm wall | warm CPU | versions found cold / warm | proofs (from the record) cold / warm |`,
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const side of ["before", "now"] as const) {
  const r = results[side];
  const v = (ls: Look[]) => ls.map((l) => l.versions).join(",");
  const p = (ls: Look[]) => ls.map((l) => `${l.proofs} (${l.recorded})`).join(",");
  console.log(
    `| ${side === "before" ? `before (${BASE})` : "now"} | ${wall(r.cold)} | ${cpu(r.cold)} | ${
      wall(r.warm)
    } | ${cpu(r.warm)} | ${v(r.cold)} / ${v(r.warm)} | ${p(r.cold)} / ${p(r.warm)} |`,
  );
}
console.log(
  `(median (min–max) of ${ROUNDS} rounds; load average ${
    loadavg().map((l) => l.toFixed(1)).join(" ")
  } at the end)`,
);
try {
  Deno.removeSync(work, { recursive: true });
} catch {
  // an agent still writing into its scratch HOME; the folder is in the system's temporary one
}
