/**
 * Profiles: a chain member is a name — an agent's (`claude`, a profile of itself) or a profile's
 * (`claude-api`: Claude Code on an API key). Each name has its own settings, its own place in the
 * chain and its own row in the limit ledger; detection, channels, roads and proofs follow its
 * agent. Pure: the shell hands in the adapter lookup and the environment.
 *
 * @module
 */
import type { Adapter } from "../../adapters/adapter.ts";
import type { AgentConfig, Config } from "../config/config.ts";
import { UsageError } from "../errors.ts";

/** A chain member's name resolved: its agent's adapter and its effective settings. */
export interface Profile {
  /** The member's name: a profile's, or the agent's own. */
  name: string;
  adapter: Adapter;
  /** The agent's settings with the profile's laid over them (`${VAR}` not expanded yet). */
  config: AgentConfig;
}

/** Looks an adapter up by its name. */
export type AdapterLookup = (name: string) => Adapter | null | undefined;

// The config's settings of agent `name` (config.ts's agentConfig, which this pure core cannot load).
function _agentSettings(config: Config, name: string): AgentConfig {
  return config.agents[name] ?? { args: [], env: {}, disabled: false };
}

const _FIX = "fix it in your config; `uuldana config` shows the profiles in effect";

/**
 * The member called `name`: a profile of the config, else the agent of that name (with its
 * `agents.NAME` settings), else undefined.
 */
export function profileByName(
  config: Config,
  name: string,
  byName: AdapterLookup,
): Profile | undefined {
  const p = config.profiles[name];
  if (!p) {
    const adapter = byName(name);
    return adapter ? { name, adapter, config: _agentSettings(config, name) } : undefined;
  }
  const adapter = byName(p.agent);
  if (!adapter) return undefined;
  const base = _agentSettings(config, p.agent);
  return {
    name,
    adapter,
    config: {
      bin: p.bin ?? base.bin,
      args: [...base.args, ...p.args],
      env: { ...base.env, ...p.env },
      disabled: p.disabled,
      road: p.road ?? base.road,
      stallSeconds: p.stallSeconds ?? base.stallSeconds,
      ...(p.retryLoopSeconds ?? base.retryLoopSeconds) !== undefined
        ? { retryLoopSeconds: p.retryLoopSeconds ?? base.retryLoopSeconds }
        : {},
      ...(p.handoffEarly ?? base.handoffEarly) !== undefined
        ? { handoffEarly: p.handoffEarly ?? base.handoffEarly }
        : {},
    },
  };
}

/** Every member name the config can run: the agents', then the profiles', in order. */
export function memberNames(config: Config, agentNames: readonly string[]): string[] {
  return [...agentNames, ...Object.keys(config.profiles)];
}

/**
 * Checks the profiles of `config` against the agents uuldana knows: each names a known agent (not
 * itself, not another profile), none is named like an agent, and none the chain names is disabled.
 * Throws a {@link UsageError} (exit 2) naming the first problem.
 */
export function checkProfiles(config: Config, byName: AdapterLookup): void {
  for (const [name, p] of Object.entries(config.profiles)) {
    const at = `invalid config ${config.path}: profile "${name}"`;
    if (byName(name)) {
      throw new UsageError(
        `${at} is named like the agent ${name}; give the profile its own name (e.g. "${name}-work")`,
        `settings for the agent itself go under "agents": {"${name}": {…}}`,
      );
    }
    if (p.agent === name) {
      throw new UsageError(
        `${at} names itself as its agent`,
        `"agent" must be the agent it runs (claude, codex, gemini, …)`,
      );
    }
    if (config.profiles[p.agent]) {
      throw new UsageError(
        `${at} names the profile "${p.agent}" as its agent; a profile runs an agent, not a profile`,
        `set "agent" to ${
          config.profiles[p.agent].agent
        }, and copy what it needs from "${p.agent}"`,
      );
    }
    if (!byName(p.agent)) {
      throw new UsageError(
        `${at} names the unknown agent "${p.agent}"`,
        "see `uuldana agents` for the agents uuldana knows",
      );
    }
    if (p.disabled && config.chain.includes(name)) {
      throw new UsageError(
        `${at} is disabled but the chain names it`,
        `take "${name}" out of "chain", or remove "disabled" from the profile; ${_FIX}`,
      );
    }
  }
}

const _VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The `${VAR}` names `cfg`'s env values refer to that `env` does not set (or sets empty). */
export function missingVariables(
  cfg: AgentConfig,
  env: (name: string) => string | undefined,
): string[] {
  const missing = new Set<string>();
  for (const value of Object.values(cfg.env)) {
    for (const m of value.matchAll(_VAR)) if (!env(m[1])) missing.add(m[1]);
  }
  return [...missing];
}

/**
 * The error for a member whose `${VAR}` is not set: one line naming the member and the variable,
 * never a value.
 */
export function missingVariableError(member: string, missing: readonly string[]): UsageError {
  const vars = missing.map((v) => `\${${v}}`).join(", ");
  return new UsageError(
    `${member}: ${vars} ${missing.length > 1 ? "are" : "is"} not set in your environment ` +
      `(its env in your config reads ${missing.length > 1 ? "them" : "it"})`,
    `export ${missing[0]}=… before you start uuldana, or change the profile`,
  );
}

/**
 * `cfg.env` with `${VAR}` replaced from `env` and a leading `~/` by `home`, for the one process
 * started with it: the expanded values are never stored, printed or journaled. Throws
 * {@link missingVariableError} for a variable that is not set.
 */
export function expandEnv(
  member: string,
  cfg: AgentConfig,
  env: (name: string) => string | undefined,
  home: string | undefined,
): Record<string, string> {
  const missing = missingVariables(cfg, env);
  if (missing.length) throw missingVariableError(member, missing);
  return Object.fromEntries(
    Object.entries(cfg.env).map(([k, v]) => {
      const filled = v.replace(_VAR, (_, name: string) => env(name)!);
      return [k, home && filled.startsWith("~/") ? home + filled.slice(1) : filled];
    }),
  );
}
