/**
 * The one interface every agent adapter implements, so the session never branches on agent names.
 *
 * @module
 */
import type { Road } from "../src/config/config.ts";

export type { Road };

/** A located agent binary. */
export interface Found {
  /** Absolute path of the binary. */
  path: string;
  /** Version string the binary reported, or null when it did not say. */
  version: string | null;
}

/** Whether an agent's `--help` proves it accepts an initial prompt, and the line that shows it. */
export interface Proof {
  accepted: boolean;
  /** The matching help line, or null. */
  line: string | null;
  /** Why not, when not accepted. */
  reason?: string;
}

/** A limit the agent showed. */
export interface LimitHit {
  /** `usage`: quota or plan exhausted (hand off); `rate`: a transient limit the agent is retrying. */
  kind: "usage" | "rate";
  /** The limit message as shown (soft-wraps joined, borders stripped). */
  message: string;
  /** When it resets, ISO-8601, or null when not shown. */
  resetsAt: string | null;
  /** For `rate`: the retry attempt number shown, when shown. */
  attempt?: number;
  /** For `rate`: the wait shown, in seconds, when shown. */
  waitSeconds?: number;
}

/** What to run, for a fresh session or one that starts on a handoff. */
export interface Launch {
  /** argv[0] is the binary path. */
  argv: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** Files to write (mode 0600) before the launch, e.g. a hook script or an import file. */
  files?: { path: string; content: string; mode?: number }[];
  /**
   * A command to run first (e.g. `opencode import FILE`); its stdout is passed to `finish` to
   * produce the final argv (e.g. `-s ID`).
   */
  prepare?: { argv: string[]; finish(stdout: string): string[] };
}

/** Input to `Adapter.launch`. */
export interface LaunchRequest {
  /** The binary to run. */
  bin: string;
  /** The delivery road; ignored when `handoff` is null. */
  road: Road;
  /** The composed, framed handoff text for that road, or null for a clean start. */
  handoff: string | null;
  /** Path of the full handoff file (the pointer named in the frame). */
  handoffFile?: string;
  /** Extra args from config and the command line. */
  extraArgs: string[];
  /** Workspace directory. */
  workspace: string;
  /** A private scratch directory for files this launch needs. */
  scratchDir: string;
}

/** Options for limit detection. */
export interface DetectOptions {
  /** The clock a shown reset time ("3:01am (UTC)") is resolved against. */
  now: Date;
  /** Text uuldana itself delivered (the handoff): limit messages quoted inside it never count. */
  delivered?: string[];
}

/** One agent. */
export interface Adapter {
  /** Short name used in config and on the command line, e.g. "claude". */
  readonly name: string;
  /** Human name, e.g. "Claude Code". */
  readonly displayName: string;
  /** Binary names to look up on PATH. */
  readonly binNames: readonly string[];
  /** How to install it when missing. */
  readonly installHint: string;
  /** Roads this agent supports, best first. */
  readonly roads: readonly Road[];
  /** Road used for automatic handoffs unless config says otherwise. */
  readonly defaultRoad: Road;
  /** Largest composed handoff (code points) the road can carry, when smaller than the global cap. */
  roadCap(road: Road): number | null;
  /** Checks a `--help` text for the documented initial-prompt line. */
  proveInitialPrompt(helpText: string): Proof;
  /** The argv (and files, env) for a launch. */
  launch(req: LaunchRequest): Launch;
  /** Looks for this agent's limit message on the screen's logical lines (soft-wraps joined). */
  detectLimit(lines: readonly string[], opts: DetectOptions): LimitHit | null;
  /** Bytes that ask the agent to quit, tried before signals (e.g. Ctrl-C twice). */
  readonly quitKeys: readonly string[];
}
