/**
 * Records real agents' headless output for `testdata/corpus/headless/`: each agent's command as
 * `uuldana exec` launches it (adapters/headless/NAME.ts `launch`, prompt "say hello"), pointed at
 * the local mock API (mock_api.ts, agents.json), its stdout kept as `NAME-SCENARIO.jsonl`:
 *
 * - `ok`: the mock answers normally (`MOCKREPLY-1: noted.`);
 * - `limit`: every model request gets the provider's usage-limit error (agents.json's
 *   `limitProvider`, the exec matrix's);
 * - `limit-PROVIDER`: the mock's limit of that provider instead (mock_api.ts: `reset`, the chat
 *   quota whose text names its reset);
 * - `rate`: the agent's API's per-minute error lane (agents.json's `rateLane`, which clears after
 *   a few tries): the agent retries, then is answered.
 *
 * Each agent runs in a private HOME and workspace under a scratch folder, with only `PATH`, `LANG`
 * and agents.json's environment; the scratch folder's path is written `/tmp/rec`, and the agents'
 * folder `/tmp/rec/agents`, in what is kept.
 * Beside each recording: `NAME-SCENARIO.stderr` and `NAME-SCENARIO.json` (command, version, exit
 * code, seconds, the mock's requests), which the corpus does not keep.
 *
 *   deno run -A tools/real-agents/record_headless.ts --agents-dir DIR --out DIR \
 *     [--agents gemini,opencode,qwen,copilot] [--scenarios ok,limit,rate] [--timeout 1200]
 *
 * @module
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { headlessAdapter } from "../../adapters/headless/registry.ts";
import { type AgentSpec, installedAgent, Mock, prepareAgent } from "./matrix_world.ts";

const HERE = dirname(new URL(import.meta.url).pathname);
const SPECS = JSON.parse(readFileSync(join(HERE, "agents.json"), "utf8")) as Record<
  string,
  AgentSpec
>;
const PROMPT = "say hello";
/** What the scratch folder's path is written as in a recording (as the existing corpus). */
const NEUTRAL = "/tmp/rec";

function args() {
  const a = Deno.args;
  const at = (flag: string) => (a.indexOf(flag) >= 0 ? a[a.indexOf(flag) + 1] : undefined);
  const agentsDir = at("--agents-dir");
  const out = at("--out");
  if (!agentsDir || !out) throw new Error("usage: --agents-dir DIR --out DIR");
  return {
    agentsDir,
    out,
    agents: (at("--agents") ?? "gemini,opencode,qwen,copilot").split(","),
    scenarios: (at("--scenarios") ?? "ok,limit,rate").split(","),
    timeoutS: Number(at("--timeout") ?? 1200),
  };
}

/** Runs one agent in one scenario; writes its files into `out`; returns a one-line summary. */
async function record(
  name: string,
  scenario: string,
  agentsDir: string,
  out: string,
  timeoutS: number,
): Promise<string> {
  const spec = SPECS[name];
  const { bin, version } = installedAgent(agentsDir, name, spec.bin);
  const root = Deno.makeTempDirSync({ prefix: `uuldana-rec-${name}-` });
  const home = join(root, "home");
  const ws = join(root, "ws");
  for (const d of [home, ws]) mkdirSync(d, { recursive: true });
  const mock = new Mock(join(root, "mock.jsonl"));
  try {
    await mock.ready();
    if (scenario === "limit") await mock.limit(spec.limitProvider);
    else if (scenario.startsWith("limit-")) await mock.limit(scenario.slice("limit-".length));
    else if (scenario === "rate") {
      if (!spec.rateLane) return `${name} ${scenario}: agents.json names no rateLane`;
      await mock.lane(spec.rateLane);
    } else if (scenario !== "ok") throw new Error(`no scenario ${scenario}`);
    const env = prepareAgent(spec, { base: mock.base, home, ws });
    const launch = headlessAdapter(name)!.launch(bin, PROMPT, spec.args ?? []);
    const started = Date.now();
    const child = new Deno.Command(launch.argv[0], {
      args: launch.argv.slice(1),
      cwd: ws,
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...env },
      stdin: launch.stdin === null ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    if (launch.stdin !== null) {
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(launch.stdin));
      await w.close();
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        Deno.kill(-child.pid, "SIGTERM");
      } catch { /* gone */ }
    }, timeoutS * 1000);
    const res = await child.output();
    clearTimeout(timer);
    const seconds = (Date.now() - started) / 1000;
    // The scratch folder and the agents' install folder are this run's paths, not the agent's.
    const neutral = (s: string) =>
      s.replaceAll(root, NEUTRAL).replaceAll(agentsDir, `${NEUTRAL}/agents`);
    const base = join(out, `${name}-${scenario}`);
    writeFileSync(`${base}.jsonl`, neutral(new TextDecoder().decode(res.stdout)));
    writeFileSync(`${base}.stderr`, neutral(new TextDecoder().decode(res.stderr)));
    // Anything the agent left running in its process group goes with it.
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch { /* gone */ }
    const requests = mock.requests();
    writeFileSync(
      `${base}.json`,
      JSON.stringify(
        {
          agent: name,
          version,
          scenario,
          command: [`${name}`, ...launch.argv.slice(1).map(neutral)],
          limitProvider: scenario === "limit"
            ? spec.limitProvider ?? null
            : scenario.startsWith("limit-")
            ? scenario.slice("limit-".length)
            : undefined,
          lane: scenario === "rate" ? spec.rateLane : undefined,
          exitCode: res.code,
          signal: res.signal,
          timedOut,
          seconds,
          recordedAt: new Date(started).toISOString(),
          requests: requests.map((q) => ({
            at: (q.t - started) / 1000,
            path: q.path,
            limited: q.limited,
          })),
        },
        null,
        2,
      ) + "\n",
    );
    const limited = requests.filter((q) => q.limited).length;
    return `${name} ${version} ${scenario}: exit ${res.code}${timedOut ? " (timed out)" : ""}, ` +
      `${seconds.toFixed(1)} s, ${requests.length} requests (${limited} errors) → ${base}.jsonl`;
  } finally {
    mock.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  const opts = args();
  mkdirSync(opts.out, { recursive: true });
  for (const name of opts.agents) {
    for (const scenario of opts.scenarios) {
      console.log(await record(name, scenario, opts.agentsDir, opts.out, opts.timeoutS));
    }
  }
}

if (import.meta.main) await main();
