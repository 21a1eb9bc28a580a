/**
 * What `uuldana agents` says about an agent's channel: its kind when uuldana turns it on, or
 * `screen only` and why (no channel, an argument that turns it off, or the latest run found it
 * silent). Pure.
 *
 * @module
 */
import type { Adapter } from "./adapter.ts";

/** An agent's channel as the user is told it. */
export interface ChannelState {
  /** The channel's kind, or `screen only`. */
  channel: "hooks" | "plugin" | "events" | "screen only";
  /** Why the screen only, when so. */
  why?: string;
  /**
   * The channel's telemetry road, for an agent that has one (Qwen): on, or off and why (the
   * user's own telemetry settings win).
   */
  telemetry?: { on: true } | { on: false; why: string };
  /** The agent's debug log, for an agent that has one (Gemini): on, or off and why. */
  debugLog?: { on: true } | { on: false; why: string };
}

/** What the latest run of an agent found about its channel (from the journal). */
export interface LatestChannel {
  runId: number;
  endedAt: string;
  state: "on" | "silent" | "off";
  why?: string;
}

/** The channel state of `adapter` launched with `extraArgs`, given its latest run's. */
export function channelState(
  adapter: Pick<Adapter, "channel" | "debugLog">,
  launch: {
    extraArgs: readonly string[];
    env: Readonly<Record<string, string>>;
    version: string | null;
  },
  latest: LatestChannel | null = null,
): ChannelState {
  const log = adapter.debugLog;
  const logOff = log?.offReason(launch) ?? null;
  const debugLog = log
    ? { debugLog: logOff ? { on: false as const, why: logOff } : { on: true as const } }
    : {};
  const spec = adapter.channel;
  if (!spec) {
    return {
      channel: "screen only",
      why: "no channel uuldana can turn on in this agent",
      ...debugLog,
    };
  }
  const off = spec.offReason(launch);
  if (off) return { channel: "screen only", why: off };
  if (latest?.state === "silent") {
    return {
      channel: "screen only",
      why: `its ${spec.kind} were silent in run ${latest.runId}: ${latest.why ?? "no event came"}`,
    };
  }
  if (!spec.telemetry) return { channel: spec.kind };
  const telemetryOff = spec.telemetry.offReason(launch);
  return {
    channel: spec.kind,
    telemetry: telemetryOff ? { on: false, why: telemetryOff } : { on: true },
  };
}

/**
 * One line for `uuldana agents`: `channel: hooks`, `channel: hooks + telemetry`,
 * `channel: hooks; telemetry off (why)`, or `channel: screen only (why)`.
 */
export function channelLine(state: ChannelState): string {
  const log = state.debugLog;
  const tail = !log ? "" : log.on ? "; debug log: on" : `; debug log: off (${log.why})`;
  return _channelLine(state) + tail;
}

function _channelLine(state: ChannelState): string {
  if (state.why) return `channel: ${state.channel} (${state.why})`;
  const t = state.telemetry;
  if (!t) return `channel: ${state.channel}`;
  return t.on
    ? `channel: ${state.channel} + telemetry`
    : `channel: ${state.channel}; telemetry off (${t.why})`;
}
