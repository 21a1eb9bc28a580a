/**
 * What uuldana's channel hooks cost real Claude Code per turn. Runs `claude -p` against the local
 * mock (`anthropic_mock.ts`, mode `ok`: 127.0.0.1, placeholder token, a scratch HOME) RUNS times
 * without and RUNS times with the `--settings` hooks uuldana adds (`claudeSettings` with the
 * relay, exactly as a run launches them), interleaved, and reports the medians: the whole run,
 * start → the model request (SessionStart and UserPromptSubmit run before it) and the model's
 * answer → exit (Stop, SessionEnd), the hooks that fired (the relay's records) and the added time
 * per hook. Then the relay alone: `/bin/sh relay-v1.sh DIR Stop` with a 2 KiB payload, 200 times.
 *
 *   deno run -A tools/real-agents/claude_hook_latency.ts [--version 2.1.332] [--runs 10]
 *     [--agents-dir /work/agents]
 *
 * Claude comes from AGENTS_DIR/claude@VERSION (default $AGENTS_DIR, else /work/agents). The
 * machine's load is printed beside the numbers: on a shared 2-core machine they move with it.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { claudeSettings } from "../../adapters/claude.ts";
import { RELAY_FILE, relayAt, relayScript } from "../../adapters/channels/relay.ts";
import { CHANNEL_INDEX } from "../../adapters/channel.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    version: { type: "string", default: "2.1.332" },
    runs: { type: "string", default: "10" },
    "agents-dir": { type: "string", default: Deno.env.get("AGENTS_DIR") ?? "/work/agents" },
  },
});
const runs = Number(values.runs);
const bin = join(values["agents-dir"]!, `claude@${values.version}`, "node_modules/.bin/claude");
const here = new URL(".", import.meta.url).pathname;
const work = mkdtempSync("/tmp/claude-hook-latency-");
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
// CPU time (ms) of this process' reaped children and theirs (cutime + cstime, 100 ticks a second):
// unlike wall time, it hardly moves with the machine's load.
const childCpuMs = () => {
  const f = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(f[13]) + Number(f[14])) * 10;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

// The mock, its answers timed as they are logged.
writeFileSync(join(work, "mode"), "ok");
const mock = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    join(here, "anthropic_mock.ts"),
    "0",
    join(work, "bodies"),
    join(work, "mode"),
  ],
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn();
const answers: number[] = [];
let port = 0;
const portSeen = Promise.withResolvers<void>();
(async () => {
  let buf = "";
  for await (const chunk of mock.stderr.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const m = /^mock on (\d+)/.exec(line);
      if (m) (port = Number(m[1]), portSeen.resolve());
      const a = /^answered \S+ \d+ (\d+)/.exec(line);
      if (a) answers.push(Number(a[1]));
    }
  }
})();
await portSeen.promise;

const home = join(work, "home");
const ws = join(work, "ws");
mkdirSync(join(home, ".claude"), { recursive: true });
mkdirSync(ws);
writeFileSync(
  join(home, ".claude.json"),
  JSON.stringify({
    hasCompletedOnboarding: true,
    projects: { [ws]: { hasTrustDialogAccepted: true } },
  }),
);
const relay = join(work, RELAY_FILE);
writeFileSync(relay, relayScript(), { mode: 0o700 });

interface Sample {
  total: number;
  cpu: number;
  toRequest: number;
  afterAnswer: number;
  hooks: number;
}

async function once(hooks: boolean, i: number): Promise<Sample> {
  const dir = join(work, `ch-${i}-${hooks}`);
  mkdirSync(dir, { mode: 0o700 });
  const settings = hooks
    ? ["--settings", claudeSettings({ channel: relayAt(relay, dir).command })]
    : [];
  const before = answers.length;
  const cpu0 = childCpuMs();
  const t0 = Date.now();
  const out = await new Deno.Command(bin, {
    args: ["-p", "say hi", ...settings],
    cwd: ws,
    clearEnv: true,
    env: {
      PATH: "/usr/bin:/bin",
      HOME: home,
      CLAUDE_CODE_OAUTH_TOKEN: "dummy-not-a-real-token",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const t1 = Date.now();
  if (!out.success) throw new Error(`claude -p failed: ${new TextDecoder().decode(out.stderr)}`);
  const mine = answers.slice(before);
  let fired = 0;
  try {
    fired = readFileSync(join(dir, CHANNEL_INDEX), "utf8").trim().split("\n").filter((l) => l)
      .length;
  } catch { /* none fired */ }
  return {
    total: t1 - t0,
    cpu: childCpuMs() - cpu0,
    toRequest: (mine[0] ?? t1) - t0,
    afterAnswer: t1 - (mine.at(-1) ?? t0),
    hooks: fired,
  };
}

console.log(`Claude Code ${values.version} (${bin}), ${runs} runs each, load ${load()}`);
const plain: Sample[] = [];
const hooked: Sample[] = [];
await once(false, -1); // warm the page cache
for (let i = 0; i < runs; i++) {
  plain.push(await once(false, i));
  hooked.push(await once(true, i));
}
const row = (name: string, s: Sample[]) =>
  `${name.padEnd(18)} total ${median(s.map((x) => x.total))} ms (CPU ${
    median(s.map((x) => x.cpu))
  } ms) · start→request ${median(s.map((x) => x.toRequest))} ms · answer→exit ${
    median(s.map((x) => x.afterAnswer))
  } ms · hooks fired ${median(s.map((x) => x.hooks))}`;
console.log(row("without our hooks", plain));
console.log(row("with our hooks", hooked));
const added = median(hooked.map((x) => x.total)) - median(plain.map((x) => x.total));
const fired = median(hooked.map((x) => x.hooks));
const addedCpu = median(hooked.map((x) => x.cpu)) - median(plain.map((x) => x.cpu));
console.log(
  `added: ${added} ms a run (median difference), ${(added / Math.max(1, fired)).toFixed(1)} ms ` +
    `a hook over ${fired} hooks; CPU ${addedCpu} ms a run, ` +
    `${(addedCpu / Math.max(1, fired)).toFixed(1)} ms a hook; load ${load()}`,
);

// The relay alone, as Claude runs it (a shell, the hook's JSON on stdin), beside the cost of
// starting any shell on this machine at this load (`/bin/sh -c :`).
const payload = JSON.stringify({
  hook_event_name: "Stop",
  last_assistant_message: "x".repeat(2000),
});
const dir = join(work, "relay-only");
mkdirSync(dir, { mode: 0o700 });
async function spawnTimes(args: string[], n: number): Promise<{ wall: number[]; cpu: number }> {
  const wall: number[] = [];
  const cpu0 = childCpuMs();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const p = new Deno.Command("/bin/sh", { args, stdin: "piped" }).spawn();
    const w = p.stdin.getWriter();
    await w.write(new TextEncoder().encode(payload));
    await w.close();
    await p.status;
    wall.push(performance.now() - t0);
  }
  return { wall, cpu: (childCpuMs() - cpu0) / n };
}
const say = (name: string, t: { wall: number[]; cpu: number }) =>
  `${name}: median ${median(t.wall).toFixed(1)} ms, p95 ${p95(t.wall).toFixed(1)} ms, CPU ` +
  `${t.cpu.toFixed(1)} ms a call`;
const bare = await spawnTimes(["-c", "cat >/dev/null"], 200);
const relayed = await spawnTimes([relay, dir, "Stop"], 200);
console.log(`${say("a bare shell", bare)}; ${say("the relay", relayed)}`);
console.log(`relay records: ${readdirSync(dir).length - 1} of 200; load ${load()}`);
mock.kill();
rmSync(work, { recursive: true, force: true });
