/**
 * Checks every launch shares: the Linux argv string limit, no resume flags on a handoff, a text
 * that a flag parser cannot mistake for an option. Pure.
 *
 * @module
 */
import { UuldanaError } from "../src/errors.ts";
import type { Road } from "./adapter.ts";

/** Largest single argv string on Linux (MAX_ARG_STRLEN − 1 for the NUL), in UTF-8 bytes. */
export const MAX_ARG_BYTES = 131_071;

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

/** Throws when `extraArgs` hold a flag that would resume or continue an old session. */
export function refuseResume(
  agent: string,
  extraArgs: readonly string[],
  resumeFlags: readonly string[],
): void {
  for (const arg of extraArgs) {
    const flag = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    if (resumeFlags.includes(flag)) {
      throw new RoadError(
        `a handoff starts a new ${agent} session, but the extra arguments hold ${flag}`,
        `remove ${flag} from agents.${agent}.args in the config or from the command line`,
      );
    }
  }
}
