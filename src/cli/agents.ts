/**
 * `uuldana agents [--json] [--refresh]`: every agent uuldana knows, whether it is installed, its
 * version, whether it takes an initial prompt (the real-agent record of that exact version, else
 * its `--help`), how it takes a handoff, and whether it is newer than the newest version the
 * real-agent matrix passed with. Probes run at once within one time budget, the chain's agents
 * first, and a binary probed before answers from the journal's cache.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { loadCheckedConfig } from "../context.ts";
import { dataDir, ensurePrivateDir } from "../config/paths.ts";
import { Journal } from "../journal/journal.ts";
import { adapterByName, ADAPTERS } from "../../adapters/registry.ts";
import { type AgentStatus, describeAgent, describeAgents } from "../../adapters/find.ts";
import { missingVariables, type Profile, profileByName } from "../chain/profile.ts";
import { locateConfig } from "../config/profile_check.ts";
import { ProbeBudget } from "../../adapters/probe.ts";
import { testedLine } from "../../adapters/tested.ts";
import { bold, dim, green, red, yellow } from "./style.ts";
import { type LimitState, limitState } from "../chain/limits.ts";
import { agentConfig } from "../config/config.ts";
import { channelLine, type ChannelState, channelState } from "../../adapters/channel_status.ts";

/**
 * An agent's status with its state in the limit ledger (null: no limit seen, or cleared) and its
 * channel (hooks, or the screen only and why).
 */
export type AgentReport = AgentStatus & {
  limit: LimitState | null;
  channel: ChannelState;
  /** For a profile (`name` is the profile's): the agent it runs. */
  profileOf?: string;
};

/**
 * Describes every adapter, all at once within one {@link ProbeBudget} (so the whole answer takes
 * at most its 20 s, whatever the agents do), with each one's ledger state. A binary probed before
 * answers from the cache unless `refresh`.
 */
export async function agentStatuses(opts: { refresh?: boolean } = {}): Promise<AgentReport[]> {
  const config = loadCheckedConfig();
  let journal: Journal | undefined;
  try {
    journal = Journal.open(ensurePrivateDir(dataDir()));
  } catch {
    journal = undefined; // the probe cache is an optimisation; listing agents works without it
  }
  try {
    const limits = journal?.latestLimits() ?? new Map();
    const channels = journal?.latestChannels() ?? new Map();
    const now = new Date();
    const budget = new ProbeBudget();
    const refresh = opts.refresh;
    const statuses = await describeAgents(ADAPTERS, config, { journal, budget, refresh });
    const report = (s: AgentStatus, p: Profile, profileOf?: string): AgentReport => {
      const entry = limits.get(p.name);
      const latest = channels.get(p.adapter.name);
      const channel = channelState(
        p.adapter,
        { extraArgs: p.config.args, env: p.config.env, version: s.version },
        latest ? { runId: latest.runId, endedAt: latest.endedAt, ...latest.channel } : null,
      );
      const missing = missingVariables(p.config, (v) => Deno.env.get(v));
      const problem = missing.length
        ? `reads ${missing.map((v) => `\${${v}}`).join(", ")}, not set in your environment`
        : s.problem;
      return {
        ...s,
        name: p.name,
        problem,
        limit: entry ? limitState(entry, now) : null,
        channel,
        ...(profileOf ? { profileOf } : {}),
      };
    };
    const agents = statuses.map((s, i) =>
      report(s, { name: s.name, adapter: ADAPTERS[i], config: agentConfig(config, s.name) })
    );
    const profiles = await Promise.all(
      Object.keys(config.profiles).map(async (name) => {
        const p = profileByName(config, name, adapterByName)!;
        // Probed as it would run, its ${VAR}s read now (a digest of them keys the cache).
        const conf = missingVariables(p.config, (v) => Deno.env.get(v)).length
          ? p.config
          : locateConfig(p);
        const s = await describeAgent(p.adapter, config, { journal, budget, refresh }, conf);
        return report(s, p, p.adapter.name);
      }),
    );
    return [...agents, ...profiles];
  } finally {
    journal?.close();
  }
}

/** Human-readable lines for `uuldana agents`. */
export function renderAgents(statuses: readonly AgentReport[]): string {
  const out: string[] = [];
  for (const s of statuses) {
    const head = `${bold(s.name)} ${
      dim(s.profileOf ? `(${s.displayName}, a profile of ${s.profileOf})` : `(${s.displayName})`)
    }`;
    const off = s.disabled ? ` ${yellow("[disabled in config]")}` : "";
    if (!s.found) {
      out.push(`${red("✗")} ${head}  not found${off}`);
      if (s.problem) out.push(`    ${yellow(s.problem)}`);
      out.push(`    install: ${s.installHint}`);
      if (s.tested.kind === "notRun") out.push(`    ${dim(testedLine(s.name, s.tested))}`);
      continue;
    }
    out.push(`${green("✓")} ${head}  ${s.version ?? "version unknown"}  ${s.path}${off}`);
    if (s.versionNote) out.push(`    ${dim(s.versionNote)}`);
    if (s.tested.kind !== "tested" && s.tested.kind !== "unknown") {
      out.push(`    ${yellow("!")} ${testedLine(s.name, s.tested)}`);
    }
    if (s.proof?.recorded) {
      const { version, date } = s.proof.recorded;
      const when = date ? ` on ${date}` : "";
      out.push(
        `    initial prompt: yes  ${dim(`(real-agent matrix: ${version} took a handoff${when})`)}`,
      );
    } else if (s.proof?.accepted) out.push(`    initial prompt: yes  ${dim(`"${s.proof.line}"`)}`);
    else if (s.proof?.inconclusive) {
      out.push(`    initial prompt: ${yellow("unknown")}  ${dim(s.proof.reason ?? "")}`);
    } else out.push(`    initial prompt: ${yellow("no")}  ${dim(s.proof?.reason ?? "")}`);
    // A slow --help that did answer (proof.note) needs nothing from the user: --json keeps it.
    const roads = s.roads.map((r) =>
      r !== s.defaultRoad
        ? r
        : s.handoffInArgv
        ? `${r} (default; in its command line)`
        : `${r} (default)`
    ).join(", ");
    out.push(`    roads: ${roads}`);
    out.push(`    ${s.channel.why ? dim(channelLine(s.channel)) : channelLine(s.channel)}`);
    if (s.limit) out.push(`    ${s.limit.limited ? yellow(s.limit.line) : dim(s.limit.line)}`);
    if (s.problem) out.push(`    ${yellow(s.problem)}`);
  }
  const found = statuses.filter((s) => s.found);
  const inArgv = found.filter((s) => s.handoffInArgv && !s.disabled).map((s) => s.name);
  if (inArgv.length) {
    out.push(
      `${yellow("!")} the default road of ${inArgv.join(", ")} puts the handoff in the agent's ` +
        "command line, which other local users can read while it runs: `uuldana doctor` says " +
        "whether they can on your machine",
    );
  }
  const unanswered = found.filter((s) => s.versionNote || s.proof?.inconclusive).map((s) => s.name);
  if (unanswered.length) {
    out.push(dim(
      `(${unanswered.join(", ")} did not answer in time, on a busy machine most likely: ` +
        "run `uuldana agents` again, it asks only what is missing)",
    ));
  } else if (found.length) out.push(dim(_sources(found)));
  return out.join("\n");
}

/**
 * Where the answers came from: the real-agent record (the matrix verified that exact version, so
 * its --help was not run), the cache, or the binaries now.
 */
function _sources(found: readonly AgentReport[]): string {
  const recorded = found.filter((s) => s.proof?.recorded).map((s) => s.name);
  const cached = found.filter((s) => !s.proof?.recorded && s.cached).length;
  const rest = found.length - recorded.length;
  const refresh = "`uuldana agents --refresh` runs every --help";
  const fromRecord = recorded.length
    ? `opening-prompt proof of ${recorded.join(", ")} from the real-agent record of ` +
      `${recorded.length === 1 ? "that exact version" : "those exact versions"}, no --help run`
    : "";
  if (!rest) return `(${fromRecord}; ${refresh})`;
  const others = cached === rest
    ? recorded.length ? "the others from the cache" : "versions and proofs from the cache"
    : cached
    ? `${cached} of ${rest} from the cache, the rest probed now`
    : recorded.length
    ? "the others probed now, and cached until a binary changes"
    : "probed now, and cached until a binary changes";
  if (!recorded.length && cached === rest) {
    return `(versions and proofs from the cache; \`uuldana agents --refresh\` probes again)`;
  }
  if (!recorded.length && !cached) return `(${others})`;
  return `(${[fromRecord, others].filter(Boolean).join("; ")}; ${refresh})`;
}

/** `uuldana agents`: list the agents uuldana knows, whether they are installed and how they take a handoff. */
export function agentsCommand() {
  return new Command("agents")
    .description(
      "list the agents uuldana knows, whether they are installed and how they take a handoff",
    )
    .option(
      "--json",
      "print a JSON array of {name, found, path, version, acceptsInitialPrompt, proof, cached, tested, roads, defaultRoad, handoffInArgv, limit, channel, …}",
    )
    .option(
      "--refresh",
      "probe every binary again (--version, --help) instead of answering from the cache or the real-agent record",
    )
    .addHelpText(
      "after",
      `
A version the real-agent matrix handed a handoff to (adapters/tested_versions.json, that exact
version) is proven by that record: its --help is not run. Any other binary's --version and --help
are run once and cached until the binary changes (its size or modification time) or a day has
passed. --refresh runs every --help, record or not.

Examples:
  uuldana agents                  installed?, version, opening-prompt proof, roads, channel
  uuldana agents --refresh        the same, probing every binary again
  uuldana agents --json | jq -r '.[] | select(.found) | .name'`,
    )
    .action(async (opts) => {
      const statuses = await agentStatuses({ refresh: opts.refresh });
      console.log(opts.json ? JSON.stringify(statuses, null, 2) : renderAgents(statuses));
    });
}
