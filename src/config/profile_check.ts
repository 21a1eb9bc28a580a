/**
 * What must hold before a member starts: every `${VAR}` its env reads is set, and a profile changes
 * nothing uuldana adds for the agent's channel (a flag that turns its hooks off, a variable that
 * names its own settings or plugin config). Both are the user's to fix, so both are errors before
 * anything starts, never a channel silently off.
 *
 * @module
 */
import { agentConfig, type Config } from "./config.ts";
import {
  expandEnv,
  missingVariableError,
  missingVariables,
  type Profile,
} from "../chain/profile.ts";
import { UsageError } from "../errors.ts";

/** Throws a {@link UsageError} when `profile` of `config` cannot start as configured. */
export function checkLaunchable(profile: Profile, config: Config): void {
  const missing = missingVariables(profile.config, (v) => Deno.env.get(v));
  if (missing.length) throw missingVariableError(profile.name, missing);
  const p = config.profiles[profile.name];
  const channel = profile.adapter.channel;
  if (!p || !channel) return;
  // Only what the profile adds counts: the agent's own settings, or the user's environment, that
  // turn the channel off keep doing what they did for the agent alone (the run says so).
  const base = agentConfig(config, p.agent);
  const check = (args: readonly string[], env: Record<string, string>) =>
    channel.offReason({ extraArgs: args, env, version: null });
  const own = check(base.args, base.env);
  const withProfile = check(profile.config.args, profile.config.env);
  if (withProfile && withProfile !== own) {
    throw new UsageError(
      `invalid config ${config.path}: profile "${profile.name}" changes what uuldana adds for ` +
        `${profile.adapter.displayName}'s ${channel.kind}: ${withProfile}`,
      `remove that from the profile's args or env; uuldana turns the ${channel.kind} on for ` +
        "the one process it starts and never reads or writes your own settings",
    );
  }
}

/**
 * The environment `profile`'s process starts with: its env with `${VAR}` read from the user's
 * environment now and `~/` as their home. Kept in memory for that process (and its probes) only.
 */
export function launchEnv(profile: Profile): Record<string, string> {
  return expandEnv(profile.name, profile.config, (v) => Deno.env.get(v), Deno.env.get("HOME"));
}

/** `profile`'s settings as its binary is looked up and probed with: env expanded. */
export function locateConfig(profile: Profile): Profile["config"] {
  return { ...profile.config, env: launchEnv(profile) };
}
