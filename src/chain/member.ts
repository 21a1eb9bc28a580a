/**
 * The chain's members: which agents, in which order, and the road each takes a handoff on. Pure:
 * the shell looks the agents up (PATH, `--version`) and hands the results in.
 *
 * @module
 */
import type { Adapter, Found } from "../../adapters/adapter.ts";
import type { AgentConfig, Road } from "../config/config.ts";
import { UsageError } from "../errors.ts";
import type { Profile } from "./profile.ts";

/** One member of a chain (an agent, or a profile of one), as looked up on this machine. */
export interface Member {
  /** The member's name: a profile's, or the agent's own (its adapter's). */
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

/**
 * The members `names` resolve to (profiles or agents) through `resolve`; throws
 * {@link unknownAgentError} for the first unknown one.
 */
export function chainProfiles(
  names: readonly string[],
  resolve: (name: string) => Profile | undefined,
): Profile[] {
  return names.map((name) => {
    const profile = resolve(name);
    if (!profile) throw unknownAgentError(name, _UNKNOWN_MEMBER_HINT);
    return profile;
  });
}

const _UNKNOWN_MEMBER_HINT =
  'see `uuldana agents` for the agents uuldana knows; a profile is defined under "profiles" in your config';

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
