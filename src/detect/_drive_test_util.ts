/**
 * Driving a detector in a test the way AgentRun does: timed inputs in order, each wake the
 * detector asks for run before the next input at or after its time, and nothing else.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";
import type { Detector, Verdict } from "./detector.ts";

/** A timed input of a test: output bytes or a channel event. */
export type DriveInput = { at: number; bytes: Uint8Array } | { at: number; event: ChannelEvent };

const _enc = new TextEncoder();

/** Bytes that draw `rows` on a cleared screen, as a full-screen redraw would. */
export function draw(rows: string[]): Uint8Array {
  return _enc.encode("\x1b[H\x1b[2J" + rows.join("\r\n"));
}

/**
 * Feeds `inputs` to `d`, waking only when it asks, then wakes it up to `until`; with `end`, the
 * run ends at `until`. Stops at the first verdict, and returns it (null: none).
 */
export function drive(
  d: Detector,
  inputs: readonly DriveInput[],
  until: number,
  end = false,
): Verdict | null {
  let verdict: Verdict | null = null;
  const wakeUntil = (t: number) => {
    for (let due = d.nextWakeAt(); !verdict && due !== null && due <= t; due = d.nextWakeAt()) {
      verdict = d.wake(due);
    }
  };
  for (const input of inputs) {
    if (verdict) break;
    wakeUntil(input.at);
    verdict ??= "bytes" in input
      ? d.output(input.bytes, input.at)
      : d.channel(input.event, input.at);
  }
  wakeUntil(until);
  if (end) verdict ??= d.ended(until);
  return verdict;
}
