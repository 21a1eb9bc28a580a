/**
 * The launch step: the member's adapter says how to start it (argv, env, files in a scratch
 * folder, a handoff on a launch road), the run starts in its pty, and what it still has to receive
 * after start (a paste, a kickoff) is started in the background.
 *
 * @module
 */
import type { Launch } from "../../../adapters/adapter.ts";
import { materializeLaunch } from "../../../adapters/launch_io.ts";
import { shouldHandOff } from "../../../adapters/policy.ts";
import { AgentRun } from "../agent_run.ts";
import { newScratchDir, removeScratchDir } from "../scratch.ts";
import {
  closeLaunchChannel,
  type LaunchChannel,
  prepareChannel,
  prepareDebugLog,
  runChannelSetup,
} from "../channel_launch.ts";
import { agentList, switchProblem } from "./agent_command.ts";
import { launchEnv } from "../../config/profile_check.ts";
import { submitKickoff } from "./kickoff.ts";
import { pasteWhenReady } from "./paste_handoff.ts";
import type { Chain, Start } from "./state.ts";

/** Starts the run and, in the background, what it still has to receive (a paste, a kickoff). */
export async function launch(
  chain: Chain,
  start: Start,
): Promise<{ run: AgentRun; delivery: Promise<void> }> {
  const { opts, ctx } = chain;
  const { adapter, found, config: cfg } = start.member;
  // A profile's `${VAR}`s are read now, for this one process, and kept nowhere else.
  const env = launchEnv(start.member);
  const scratch = newScratchDir(ctx.dataDir, adapter.name);
  const removeScratch = () => removeScratchDir(scratch);
  const atLaunch = start.handoff && start.road !== "paste" ? start.handoff : null;
  let launch: Launch;
  let run: AgentRun;
  let channel: LaunchChannel | null = null;
  const extraArgs = [...cfg.args, ...start.extraArgs];
  // A handoff's launch may depend on the version (OpenCode's store road records it), and so may a
  // channel (Codex's hook-trust hash); any other clean start does not wait for it.
  const version = atLaunch || adapter.channel?.versioned
    ? await chain.proofs.version(start.member)
    : found!.version;
  try {
    // The agent's channel (hooks, a plugin), in the scratch folder, when it has one.
    channel = prepareChannel(adapter, {
      scratchDir: scratch,
      dataDir: ctx.dataDir,
      extraArgs,
      env,
      version,
    });
    launch = adapter.launch({
      bin: found!.path,
      version,
      road: start.road ?? adapter.defaultRoad,
      handoff: atLaunch?.composed.text ?? null,
      handoffFile: atLaunch?.file,
      extraArgs,
      workspace: opts.workspace,
      scratchDir: scratch,
      channel: channel && "relay" in channel ? channel.relay : undefined,
      env,
    });
    // The agent's own debug log (Gemini's), in a private folder of the scratch directory.
    const debugLog = prepareDebugLog(adapter, {
      scratchDir: scratch,
      extraArgs,
      env,
      version,
    });
    if (debugLog && "env" in debugLog) {
      launch = { ...launch, env: { ...launch.env, ...debugLog.env } };
    }
    const argv = await materializeLaunch(launch, opts.workspace, { env });
    const size = opts.size();
    run = await AgentRun.start({
      adapter,
      profile: start.member.name,
      argv,
      env: { ...env, ...launch.env },
      workspace: opts.workspace,
      cols: size.cols,
      rows: size.rows,
      journal: ctx.journal,
      keyboard: opts.keyboard,
      user: opts.user,
      // What uuldana itself puts on the screen never counts as the agent's limit message.
      delivered: [start.handoff?.composed.text, launch.kickoff].filter((x): x is string => !!x),
      quietMs: ctx.config.quietSeconds * 1000,
      shouldHandOff: (hit) => shouldHandOff(hit),
      checkSwitch: (name) => switchProblem(chain, start.member.name, name),
      listAgents: () => agentList(chain, start.member.name),
      stallSeconds: cfg.stallSeconds,
      retryLoopSeconds: cfg.retryLoopSeconds,
      channel: runChannelSetup(adapter, channel, launch),
      debugLog: debugLog ? ("setup" in debugLog ? debugLog.setup : debugLog) : undefined,
      status: opts.status,
      version,
    });
  } catch (e) {
    closeLaunchChannel(channel);
    removeScratch();
    throw e;
  }
  // Removed once the agent is gone: it may read its files until it quits.
  run.ended.then(removeScratch, removeScratch);
  let delivery = Promise.resolve();
  if (start.handoff && start.road === "paste") {
    chain.settle(start.handoff, { kind: "awaiting-paste", toRun: run.runId });
    delivery = pasteWhenReady(chain, run, start.handoff);
  } else if (start.handoff) {
    chain.settle(start.handoff, { kind: "launched", toRun: run.runId });
    if (launch.kickoff) delivery = submitKickoff(chain, run, launch.kickoff, adapter.submitKey);
  }
  return { run, delivery };
}
