/**
 * The one owner of a handoff's status. A handoff is saved `pending` (or `refused`) before any
 * delivery; each thing that happens to it afterwards is an event, and only this table turns an
 * event into a status. Pure: the shell writes the change to the journal.
 *
 * pending → delivered (an at-launch road carried it) / pasted (visible in the input box) / saved
 * (not delivered; the file stays) / refused (the road cannot carry it) / interrupted (uuldana was
 * stopped first). The last five are final.
 *
 * @module
 */
import type { HandoffStatus } from "../journal/journal.ts";

export type { HandoffStatus };

/** What happened to a handoff. */
export type HandoffEvent =
  /** The agent started with the handoff in its launch (hook, prompt, store). */
  | { kind: "launched"; toRun: number }
  /** The agent started clean; the handoff waits to be pasted into its input box. */
  | { kind: "awaiting-paste"; toRun: number }
  /** The paste shows in the input box. */
  | { kind: "pasted"; receipt: string }
  /** Pasted but never seen in the input box: saved, with what was seen as its receipt. */
  | { kind: "not-seen"; receipt: string; reason: string }
  /** Nothing could be pasted (no pasteable prompt, the agent left…). */
  | { kind: "not-pasted"; reason: string }
  /** The road cannot carry this handoff (too long for argv, a failed import…). */
  | { kind: "road-refused"; reason: string }
  /** The receiving agent could not be started. */
  | { kind: "start-failed"; agent: string; reason: string }
  /** uuldana was stopped before it could deliver. */
  | { kind: "interrupted" };

/** The change to store: the new status and what goes with it. */
export interface HandoffChange {
  status: HandoffStatus;
  toRun?: number;
  error?: string;
  receipt?: string;
}

/** Statuses a handoff never leaves. */
export const FINAL_STATUSES: ReadonlySet<HandoffStatus> = new Set([
  "delivered",
  "pasted",
  "saved",
  "refused",
  "interrupted",
]);

/** The change `event` makes to a handoff in `current`, or null when a final status stays. */
export function settleHandoff(current: HandoffStatus, event: HandoffEvent): HandoffChange | null {
  if (FINAL_STATUSES.has(current)) return null;
  switch (event.kind) {
    case "launched":
      return { status: "delivered", toRun: event.toRun };
    case "awaiting-paste":
      return { status: "pending", toRun: event.toRun };
    case "pasted":
      return { status: "pasted", receipt: event.receipt };
    case "not-seen":
      return { status: "saved", receipt: event.receipt, error: event.reason };
    case "not-pasted":
      return { status: "saved", error: event.reason };
    case "road-refused":
      return { status: "refused", error: event.reason };
    case "start-failed":
      return { status: "saved", error: `${event.agent} could not be started: ${event.reason}` };
    case "interrupted":
      return {
        status: "interrupted",
        error: "uuldana was stopped before it could deliver the handoff",
      };
  }
}
