/**
 * Why a run stopped working, as the handoff, the ledger and the user's status line name it. Pure.
 *
 * @module
 */
import type { LimitHit } from "../../adapters/adapter.ts";
import type { HandoffReason } from "../handoff/package.ts";
import type { LimitKind } from "./limits.ts";

/** What stopped an agent's work: a limit it showed, or a stall (busy with no answer). */
export type WorkStop =
  | { kind: "limit"; limit: LimitHit }
  | { kind: "stall"; message: string };

/** The handoff's reason: a stall is never called a usage limit. */
export function handoffReason(stop: WorkStop): HandoffReason {
  if (stop.kind === "stall") return { kind: "stall", message: stop.message };
  return { kind: "limit", message: stop.limit.message, resetsAt: stop.limit.resetsAt };
}

/** What the limit ledger records for it. */
export function limitSeen(
  stop: WorkStop,
): { kind: LimitKind; message: string; resetsAt: string | null } {
  if (stop.kind === "stall") return { kind: "stall", message: stop.message, resetsAt: null };
  return { kind: stop.limit.kind, message: stop.limit.message, resetsAt: stop.limit.resetsAt };
}

/** The message for the user's status line. */
export function stopMessage(stop: WorkStop): string {
  return stop.kind === "stall" ? `stalled: ${stop.message}` : stop.limit.message;
}
