/**
 * What the running agent's `/agent` command answers from the chain: the list of agents and their
 * state (`/agent`), and whether `/agent NAME` can switch now.
 *
 * @module
 */
import { adapterByName } from "../../../adapters/registry.ts";
import { whichBinary } from "../../../adapters/find.ts";
import { unknownAgentError } from "../../chain/member.ts";
import { profileByName } from "../../chain/profile.ts";
import { checkLaunchable } from "../../config/profile_check.ts";
import { availableAt, clock, isLimited } from "../../chain/limits.ts";
import type { Chain } from "./state.ts";

/** Why `/agent NAME` cannot switch from `current` now (a line to show), or null. */
export function switchProblem(chain: Chain, current: string, name: string): string | null {
  const m = chain.members.find((x) => x.name === name) ??
    profileByName(chain.ctx.config, name, adapterByName);
  if (!m) return `uuldana: ${unknownAgentError(name).message}; type /agent to list them`;
  if (name === current) return `uuldana: ${name} is already running`;
  const { adapter, config: cfg } = m;
  // Outside the chain nothing was looked up yet: a quick PATH check, like findAgent's.
  const installed = "found" in m
    ? m.found !== null
    : (cfg.bin ? [cfg.bin] : adapter.binNames).some((b) => whichBinary(b) !== null);
  if (!installed) {
    return `uuldana: ${adapter.displayName} is not installed (${adapter.installHint})`;
  }
  if (cfg.disabled) return `uuldana: ${name} is disabled in your config`;
  try {
    checkLaunchable({ name, adapter, config: cfg }, chain.ctx.config);
  } catch (e) {
    return `uuldana: ${(e as Error).message}`;
  }
  return null;
}

/** What `/agent` shows while `current` runs: each member, its state and its roads. */
export function agentList(chain: Chain, current: string): string {
  const { limits, now } = chain.state();
  const lines = chain.members.map((m) => {
    const limit = limits.get(m.name);
    const state = m.name === current
      ? "running"
      : m.config.disabled
      ? "disabled"
      : !m.found
      ? "not installed"
      : isLimited(limit, now)
      ? `limited until ${clock(availableAt(limit!), now)}`
      : "ready";
    return `  ${m.name.padEnd(9)} ${state.padEnd(21)} roads: ${m.adapter.roads.join(", ")}`;
  });
  return `uuldana agents (switch with /agent NAME; the handoff is pasted, you press Enter):\n${
    lines.join("\n")
  }`;
}
