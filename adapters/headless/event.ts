/**
 * What a headless (structured JSON) agent run reports, in one shape for every agent, and the
 * interface each agent's headless adapter implements.
 *
 * @module
 */
import { MAX_ARG_BYTES } from "../../src/arg_limit.ts";
import type { ToolAction } from "../channels/tool_action.ts";
import type { ChannelRelay } from "../channel.ts";
import type { ChannelAddition } from "../channels/launch.ts";

/** Something the agent said, worth carrying in a handoff. */
export interface MessageEvent {
  kind: "message";
  role: "user" | "agent";
  text: string;
}

/** A tool call, summarised in one line (its output is never carried in a handoff). */
export interface ToolEvent {
  kind: "tool";
  summary: string;
}

/**
 * A tool call that completed, as the handoff's "What was done" says it, where the stream reports
 * how it ended (Codex's completed items, Claude's and Qwen's tool results).
 */
export interface ActionEvent {
  kind: "action";
  action: ToolAction;
}

/** The agent reported a usage limit. */
export interface LimitEvent {
  kind: "limit";
  /** The agent's own limit message, or a description uuldana made up (`synthetic`). */
  message: string;
  /** When it resets, ISO-8601, or null when the stream did not say. */
  resetsAt: string | null;
  /** True when `message` was composed by uuldana (e.g. from a structured status field). */
  synthetic?: boolean;
  /**
   * True when the agent reports that it waits to retry a quota (Qwen's retry events, Copilot's
   * failed calls): nothing comes of the wait, so exec stops it at once and hands off.
   */
  retrying?: boolean;
}

/** The agent reported an error that is not a usage limit (often non-fatal: warnings, retries). */
export interface ErrorEvent {
  kind: "error";
  message: string;
}

/** The agent's final result for the task. */
export interface ResultEvent {
  kind: "result";
  /** The final answer text (may be empty when the agent gave none). */
  text: string;
  /** Whether the agent marked the result as an error. */
  isError: boolean;
}

/** A line that was not a JSON object: recorded and skipped, never fatal. */
export interface MalformedEvent {
  kind: "malformed";
  line: string;
  reason: string;
}

/** One thing a headless agent reported. */
export type HeadlessEvent =
  | MessageEvent
  | ToolEvent
  | ActionEvent
  | LimitEvent
  | ErrorEvent
  | ResultEvent
  | MalformedEvent;

/** An incremental parser for one run's JSON lines. Holds state (e.g. streamed text deltas). */
export interface HeadlessParser {
  /** Parses one line (without its line terminator). Unknown event types give no events. */
  parse(line: string): HeadlessEvent[];
  /** Flushes anything still buffered when the stream ends. */
  finish(): HeadlessEvent[];
  /**
   * Reads one stderr line as it arrives (agents that report retries there); absent: stderr is only
   * searched for a limit text once the agent failed.
   */
  parseStderr?(line: string): HeadlessEvent[];
}

/** What to run for one headless attempt. */
export interface HeadlessLaunch {
  /** argv[0] is the binary. */
  argv: string[];
  /** Text to write to the agent's stdin (then closed), or null for no stdin. */
  stdin: string | null;
}

/** One agent's structured (JSON lines) mode. */
export interface HeadlessAdapter {
  /** Agent name, as in config and on the command line. */
  readonly name: string;
  /** Whether the CLI can take the prompt on stdin instead of as an argument. */
  readonly promptViaStdin: boolean;
  /**
   * The command line for a task. The prompt goes into one argv string unless it exceeds
   * `MAX_ARG_BYTES` (UTF-8), or `keepOutOfArgv` asks that (any local user can read a
   * process's arguments in /proc; a handoff carries the conversation), and the CLI reads prompts
   * from stdin; then `stdin` carries it.
   */
  launch(
    bin: string,
    prompt: string,
    extraArgs: readonly string[],
    keepOutOfArgv?: boolean,
  ): HeadlessLaunch;
  /** A fresh parser for one run's stdout. */
  newParser(): HeadlessParser;
  /**
   * What turns the agent's channel (`Adapter.channel`) on for one headless process, as its terminal
   * launch does (environment and files only, the same layer under or over the user's settings):
   * absent when exec does not need it (the agent's structured output says a limit at the
   * provider's first answer). `env` is the process's configured environment.
   */
  channelLaunch?(
    relay: ChannelRelay,
    scratchDir: string,
    env: Readonly<Record<string, string>>,
  ): ChannelAddition;
}

/** Linux MAX_ARG_STRLEN minus the terminating NUL: the most bytes one argv string may hold. */
export { MAX_ARG_BYTES };

/** Whether `text` fits one argv string. */
export function fitsInArgument(text: string): boolean {
  // Quick accept: a UTF-16 unit encodes to at most 3 UTF-8 bytes.
  if (text.length * 3 <= MAX_ARG_BYTES) return true;
  return new TextEncoder().encode(text).length <= MAX_ARG_BYTES;
}

/** Whether every argv string of `launch` fits (a `--prompt=TEXT` string counts its prefix). */
export function launchFits(launch: HeadlessLaunch): boolean {
  return launch.argv.every(fitsInArgument);
}

/** The short `-p` prompt that follows a long prompt delivered on stdin (Gemini, Qwen append it). */
export const STDIN_FOLLOW_UP = "Carry out the task stated above.";
