/**
 * The chain's members: which agents, in which order, and the road each takes a handoff on. Pure:
 * the shell looks the agents up (PATH, `--version`) and hands the results in.
 *
 * @module
 */
import type { Adapter, Found } from "../../adapters/adapter.ts";
import type { AgentConfig, Road } from "../config/config.ts";
import { UsageError } from "../errors.ts";

/** One agent of a chain, as looked up on this machine. */
export interface Member {
  /** The agent's name (its adapter's). */
  name: string;
  adapter: Adapter;
  /** Where it is installed, or null when it is not. */
  found: Found | null;
  /** Its settings from the config (defaults when the config does not name it). */
  config: AgentConfig;
}

/** Whether a member can run at all: installed and not disabled in the config. */
export function usable(member: Member): boolean {
  return member.found !== null && !member.config.disabled;
}

/** The road an automatic handoff to `member` travels: the config's, else the adapter's default. */
export function roadOf(member: Member): Road {
  return member.config.road ?? member.adapter.defaultRoad;
}

/** The one wording of an agent name uuldana does not know; `hint` says what to do there. */
export function unknownAgentError(
  name: string,
  hint = "see `uuldana agents` for the agents uuldana knows",
): UsageError {
  return new UsageError(`unknown agent "${name}"`, hint);
}

/**
 * The chain's agent names, each once, in order: `first` then `then` (or the rest of the configured
 * chain), or the configured chain alone.
 */
export function chainNames(
  configured: readonly string[],
  first: string | null,
  then: readonly string[] | null,
): string[] {
  const names = first ? [first, ...(then ?? configured.filter((n) => n !== first))] : configured;
  return [...new Set(names)];
}

/** The adapters for `names`; throws {@link unknownAgentError} for the first unknown one. */
export function chainAdapters(
  names: readonly string[],
  byName: (name: string) => Adapter | null | undefined,
): Adapter[] {
  return names.map((name) => {
    const adapter = byName(name);
    if (!adapter) throw unknownAgentError(name);
    return adapter;
  });
}
