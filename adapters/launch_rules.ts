/**
 * Checks every launch shares: the Linux argv string limit, no resume flags on a handoff, a text
 * that a flag parser cannot mistake for an option. Pure.
 *
 * @module
 */
import { MAX_ARG_BYTES } from "../src/arg_limit.ts";
import { UuldanaError } from "../src/errors.ts";
import type { Launch, LaunchRequest, Road } from "./adapter.ts";

/** A launch that cannot be built as asked (unsupported road, text too big, resume flag). */
export class RoadError extends UuldanaError {
  constructor(message: string, hint?: string) {
    super(message, 1, hint);
    this.name = "RoadError";
  }
}

/** Roads whose launch needs the agent to accept an initial prompt (proved by `--help`). */
export function roadNeedsProof(road: Road): boolean {
  return road === "hook" || road === "prompt";
}

/** Throws unless `road` is one of `roads`. */
export function requireRoad(agent: string, road: Road, roads: readonly Road[]): void {
  if (!roads.includes(road)) {
    throw new RoadError(
      `${agent} cannot take a handoff by the ${road} road`,
      `roads for ${agent}: ${roads.join(", ")}`,
    );
  }
}

/** Throws when `text` does not fit in one argv string. */
export function requireArgFits(agent: string, text: string): void {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_ARG_BYTES) {
    throw new RoadError(
      `the handoff for ${agent} is ${bytes} bytes, more than one command-line argument can hold (${MAX_ARG_BYTES})`,
      "compose a shorter handoff (the full text stays in the handoff file) or use the paste road",
    );
  }
}

/**
 * `--name=value` as one argument, checked against the argv size limit. Option parsers (yargs,
 * commander) take everything after the first `=` as the value, so a text that starts with `-`
 * or holds newlines is never read as a flag. The agent's `--help` proves the long option exists.
 */
export function optionWithValue(agent: string, name: string, value: string): string {
  const arg = `${name}=${value}`;
  requireArgFits(agent, arg);
  return arg;
}

/**
 * The launch of an agent whose opening prompt is the value of one option (`--option=TEXT`): a
 * fresh session without a handoff, the prompt road with one, and the paste road as a fresh start.
 */
export function optionPromptLaunch(
  agent: string,
  option: string,
  roads: readonly Road[],
  resumeFlags: readonly string[],
): (req: LaunchRequest) => Launch {
  return (req) => {
    if (req.handoff === null) return { argv: [req.bin, ...req.extraArgs] };
    requireRoad(agent, req.road, roads);
    refuseResume(agent, req.extraArgs, resumeFlags);
    if (req.road === "paste") return { argv: [req.bin, ...req.extraArgs] };
    return {
      argv: [req.bin, ...req.extraArgs, optionWithValue(agent, option, req.handoff)],
      opening: req.handoff,
    };
  };
}

/** Throws when `extraArgs` hold a flag that would resume or continue an old session. */
export function refuseResume(
  agent: string,
  extraArgs: readonly string[],
  resumeFlags: readonly string[],
): void {
  const flag = resumeFlagIn(extraArgs, resumeFlags);
  if (flag !== undefined) {
    throw new RoadError(
      `a handoff starts a new ${agent} session, but the extra arguments hold ${flag}`,
      `remove ${flag} from agents.${agent}.args in the config or from the command line`,
    );
  }
}

/** The first of `resumeFlags` that `args` hold (as `FLAG` or `FLAG=value`), if any. */
export function resumeFlagIn(
  args: readonly string[],
  resumeFlags: readonly string[],
): string | undefined {
  for (const arg of args) {
    const flag = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (resumeFlags.includes(flag)) return flag;
  }
  return undefined;
}
