/**
 * Test helpers for channels: the records a real agent's hooks or plugin wrote (testdata/channels,
 * one `NN-<event>.json` file per record, in order) and a relay for launch tests.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import type {
  AgentChannel,
  ChannelEvent,
  ChannelParseOptions,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import { relayAt } from "./relay.ts";

/**
 * OpenAI's quota error (`insufficient_quota`), as the mock API (tools/real-agents/mock_api.ts)
 * answered it when the OpenAI-compatible agents' channel records were made.
 */
export const OPENAI_QUOTA =
  "You exceeded your current quota, please check your plan and billing details. For more " +
  "information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";

/** The records of `dir` (under testdata/channels), in the order the agent wrote them. */
export function recorded(dir: string): ChannelRecord[] {
  const path = join(CHANNELS_DIR, dir);
  return readdirSync(path).filter((f) => /^\d+-.+\.json$/.test(f)).sort().map((f) => ({
    name: f.replace(/^\d+-|\.json$/g, ""),
    data: JSON.parse(readFileSync(join(path, f), "utf8")),
  }));
}

/** Every event one fresh parser of `channel` makes of `records`. */
export function parseRecorded(
  channel: AgentChannel,
  records: readonly ChannelRecord[],
  opts: ChannelParseOptions,
): ChannelEvent[] {
  const parser = channel.parser();
  return records.flatMap((r) => parser.parse(r, opts));
}

/** A relay for launch tests (nothing is written). */
export function relayFor(): { relay: ChannelRelay; scratch: string } {
  const scratch = "/data/scratch/p1-1-agent";
  return { relay: relayAt("/data/relay-v1.sh", `${scratch}/channel`), scratch };
}
