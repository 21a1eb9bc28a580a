/**
 * An agent's structured channel (hooks, a plugin, an event stream): uuldana's own event model, the
 * same for every agent, and what an adapter declares to turn its agent's channel on at launch and
 * to read it. The hook side writes **records** into a private folder of the run through the relay
 * (`channels/relay.ts`); the session follows them (`src/session/channel_reader.ts`) and hands each
 * one to the adapter's parser, which turns it into these events. Pure.
 *
 * The record format, for every writer (the relay, or a plugin running inside an agent):
 *
 * - The run's channel folder (mode 0700) holds an append-only index file {@link CHANNEL_INDEX}
 *   and one payload file per record (mode 0600).
 * - A writer first writes the record's payload (the hook's stdin JSON, at most
 *   {@link CHANNEL_MAX_RECORD} bytes) to its own new file named like `r.<pid>.<n>` (matching
 *   {@link CHANNEL_PAYLOAD_NAME}), then appends one line `<event> <file>\n` to the index in a single
 *   small write. The index line is what publishes the record: a reader never sees half a payload,
 *   and concurrent writers cannot interleave (each payload is its own file; each index line is one
 *   `write` far below the size any local file system appends atomically).
 * - `<event>` is the agent's own name for the event (`Stop`, `session.status`), matching
 *   {@link CHANNEL_EVENT_NAME}; the reader removes each payload once read.
 *
 * @module
 */
import type { LimitHit } from "./adapter.ts";
import type { ToolAction } from "./channels/tool_action.ts";

/** The index file in the run's channel folder: one `<event> <file>` line per record. */
export const CHANNEL_INDEX = "events";
/** The largest payload a record may have, in bytes; a larger one is dropped and counted. */
export const CHANNEL_MAX_RECORD = 1024 * 1024;
/** The longest index line (event name, file name, newline), in bytes. */
export const CHANNEL_MAX_LINE = 160;
/** What an event name in the index may be. */
export const CHANNEL_EVENT_NAME: RegExp = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
/** What a payload file's name may be (no path: a record can only name a file of its folder). */
export const CHANNEL_PAYLOAD_NAME: RegExp = /^r\.[0-9]{1,12}\.[0-9]{1,4}$/;

/** A limit the agent itself reported through its channel. */
export interface ChannelLimit extends LimitHit {
  type: "limit";
  /** The turn it ended (see {@link ChannelEvent}). */
  turn?: string;
  /** The provider's HTTP status, when the channel carries it. */
  status?: number;
  /**
   * The error's code as the channel gives it: the provider's (`insufficient_quota`,
   * `account_rate_limit`) or the agent's own class (`rate_limit`).
   */
  code?: string;
}

/**
 * uuldana's events, the same for every agent:
 *
 * - `session`: the agent's session started or ended (`detail`: its source or reason);
 * - `prompt`: the exact text the agent received from its input box;
 * - `reply`: the agent's text for one turn (every text segment of the turn, in order);
 * - `busy` / `idle`: a turn started / ended (whatever its outcome);
 * - `limit`: the agent reports a usage or rate limit (a {@link ChannelLimit});
 * - `error`: the turn failed for a reason that is not a limit (overload, server error, auth);
 * - `tool`: a tool call ended (a {@link ToolAction}: ran a command, edited a file…, and how it
 *   ended), for what a handoff says was done.
 *
 * `turn` is the agent's own id of the turn, when its channel gives one (Claude's `prompt_id`): a
 * turn's end closes that turn only (a message queued behind a running turn starts its own turn
 * before the first one ends). Without it, `idle` ends every turn.
 */
export type ChannelEvent =
  | { type: "session"; phase: "start" | "end"; detail?: string }
  | { type: "prompt"; text: string; turn?: string }
  | { type: "reply"; text: string; turn?: string }
  | { type: "busy"; turn?: string }
  | { type: "idle"; turn?: string }
  | ChannelLimit
  | { type: "error"; message: string; status?: number; code?: string; turn?: string }
  | ({ type: "tool"; turn?: string } & ToolAction);

/** One record as the reader found it: the agent's event name and its parsed JSON payload. */
export interface ChannelRecord {
  /** The agent's own event name, from the index line. */
  name: string;
  /** The payload, parsed as JSON. */
  data: unknown;
}

/** What a parser needs besides the record. */
export interface ChannelParseOptions {
  /** The clock a reported reset time ("resets 9:44pm (UTC)") is resolved against. */
  now: Date;
  /** IANA zone for reset times given without one; default: this process's zone. */
  timeZone?: string;
}

/** Turns one run's records into events; it may keep state across them (a turn's streamed text). */
export interface ChannelParser {
  /** The events of one record, in order; none for an event it does not use. */
  parse(record: ChannelRecord, opts: ChannelParseOptions): ChannelEvent[];
}

/** Where a launch's relay writes, as the adapter's launch needs it. */
export interface ChannelRelay {
  /** The run's channel folder (mode 0700). */
  dir: string;
  /**
   * The shell command a hook runs for the agent's event `event` (e.g. `/bin/sh '/…/relay' Stop`):
   * no handoff or user text, only the relay's path and the event's name.
   */
  command(event: string): string;
  /**
   * The base endpoint of the run's OTLP/HTTP receiver (`http://127.0.0.1:PORT/<secret>`), when
   * the adapter's channel declares `telemetry` and it is on for this launch.
   */
  otlpEndpoint?: string;
}

/** What a launch needs to know about an adapter's channel before it starts. */
export interface ChannelCheck {
  /** Extra arguments the agent is started with (config and command line). */
  extraArgs: readonly string[];
  /** The agent's configured environment. */
  env: Readonly<Record<string, string>>;
  /** Its version, when known. */
  version: string | null;
}

/**
 * An adapter's channel declaration. The adapter's `launch` turns the channel on when its request
 * carries a `channel` relay (its argv, environment or files; never the user's own files, never a
 * system-settings path that would replace an administrator's policy).
 */
export interface AgentChannel {
  /** What the channel is, as `uuldana agents` says it: `hooks`, `plugin`, `events`. */
  readonly kind: "hooks" | "plugin" | "events";
  /** What the launch adds to turn it on, in a few words (`uuldana agents`, docs). */
  readonly enables: string;
  /** The agent's event names the launch subscribes (the relay is called with one of these). */
  readonly events: readonly string[];
  /**
   * The channel says when a turn fails on a limit (Claude's StopFailure): while it speaks, a limit
   * the screen shows waits briefly for its word (a channel that calls it an error vetoes it).
   */
  readonly reportsLimits: boolean;
  /**
   * Whether turning it on depends on the agent's version (Codex: the hook-trust hash is verified
   * per version): a clean start then waits for the version probe, cached after the first.
   */
  readonly versioned?: boolean;
  /** Why the channel cannot work for this launch (a flag that disables hooks), or null. */
  offReason(check: ChannelCheck): string | null;
  /** A fresh parser for one run. */
  parser(): ChannelParser;
  /**
   * A second road into the same channel: the agent's own OpenTelemetry logs, posted to a loopback
   * receiver of the run's (`ChannelRelay.otlpEndpoint`). Its kept log records reach the parser as
   * records named by their `event.name`, their attributes as the payload.
   */
  readonly telemetry?: ChannelTelemetry;
}

/**
 * An agent's own debug log, written to a file a launch names in its environment (Gemini CLI's
 * `GEMINI_DEBUG_LOG_FILE`): followed line by line, bounded, each line it knows turned into events
 * (no conversation: it carries no prompt or reply), unknown lines ignored.
 */
export interface AgentDebugLog {
  /** The variable that names the file. */
  readonly env: string;
  /** Why it cannot be on for this launch (the user names their own file), or null. */
  offReason(check: ChannelCheck): string | null;
  /** A fresh parser for one run. */
  parser(): DebugLogParser;
}

/** Turns an agent's debug-log lines into events. */
export interface DebugLogParser {
  /** The events of one complete line (no newline), none for a line it does not know. */
  line(text: string, opts: ChannelParseOptions): ChannelEvent[];
}

/** An adapter's OpenTelemetry road (see {@link AgentChannel.telemetry}). */
export interface ChannelTelemetry {
  /** The log records kept, by `event.name` (no other record is ever held). */
  readonly events: readonly string[];
  /** Why it cannot be on for this launch (the user's own telemetry settings win), or null. */
  offReason(check: ChannelCheck): string | null;
}

/** Quotes `s` for a POSIX shell, as one word. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
