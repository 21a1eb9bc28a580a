/**
 * The result of `uuldana exec`: what ran, what was handed over, the final answer and the exit
 * status, in the shape `--json` prints.
 *
 * @module
 */
import type { EndReason } from "../journal/journal.ts";

/** How the whole task ended. */
export type ExecStatus = "ok" | "failed" | "limited" | "timeout" | "interrupted";

/** One agent run of the task. */
export interface ExecRunSummary {
  /** Journal run id. */
  id: number;
  agent: string;
  bin: string;
  endReason: EndReason;
  exitCode: number | null;
  limitMessage: string | null;
  resetsAt: string | null;
  /** Conversation messages recorded from this run. */
  messages: number;
  /** Tool calls the agent reported (summarised, not carried). */
  tools: number;
  /** Completed tool calls journaled for a handoff's "What was done". */
  actions: number;
  /** Completed tool calls past the bound (`RUN_ACTIONS_MAX`): counted, not kept. */
  actionsDropped?: number;
  /** Malformed output lines skipped. */
  malformed: number;
  /** What went wrong, when the run failed. */
  error: string | null;
  durationMs: number;
}

/** One handoff between runs. */
export interface ExecHandoffSummary {
  id: string;
  from: string;
  to: string;
  fromRun: number;
  toRun: number | null;
  characters: number;
  omitted: number;
  redactions: number;
  /** The full handoff file. */
  file: string;
}

/** An agent of the chain that was not run, and why. */
export interface ExecSkipped {
  agent: string;
  reason: string;
}

/** Everything `uuldana exec --json` prints. */
export interface ExecSummary {
  status: ExecStatus;
  exitCode: number;
  /** The agent whose answer `finalText` is, or null. */
  agent: string | null;
  finalText: string;
  runs: ExecRunSummary[];
  handoffs: ExecHandoffSummary[];
  skipped: ExecSkipped[];
}
