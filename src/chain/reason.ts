/**
 * Why a run stopped working, as the handoff, the ledger and the user's status line name it. Pure.
 *
 * @module
 */
import type { LimitHit, LimitWarning } from "../../adapters/adapter.ts";
import type { HandoffReason } from "../handoff/package.ts";
import type { LimitKind } from "./limits.ts";

/** What stopped an agent's work: a limit it showed, or a stall (busy with no answer). */
export type WorkStop =
  | { kind: "limit"; limit: LimitHit }
  | { kind: "stall"; message: string }
  /** Handed off at a turn boundary after its usage warning (`handoffEarly`): not a limit. */
  | { kind: "warning"; warning: LimitWarning };

/** The handoff's reason: a stall is never called a usage limit, nor a warning. */
export function handoffReason(stop: WorkStop): HandoffReason {
  if (stop.kind === "stall") return { kind: "stall", message: stop.message };
  if (stop.kind === "warning") {
    return { kind: "warning", message: stop.warning.message, resetsAt: stop.warning.resetsAt };
  }
  return { kind: "limit", message: stop.limit.message, resetsAt: stop.limit.resetsAt };
}

/** What the limit ledger records for it (a warning is recorded as near its limit, not here). */
export function limitSeen(
  stop: Exclude<WorkStop, { kind: "warning" }>,
): { kind: LimitKind; message: string; resetsAt: string | null } {
  if (stop.kind === "stall") return { kind: "stall", message: stop.message, resetsAt: null };
  return { kind: stop.limit.kind, message: stop.limit.message, resetsAt: stop.limit.resetsAt };
}

/** The message for the user's status line. */
export function stopMessage(stop: WorkStop): string {
  if (stop.kind === "warning") return `near its limit: ${stop.warning.message}`;
  return stop.kind === "stall" ? `stalled: ${stop.message}` : stop.limit.message;
}
