/**
 * Carrying out a `Launch`'s preliminaries: writing its files (0600) and running its `prepare`
 * command (e.g. `opencode import`), giving the final argv to spawn. I/O.
 *
 * @module
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Launch } from "./adapter.ts";
import { runProbe } from "./probe.ts";
import { RoadError } from "./launch_rules.ts";
import { watchedArgv } from "../src/pty/watched_child.ts";

/**
 * How long a `prepare` command may take: `kilo import` took 50–60 s on a 2-core machine at load
 * 15–20 (it needs about 3 s of CPU).
 */
export const PREPARE_TIMEOUT_MS = 120_000;

/**
 * Writes `launch.files` (mode 0600 unless given; missing folders 0700), runs `launch.prepare` in `workspace` and returns
 * the argv to spawn. Throws `RoadError` when the prepare command fails or times out.
 */
export async function materializeLaunch(
  launch: Launch,
  workspace: string,
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<string[]> {
  for (const f of launch.files ?? []) {
    const mode = f.mode ?? 0o600;
    // A file in a folder of its own (Copilot's plugin) gets a private one.
    mkdirSync(dirname(f.path), { recursive: true, mode: 0o700 });
    writeFileSync(f.path, f.content, { mode });
    chmodSync(f.path, mode);
  }
  if (!launch.prepare) return launch.argv;
  // Killed with uuldana: a SIGKILL mid-switch must leave no import running on its own.
  const [bin, ...args] = watchedArgv(launch.prepare.argv, Deno.pid);
  const out = await runProbe(bin, args, {
    cwd: workspace,
    env: { ...launch.env, ...opts.env },
    timeoutMs: opts.timeoutMs ?? PREPARE_TIMEOUT_MS,
  });
  if (out.timedOut || out.code !== 0) {
    const why = out.timedOut ? "timed out" : `exited with ${out.code}`;
    throw new RoadError(
      `'${launch.prepare.argv.slice(0, 2).join(" ")}' ${why}`,
      (out.stderr || out.stdout).trim().split("\n").slice(-3).join(" | ") || undefined,
    );
  }
  return launch.prepare.finish(out.stdout);
}
