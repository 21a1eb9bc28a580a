/**
 * The timed inputs of a run's detection, as a live run feeds them and its recording keeps them:
 * what the agent wrote, the terminal's new size, what its structured channel said, the moment the
 * run was decided elsewhere, the end of its output. Pure types and the clock's resolution.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";

/** One input at `atMs` (ms since the run started). */
export type TimedInput =
  | { type: "output"; atMs: number; bytes: Uint8Array }
  | { type: "resize"; atMs: number; cols: number; rows: number }
  | { type: "channel"; atMs: number; event: ChannelEvent }
  /** The run was decided elsewhere (a manual switch, a signal, a return): no more looks. */
  | { type: "halt"; atMs: number; reason: string }
  /** The agent's output ended. */
  | { type: "end"; atMs: number };

/**
 * `ms` to whole microseconds, the resolution a recording keeps: the detector computes with these,
 * so a live run and a replay of its recording compute the same to the bit.
 */
export function microseconds(ms: number): number {
  return Number.isFinite(ms) ? Math.round(ms * 1000) : 0;
}

/** The earlier of two due times (null: none due). */
export function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
