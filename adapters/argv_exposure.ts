/**
 * Whether a road puts the handoff in the agent's process arguments, where every local user can
 * read it (`ps`, `/proc/PID/cmdline`) while the agent runs, unless `/proc` is mounted with
 * `hidepid`. Found by building the real launch with a sample text and looking, so it can never
 * drift from what the adapter does. Pure.
 *
 * @module
 */
import type { Adapter, Road } from "./adapter.ts";
import type { HeadlessAdapter } from "./headless/event.ts";

const _SAMPLE = "uuldana sample handoff 6b1f0c";

/** Whether `adapter`'s launch on `road` carries the handoff text in an argument. */
export function handoffInArgv(adapter: Adapter, road: Road): boolean {
  if (!adapter.roads.includes(road)) return false;
  try {
    const launch = adapter.launch({
      bin: "/usr/bin/agent",
      road,
      handoff: _SAMPLE,
      handoffFile: "/data/handoffs/sample.md",
      extraArgs: [],
      workspace: "/work",
      scratchDir: "/data/scratch/sample",
      version: "1.0.0",
    });
    return [...launch.argv, ...(launch.prepare?.argv ?? [])].some((a) => a.includes(_SAMPLE));
  } catch {
    return false; // a road that cannot carry this launch carries nothing
  }
}

/**
 * Whether `headless` would put a handoff in its command line in `uuldana exec` (its launch with
 * `keepOutOfArgv`): exec then refuses it as a receiver rather than expose the handoff.
 */
export function headlessHandoffInArgv(headless: HeadlessAdapter): boolean {
  const launch = headless.launch("/usr/bin/agent", _SAMPLE, [], true);
  return launch.argv.some((a) => a.includes(_SAMPLE));
}
