/**
 * An agent's channel for one `uuldana exec` process: the same plugin, hooks or telemetry
 * `uuldana run` turns on (`prepareChannel`: the same off-rules, so the user's own settings always
 * win), added to that one process's environment and files only (`HeadlessAdapter.channelLaunch`),
 * and what it hears turned into the headless run's events. Only limits are taken from it: the
 * agent's structured output stays the record of what it said; the channel is there because
 * OpenCode's stream and Qwen's say a quota only once they give up retrying it (75–90 s), while
 * OpenCode's plugin and Qwen's telemetry hear the provider's first answer.
 *
 * A limit the channel hears counts when the hand-off policy says so (`shouldHandOff`: a usage
 * limit at once; a rate limit the agent retries only at a long stated wait, a late attempt, or
 * when it gave up), and is marked `retrying`: the agent waits on it, so exec stops it and hands
 * off.
 *
 * @module
 */
import type { Adapter } from "../../adapters/adapter.ts";
import type { ChannelRecord } from "../../adapters/channel.ts";
import type { HeadlessAdapter, LimitEvent } from "../../adapters/headless/event.ts";
import { materializeLaunch } from "../../adapters/launch_io.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { ChannelReader } from "../session/channel_reader.ts";
import { closeLaunchChannel, prepareChannel } from "../session/channel_launch.ts";
import type { OtlpReceiver } from "../session/otlp_receiver.ts";
import { newScratchDir, removeScratchDir } from "../session/scratch.ts";

/** A channel turned on for one exec process. */
export interface ExecChannel {
  /** The variables the agent's process gets on top of its configured environment. */
  readonly env: Record<string, string>;
  /** What its telemetry road is, when it has one: on, or off and why (said once). */
  readonly telemetryOff: string | null;
  /** The limits heard since the last call, in order (each `retrying`: exec stops the agent). */
  take(): LimitEvent[];
  /** Stops its receiver and removes its folder: call once the agent is gone. */
  close(): Promise<void>;
}

/** The launch's facts the channel's off-rules read. */
export interface ExecChannelAt {
  /** The data directory (the relay's home; scratch folders live under it). */
  dataDir: string;
  /** The workspace (where the channel's files are written from). */
  cwd: string;
  /** The agent's configured arguments. */
  extraArgs: readonly string[];
  /** The agent's configured environment. */
  env: Readonly<Record<string, string>>;
}

/**
 * Turns `adapter`'s channel on for one headless process: null when exec does not use one for it;
 * `{ off }` when its off-rules or the machine refuse it (the run goes on with its stream alone).
 */
export async function openExecChannel(
  adapter: Adapter,
  headless: HeadlessAdapter,
  at: ExecChannelAt,
): Promise<ExecChannel | { off: string } | null> {
  if (!adapter.channel || !headless.channelLaunch) return null;
  let scratch: string;
  try {
    scratch = newScratchDir(at.dataDir, adapter.name);
  } catch (e) {
    return { off: `its folder could not be made (${(e as Error)?.message ?? e})` };
  }
  const channel = prepareChannel(adapter, {
    scratchDir: scratch,
    dataDir: at.dataDir,
    extraArgs: at.extraArgs,
    env: at.env,
    version: null,
  });
  if (!channel || "off" in channel) {
    removeScratchDir(scratch);
    return channel;
  }
  let env: Record<string, string>;
  try {
    const add = headless.channelLaunch(channel.relay, scratch, at.env);
    await materializeLaunch({ argv: [], files: [...(add.files ?? [])] }, at.cwd);
    env = { ...add.env };
  } catch (e) {
    closeLaunchChannel(channel);
    removeScratchDir(scratch);
    return { off: `it could not be turned on (${(e as Error)?.message ?? e})` };
  }
  return _heard(adapter, channel.relay.dir, channel.receiver, scratch, env, channel.telemetryOff);
}

function _heard(
  adapter: Adapter,
  dir: string,
  receiver: OtlpReceiver | undefined,
  scratch: string,
  env: Record<string, string>,
  telemetryOff: string | undefined,
): ExecChannel {
  const reader = new ChannelReader(dir);
  const parser = adapter.channel!.parser();
  let closed = false;
  return {
    env,
    telemetryOff: telemetryOff ?? null,
    take() {
      if (closed) return [];
      const out: LimitEvent[] = [];
      let more = true;
      for (let looks = 0; more && looks < 4; looks++) {
        const look = reader.look();
        more = look.more;
        const told: ChannelRecord[] = (receiver?.events() ?? []).map((r) => ({
          name: r.name,
          data: r.attributes,
        }));
        for (const record of [...look.records, ...told]) {
          for (const ev of parser.parse(record, { now: new Date() })) {
            if (ev.type === "limit" && shouldHandOff(ev)) {
              out.push({
                kind: "limit",
                message: ev.message,
                resetsAt: ev.resetsAt,
                retrying: true,
              });
            }
          }
        }
      }
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      await receiver?.close();
      removeScratchDir(scratch);
    },
  };
}
