/**
 * Recordings made before recordings kept time in asciicast: raw output bytes with the classic
 * `script` timing (`<seconds since the previous chunk> <bytes>` per line), as `script -t` writes
 * it and uuldana's journal kept it until schema 7. Pure.
 *
 * @module
 */
import type { TimedInput } from "./timed_input.ts";

/**
 * The inputs of a raw recording with its timing: each timed chunk at its time, bytes the timing
 * does not cover at the last time, and the end of the output at the last time (the timing was
 * written when the run ended). Null when `timing` has no chunk line (the times are unknown).
 */
export function timingInputs(bytes: Uint8Array, timing: string): TimedInput[] | null {
  const inputs: TimedInput[] = [];
  let at = 0;
  let seconds = 0;
  for (const line of timing.split("\n")) {
    const m = /^\s*([\d.]+)\s+(\d+)\s*$/.exec(line);
    if (!m) continue;
    seconds += Number(m[1]);
    const n = Math.min(Number(m[2]), bytes.length - at);
    if (n <= 0) continue;
    inputs.push({ type: "output", atMs: _ms(seconds), bytes: bytes.subarray(at, at + n) });
    at += n;
  }
  if (inputs.length === 0) return null;
  if (at < bytes.length) {
    inputs.push({ type: "output", atMs: _ms(seconds), bytes: bytes.subarray(at) });
  }
  inputs.push({ type: "end", atMs: _ms(seconds) });
  return inputs;
}

// To the microsecond, as recordings keep time.
function _ms(seconds: number): number {
  return Math.round(seconds * 1_000_000) / 1000;
}
