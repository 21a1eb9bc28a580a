/**
 * What the switch benchmarks share: tiny shell agents that answer `--version`/`--help` like the
 * real CLIs, and one `uuldana run claude --then codex` in a scratch folder, typed into, until it
 * exits. The next agent writes a nanosecond timestamp as its first act (`t1`) and its arguments to
 * `prompt`; the first one writes `t0` where the benchmark starts its clock.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UULDANA } from "../tests/_paths.ts";

/** Writes an executable shell agent at `path`: `--version`, `--help`, else `body`. */
export function fakeAgent(path: string, body: string, version: string, usage: string): void {
  Deno.writeTextFileSync(
    path,
    `#!/bin/sh
case "$1" in --version) echo "${version}"; exit 0;; --help) echo "${usage}"; exit 0;; esac
${body}
`,
  );
  Deno.chmodSync(path, 0o755);
}

/**
 * Writes the next agent (a Codex-like one) and the config into `dir`, runs uuldana there, types
 * `keys` once the first agent had `settleMs` to reach its prompt, and waits for uuldana to exit
 * (killed after `killMs`; with `readyFile`, the keys wait until the first agent creates it). Returns ms from `t0` to `t1`, or NaN when the next agent never started
 * with a framed handoff.
 */
export async function timeSwitch(
  dir: string,
  keys: Uint8Array,
  opts: { settleMs: number; killMs?: number; readyFile?: string },
): Promise<number> {
  const [t0, t1, prompt] = ["t0", "t1", "prompt"].map((f) => join(dir, f));
  fakeAgent(
    join(dir, "codex"),
    `date +%s%N > '${t1}'\nprintf '%s' "$*" > '${prompt}'`,
    "codex-cli 0.171.0",
    "Usage: codex [OPTIONS] [PROMPT]",
  );
  Deno.writeTextFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      chain: ["claude", "codex"],
      agents: { claude: { bin: join(dir, "claude") }, codex: { bin: join(dir, "codex") } },
    }),
  );
  const child = new Deno.Command(UULDANA[0], {
    args: [...UULDANA.slice(1), "run", "claude", "--then", "codex"],
    cwd: dir,
    env: { UULDANA_HOME: join(dir, "home"), UULDANA_CONFIG: join(dir, "config.json") },
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  // Keys typed before uuldana runs the agent are held only up to a bound (src/session/keyboard.ts):
  // with `readyFile`, the agent says it started (on a loaded machine that takes seconds).
  for (let waited = 0; opts.readyFile && waited < 30_000; waited += 10) {
    if (existsSync(opts.readyFile)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, opts.settleMs));
  await w.write(keys);
  const killer = opts.killMs ? setTimeout(() => child.kill("SIGKILL"), opts.killMs) : undefined;
  await child.status;
  clearTimeout(killer);
  await w.close().catch(() => {});
  const ns = (p: string) => BigInt(Deno.readTextFileSync(p).trim());
  try {
    if (!Deno.readTextFileSync(prompt).includes("BEGIN UULDANA HANDOFF")) return NaN;
    return Number(ns(t1) - ns(t0)) / 1e6;
  } catch {
    return NaN; // no switch
  }
}
