/**
 * The channel's cost to the agent: how long one hook of uuldana's relay takes, as the agent runs
 * it (`/bin/sh -c COMMAND` with the payload on stdin), next to a hook that only reads its stdin
 * (`cat >/dev/null`, what any hook costs), for a 1 KiB and a 256 KiB payload, one at a time and
 * 16 at once. Target: under 20 ms a hook. Each time is taken by the shell loop itself (`date
 * +%s%N` around each hook), so Deno's own process start is not in it.
 *
 *   tools/deno.sh run -A bench/channel_bench.ts [RUNS]
 *
 * The channel against the screen in one run (the time from the limit to the decision) is measured
 * by bench/channel_switch_bench.ts.
 *
 * @module
 */
import { join } from "node:path";
import { openChannelDir } from "../src/session/channel_dir.ts";
import { ChannelReader } from "../src/session/channel_reader.ts";

const runs = Number(Deno.args[0] ?? 200);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

// Runs `command` `n` times from one shell loop with `payload` on stdin: each time in ms, and the
// CPU time (user + system) its processes took per hook, which the machine's load does not inflate.
async function times(
  command: string,
  payload: string,
  n: number,
  parallel = 1,
): Promise<{ wall: number[]; cpu: number }> {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-channel-bench-" });
  const input = join(dir, "payload.json");
  Deno.writeTextFileSync(input, payload);
  const script = `
i=0
while [ "$i" -lt ${n} ]; do
  t0=$(date +%s%N)
  j=0
  while [ "$j" -lt ${parallel} ]; do /bin/sh -c ${
    JSON.stringify(command)
  } < '${input}' & j=$((j + 1)); done
  wait
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000 ))
  i=$((i + 1))
done
times`;
  const out = await new Deno.Command("/bin/sh", { args: ["-c", script], stdout: "piped" }).output();
  Deno.removeSync(dir, { recursive: true });
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  // `times`: the shell's own user/system, then its children's ("0m0.120s 0m0.340s").
  const children = lines.pop()!.match(/(\d+)m([\d.]+)s/g)!.map((t) => {
    const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t)!;
    return Number(m) * 60 + Number(sec);
  });
  lines.pop();
  const cpu = (children[0] + children[1]) * 1000 / (n * parallel);
  return { wall: lines.map((us) => Number(us) / 1000), cpu };
}

const small = JSON.stringify({ hook_event_name: "Stop", last_assistant_message: "x".repeat(1000) });
const big = JSON.stringify({
  hook_event_name: "Stop",
  last_assistant_message: "y".repeat(256 << 10),
});
const scratch = Deno.makeTempDirSync({ prefix: "uuldana-channel-bench-run-" });
const relay = openChannelDir(scratch, scratch);
const reader = new ChannelReader(relay.dir);
const load = () => Deno.loadavg()[0].toFixed(1);

console.log(`relay hooks, ${runs} each; load ${load()} on ${navigator.hardwareConcurrency} cores`);
console.log(
  "case                                    wall p50   wall p95   cpu/hook   added: wall p50, cpu",
);
for (
  const [name, payload, parallel] of [
    ["1 KiB", small, 1],
    ["256 KiB", big, 1],
    ["1 KiB, 16 at once", small, 16],
  ] as const
) {
  const n = parallel > 1 ? Math.max(10, runs / 10) : runs;
  const base = await times("cat >/dev/null", payload, n, parallel);
  const ours = await times(relay.command("Stop"), payload, n, parallel);
  let read = 0;
  for (let look = reader.look(); look.records.length || look.more; look = reader.look()) {
    read += look.records.length;
  }
  if (read !== n * parallel) throw new Error(`read ${read} records of ${n * parallel}`);
  const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(9);
  const row = (label: string, t: { wall: number[]; cpu: number }) =>
    `${label.padEnd(38)} ${ms(quantile(t.wall, 0.5))}  ${ms(quantile(t.wall, 0.95))}  ${ms(t.cpu)}`;
  console.log(row(`cat >/dev/null hook, ${name}`, base));
  console.log(
    `${row(`uuldana relay, ${name}`, ours)}  ${
      ms(quantile(ours.wall, 0.5) - quantile(base.wall, 0.5))
    }, ${ms(ours.cpu - base.cpu)}`,
  );
}
console.log(`load at the end ${load()}`);
Deno.removeSync(scratch, { recursive: true });
