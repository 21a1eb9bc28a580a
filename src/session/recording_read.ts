/**
 * Reads a recording back, whichever kind: a timed asciicast (every run since schema 7), or raw
 * output bytes with or without the classic `script` timing (older journals, `script -t` files,
 * the test corpus). Gzip is undone when present, and a gzip stream cut short (a run killed while
 * it wrote) gives what it holds.
 *
 * @module
 */
import { constants, gunzipSync } from "node:zlib";
import { type CastHeader, looksLikeCast, parseCast, type ParsedCast } from "../detect/cast.ts";
import { timingInputs } from "../detect/script_timing.ts";
import type { TimedInput } from "../detect/timed_input.ts";
import type { DetectorState } from "../detect/detector.ts";
import type { StoredOutput } from "../journal/journal.ts";

/** A run's recording as the journal stores it (the parts a reader needs). */
export type StoredRecording = Pick<
  StoredOutput,
  "cols" | "rows" | "timing" | "data" | "truncated" | "format"
>;

/** A recording read back. */
export interface Recording {
  format: "cast" | "raw";
  /** The asciicast header (null for raw output). */
  header: CastHeader | null;
  cols: number;
  rows: number;
  /** The timed inputs, in order; null when the times are unknown (raw output without timing). */
  inputs: TimedInput[] | null;
  /** Every output byte, in order. */
  bytes: Uint8Array;
  /** The recording stops before the run's end (its size bound). */
  truncated: boolean;
  /** Lines of an asciicast that were damaged and skipped. */
  damaged: number;
  /** Which inputs a replay reads, and from which state (see {@link ReplaySpan}). */
  span: ReplaySpan;
}

/**
 * The inputs a replay reads: `inputs[start, end)`, through a detector resumed from `from` (a long
 * run's recording: the state saved at its most recent part's start), or a new one (`from` null,
 * `start` 0). `cut`: inputs after `end` were dropped (a gap), so the replay stops early.
 */
export interface ReplaySpan {
  start: number;
  end: number;
  from: DetectorState | null;
  cut: boolean;
}

/** `data` without its gzip layer (when it has one); a cut stream gives what it holds. */
export function ungzip(data: Uint8Array): Uint8Array {
  if (data.length < 2 || data[0] !== 0x1f || data[1] !== 0x8b) return data;
  return new Uint8Array(gunzipSync(data, { finishFlush: constants.Z_SYNC_FLUSH }));
}

/**
 * Reads recording `data` (gzip or not; asciicast or raw output). A raw recording takes its size
 * from `size` and its times from `timing` when given.
 */
export function readRecording(
  data: Uint8Array,
  opts: { timing?: string; cols: number; rows: number; truncated?: boolean },
): Recording {
  const plain = ungzip(data);
  const start = new TextDecoder().decode(plain.subarray(0, 64));
  if (looksLikeCast(start)) {
    const cast = parseCast(new TextDecoder().decode(plain));
    return {
      format: "cast",
      header: cast.header,
      cols: cast.header.width,
      rows: cast.header.height,
      inputs: cast.inputs,
      bytes: _outputBytes(cast.inputs),
      truncated: cast.truncatedAt !== null || !!opts.truncated,
      damaged: cast.damaged,
      span: replaySpan(cast),
    };
  }
  const inputs = opts.timing ? timingInputs(plain, opts.timing) : null;
  return {
    format: "raw",
    header: null,
    cols: opts.cols,
    rows: opts.rows,
    inputs,
    bytes: plain,
    truncated: !!opts.truncated,
    damaged: 0,
    span: { start: 0, end: inputs?.length ?? 0, from: null, cut: false },
  };
}

/**
 * Where a replay of `cast` begins and ends: in the latest stretch between gaps that it can begin
 * (the first, from the run's start; a later one, from the first state saved in it), from there to
 * the stretch's end.
 */
export function replaySpan(cast: Pick<ParsedCast, "inputs" | "states" | "gaps">): ReplaySpan {
  const { inputs, states, gaps } = cast;
  for (let k = gaps.length; k > 0; k--) {
    const first = states.find((s) => s.afterGaps === k);
    if (!first) continue;
    const end = k < gaps.length ? gaps[k] : inputs.length;
    return { start: first.index, end, from: first.state, cut: k < gaps.length };
  }
  return { start: 0, end: gaps[0] ?? inputs.length, from: null, cut: gaps.length > 0 };
}

/** The inputs of `recording` its replay reads ({@link Recording.span}), or null without times. */
export function spanInputs(recording: Recording): TimedInput[] | null {
  const { inputs, span } = recording;
  if (!inputs) return null;
  return span.start === 0 && span.end >= inputs.length
    ? inputs
    : inputs.slice(span.start, span.end);
}

/** A run's stored recording, read back. */
export function storedRecording(stored: StoredRecording): Recording {
  return readRecording(stored.data, stored);
}

function _outputBytes(inputs: TimedInput[]): Uint8Array {
  let n = 0;
  for (const i of inputs) if (i.type === "output") n += i.bytes.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const i of inputs) {
    if (i.type !== "output") continue;
    out.set(i.bytes, at);
    at += i.bytes.length;
  }
  return out;
}
