/**
 * Turning an agent's channel on for one launch: whether it can be (the adapter's declaration, the
 * launch's arguments), its folder and relay in the launch's scratch directory, and what the run
 * needs to read it. Every agent the same: the adapter says how.
 *
 * @module
 */
import type { Adapter, ChannelRelay, Launch } from "../../adapters/adapter.ts";
import type { RunChannelSetup } from "./run_channel.ts";
import { openChannelDir } from "./channel_dir.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./otlp_receiver.ts";
import type { RunDebugLogSetup } from "./run_debug_log.ts";
import { ensurePrivateDir } from "../config/paths.ts";
import { join } from "node:path";

/** The debug log's folder inside the scratch directory (private, removed with the run). */
export const DEBUG_LOG_DIR = "debug-log";

/**
 * The agent's debug log for this launch (`Adapter.debugLog`): the variable naming a file in a
 * private folder of the scratch directory, and what the run needs to follow it; or why it is off
 * (the user names their own file; the folder cannot be made); null when the agent has none.
 */
export function prepareDebugLog(
  adapter: Adapter,
  at: {
    scratchDir: string;
    extraArgs: readonly string[];
    env: Readonly<Record<string, string>>;
    version: string | null;
  },
): { env: Record<string, string>; setup: RunDebugLogSetup } | { off: string } | null {
  const spec = adapter.debugLog;
  if (!spec) return null;
  const off = spec.offReason({ extraArgs: at.extraArgs, env: at.env, version: at.version });
  if (off) return { off };
  try {
    const file = join(ensurePrivateDir(join(at.scratchDir, DEBUG_LOG_DIR)), "agent.log");
    return { env: { [spec.env]: file }, setup: { file, parser: spec.parser() } };
  } catch (e) {
    return { off: `its folder could not be made (${(e as Error)?.message ?? e})` };
  }
}

/**
 * A launch's channel: its relay (pass it to `adapter.launch`) with, for an adapter whose channel
 * has a telemetry road, the run's receiver or why that road is off; or why the channel is off.
 */
export type LaunchChannel =
  | { relay: ChannelRelay; receiver?: OtlpReceiver; telemetryOff?: string }
  | { off: string };

/**
 * The channel for launching `adapter`: null when it has none; off when the launch's arguments
 * turn it off or its folder cannot be made (the run goes on with the screen).
 */
export function prepareChannel(
  adapter: Adapter,
  at: {
    scratchDir: string;
    dataDir: string;
    extraArgs: readonly string[];
    env: Readonly<Record<string, string>>;
    version: string | null;
  },
): LaunchChannel | null {
  const spec = adapter.channel;
  if (!spec) return null;
  const off = spec.offReason({ extraArgs: at.extraArgs, env: at.env, version: at.version });
  if (off) return { off };
  let relay: ChannelRelay;
  try {
    relay = openChannelDir(at.scratchDir, at.dataDir);
  } catch (e) {
    return { off: `its folder could not be made (${(e as Error)?.message ?? e})` };
  }
  const telemetry = spec.telemetry;
  if (!telemetry) return { relay };
  const telemetryOff = telemetry.offReason({
    extraArgs: at.extraArgs,
    env: at.env,
    version: at.version,
  });
  if (telemetryOff) return { relay, telemetryOff };
  try {
    const keep = new Set(telemetry.events);
    const receiver = startOtlpReceiver({ keep: (name) => keep.has(name) });
    return { relay: { ...relay, otlpEndpoint: receiver.endpoint }, receiver };
  } catch (e) {
    return { relay, telemetryOff: `its receiver could not listen (${(e as Error)?.message ?? e})` };
  }
}

/** Stops the launch channel's receiver, if it has one (a launch that failed). */
export function closeLaunchChannel(channel: LaunchChannel | null): void {
  if (channel && "receiver" in channel) channel.receiver?.close();
}

/** What the run needs to read the channel `channel` that `launch` turned on. */
export function runChannelSetup(
  adapter: Adapter,
  channel: LaunchChannel | null,
  launch: Launch,
): RunChannelSetup | { off: string } | undefined {
  if (!channel || !adapter.channel) return undefined;
  if ("off" in channel) return channel;
  const own = [launch.opening, launch.kickoff].filter((p): p is string => !!p);
  return {
    relay: channel.relay,
    ...(channel.receiver ? { receiver: channel.receiver } : {}),
    ...(channel.telemetryOff ? { telemetryOff: channel.telemetryOff } : {}),
    spec: adapter.channel,
    ownPrompts: own,
    turnOpen: launch.opening !== undefined,
  };
}
