/**
 * `uuldana agents [--json]`: every agent uuldana knows, whether it is installed, its version,
 * whether its `--help` proves an initial prompt, and how it takes a handoff.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { loadConfig } from "../config/config.ts";
import { dataDir, ensurePrivateDir } from "../config/paths.ts";
import { Journal } from "../journal/journal.ts";
import { ADAPTERS } from "../../adapters/registry.ts";
import { type AgentStatus, describeAgent } from "../../adapters/find.ts";
import { bold, dim, green, red, yellow } from "./style.ts";
import { type LimitState, limitState } from "../chain/limits.ts";
import { agentConfig } from "../config/config.ts";
import { channelLine, type ChannelState, channelState } from "../../adapters/channel_status.ts";

/**
 * An agent's status with its state in the limit ledger (null: no limit seen, or cleared) and its
 * channel (hooks, or the screen only and why).
 */
export type AgentReport = AgentStatus & { limit: LimitState | null; channel: ChannelState };

/** Probes every adapter in parallel (each probe ~3 s at most), with each one's ledger state. */
export async function agentStatuses(): Promise<AgentReport[]> {
  const config = loadConfig();
  let journal: Journal | undefined;
  try {
    journal = Journal.open(ensurePrivateDir(dataDir()));
  } catch {
    journal = undefined; // the proof cache is an optimisation; listing agents works without it
  }
  try {
    const limits = journal?.latestLimits() ?? new Map();
    const channels = journal?.latestChannels() ?? new Map();
    const now = new Date();
    const statuses = await Promise.all(ADAPTERS.map((a) => describeAgent(a, config, journal)));
    return statuses.map((s, i) => {
      const entry = limits.get(s.name);
      const cfg = agentConfig(config, s.name);
      const latest = channels.get(s.name);
      const channel = channelState(
        ADAPTERS[i],
        { extraArgs: cfg.args, env: cfg.env, version: s.version },
        latest ? { runId: latest.runId, endedAt: latest.endedAt, ...latest.channel } : null,
      );
      return { ...s, limit: entry ? limitState(entry, now) : null, channel };
    });
  } finally {
    journal?.close();
  }
}

/** Human-readable lines for `uuldana agents`. */
export function renderAgents(statuses: readonly AgentReport[]): string {
  const out: string[] = [];
  for (const s of statuses) {
    const head = `${bold(s.name)} ${dim(`(${s.displayName})`)}`;
    const off = s.disabled ? ` ${yellow("[disabled in config]")}` : "";
    if (!s.found) {
      out.push(`${red("✗")} ${head}  not found${off}`);
      if (s.problem) out.push(`    ${yellow(s.problem)}`);
      out.push(`    install: ${s.installHint}`);
      continue;
    }
    out.push(`${green("✓")} ${head}  ${s.version ?? "version unknown"}  ${s.path}${off}`);
    if (s.proof?.accepted) out.push(`    initial prompt: yes  ${dim(`"${s.proof.line}"`)}`);
    else if (s.proof?.inconclusive) {
      out.push(`    initial prompt: ${yellow("unknown")}  ${dim(s.proof.reason ?? "")}`);
    } else out.push(`    initial prompt: ${yellow("no")}  ${dim(s.proof?.reason ?? "")}`);
    if (s.proof?.note) out.push(`    ${dim(s.proof.note)}`);
    const roads = s.roads.map((r) => (r === s.defaultRoad ? `${r} (default)` : r)).join(", ");
    out.push(`    roads: ${roads}`);
    out.push(`    ${s.channel.why ? dim(channelLine(s.channel)) : channelLine(s.channel)}`);
    if (s.limit) out.push(`    ${s.limit.limited ? yellow(s.limit.line) : dim(s.limit.line)}`);
    if (s.handoffInArgv) {
      out.push(
        `    ${
          yellow("!")
        } the ${s.defaultRoad} road puts the handoff in ${s.name}'s command line: ` +
          "other local users can read it while it runs (see `uuldana doctor`)",
      );
    }
    if (s.problem) out.push(`    ${yellow(s.problem)}`);
  }
  return out.join("\n");
}

/** `uuldana agents`: list the agents uuldana knows, whether they are installed and how they take a handoff. */
export function agentsCommand() {
  return new Command("agents")
    .description(
      "list the agents uuldana knows, whether they are installed and how they take a handoff",
    )
    .option(
      "--json",
      "print a JSON array of {name, found, path, version, acceptsInitialPrompt, proof, roads, defaultRoad, handoffInArgv, limit, channel, …}",
    )
    .addHelpText(
      "after",
      `
Examples:
  uuldana agents                  installed?, version, opening-prompt proof, roads, channel
  uuldana agents --json | jq -r '.[] | select(.found) | .name'`,
    )
    .action(async (opts) => {
      const statuses = await agentStatuses();
      console.log(opts.json ? JSON.stringify(statuses, null, 2) : renderAgents(statuses));
    });
}
