/**
 * Keeps a run's timed inputs (what the agent wrote, with when its detector read it; resizes;
 * channel events; the end) as an asciicast v2 recording (src/detect/cast.ts), bounded, for
 * `uuldana export`, `uuldana debug detect RUN` and bug reports. Event lines are gathered in one
 * reusable block and compressed block by block as it fills (gzip members, which concatenate into
 * one valid gzip stream). Each member goes straight to a sink (files beside the journal), so
 * memory holds one block whatever the burst, and a run that is killed keeps what it recorded up
 * to its last flush. A member holds whole lines only, so a recording cut anywhere still reads.
 *
 * The bound (default {@link DEFAULT_RECORDING_BYTES} compressed) keeps two things:
 *
 * - **the start**: the first half of the bound, in the sink's head part;
 * - **the most recent part** (when the sink has recent parts and the run's detector can save its
 *   state): two parts of at most a fifth of the bound each (a quarter over at worst). Each opens
 *   with an `x` event, the detector's whole state at that moment (`Detector.saveState`), so a
 *   replay begins there and decides what the live run decided from there on, its last limit
 *   decision included. When the newer part is full, the next input opens a new one and the older
 *   is dropped: the recording holds at least a fifth of the bound of the run's latest output.
 *
 * The head ends with a `g` event when it is full: what came between it and the first state kept
 * is not in the recording. A state is saved only at those part boundaries, never per input, and
 * at most once per {@link MIN_MS_PER_STATE} of the run's clock: in a flood that fills a part
 * sooner, the output past the part's cap is dropped (a `g` event) until the next state, so a flood
 * costs the recording a few parts a second, not every byte. Whatever comes that is not output (a
 * channel event, a resize, the end) opens the next part at once, and so does the run's detector
 * holding a limit it may act on ({@link CastRecording.checkpoint}): the run's last decision is
 * always after a state the recording keeps. Without recent parts the beginning is kept and, once
 * the bound is reached, the recording says so (`t` event) and the rest is not recorded.
 *
 * @module
 */
import { constants, gzipSync } from "node:zlib";
import { castGapLine, castLines, castStateLine, castTruncatedLine } from "../detect/cast.ts";
import type { DetectorState } from "../detect/detector.ts";
import type { TimedInput } from "../detect/timed_input.ts";

/** Default bound on the compressed output kept per run. */
export const DEFAULT_RECORDING_BYTES = 4 * 1024 * 1024;

/** Least time (ms of the run's clock) between two saved states, unless the run needs one. */
export const MIN_MS_PER_STATE = 250;

const _BLOCK = 256 * 1024;
const _encoder = new TextEncoder();

/** Where a recording's members go: a head part, and recent parts when the sink keeps them. */
export interface RecordingSink {
  /** Appends `member` to the part being written (the head, then the newest recent part). */
  append(member: Uint8Array): void;
  /** Begins a new recent part; the newest becomes the older, the older one before it is dropped. */
  rotate(): void;
}

/** Options of a {@link CastRecording}. */
export interface CastRecordingOptions {
  /** Bound on the compressed bytes handed to the sink (default {@link DEFAULT_RECORDING_BYTES}). */
  maxBytes?: number;
  /**
   * The run's detector state now, between two inputs (null when it cannot be saved now): with a
   * sink that rotates, the recording keeps the run's most recent part too.
   */
  state?: () => DetectorState | null;
  /** Least time between two saved states (default {@link MIN_MS_PER_STATE}; tests). */
  minMsPerState?: number;
}

/** What is being written: the head, a recent part, or one waiting for a state to open. */
type _Phase = "head" | "recent" | "opening";

/**
 * Collects a run's timed inputs as they arrive and hands each compressed member to `sink` (a
 * function: the head only). A sink that throws ends the recording (marked truncated); the error
 * goes no further.
 */
export class CastRecording {
  readonly #sink: RecordingSink;
  readonly #ring: boolean;
  readonly #state: (() => DetectorState | null) | undefined;
  readonly #headBytes: number;
  readonly #partBytes: number;
  readonly #partCap: number;
  readonly #minMs: number;
  /** Raw bytes a block of a recent part holds: its member always fits in the part's slack. */
  readonly #partBlock: number;
  readonly #block = new Uint8Array(_BLOCK);
  readonly #decoder = new TextDecoder();
  #filled = 0;
  /** Compressed bytes of the part being written. */
  #compressed = 0;
  #phase: _Phase = "head";
  /** The time of the first line in the block (where a cut would be). */
  #blockAt: number | null = null;
  /** When the last state was saved (ms of the run's clock). */
  #stateAt = -Infinity;
  /** The part being written reached its cap: what comes is dropped until the next part. */
  #dropping = false;
  #truncated = false;

  /** Starts a recording whose first line is `headerLine` (see `castHeaderLine`). */
  constructor(
    sink: ((member: Uint8Array) => void) | RecordingSink,
    headerLine: string,
    opts: CastRecordingOptions = {},
  ) {
    this.#sink = typeof sink === "function" ? { append: sink, rotate: () => {} } : sink;
    this.#ring = typeof sink !== "function" && opts.state !== undefined;
    this.#state = opts.state;
    const max = opts.maxBytes ?? DEFAULT_RECORDING_BYTES;
    this.#headBytes = this.#ring ? Math.floor(max / 2) : max;
    this.#partBytes = Math.floor(max / 5);
    this.#partCap = Math.floor(max / 4);
    this.#minMs = opts.minMsPerState ?? MIN_MS_PER_STATE;
    // Deflate never grows data by more than a few bytes per block: a part's member is at most its
    // raw size plus a header, so one that starts below the part's size ends below its cap.
    this.#partBlock = Math.max(1024, Math.min(_BLOCK, this.#partCap - this.#partBytes - 64));
    this.#write([headerLine, "\n"], 0);
  }

  /** Whether the recording stopped before the run's end (its bound, or a sink that failed). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Adds one input (before the detector reads it). Its bytes are not kept. */
  add(input: TimedInput): void {
    if (this.#truncated) return;
    if (
      this.#phase === "opening" &&
      (input.type !== "output" || input.atMs - this.#stateAt >= this.#minMs)
    ) this.#open();
    if (this.#dropping) return;
    this.#write(castLines(input, this.#decoder), input.atMs);
  }

  /**
   * The run's detector holds a limit it may act on without more input (its next look confirms
   * it): when the output is being dropped (a flood), a part opens now with its state, so the
   * decision is replayed. Cheap when nothing is dropped.
   */
  checkpoint(): void {
    if (this.#dropping && !this.#truncated) this.#open();
  }

  /** Stops recording: nothing more is kept (for a run that records nowhere). */
  stop(): void {
    this.#filled = 0;
    this.#truncated = true;
  }

  /**
   * Hands what was gathered since the last member to the sink now, as a member of its own. Blocks
   * fill themselves; flushing sooner bounds what a killed run loses.
   */
  flush(): void {
    if (this.#filled === 0 || this.#truncated) return;
    const raw = this.#block.subarray(0, this.#filled);
    this.#filled = 0;
    this.#emit(raw, this.#blockAt ?? 0);
    this.#blockAt = null;
  }

  /** Hands the last partial block to the sink; says whether the recording was cut short. */
  finish(): { truncated: boolean } {
    this.flush();
    if (this.#dropping) this.#truncated = true;
    return { truncated: this.#truncated };
  }

  /** Opens a recent part with the detector's state, when it can be saved now. */
  #open(): void {
    const state = this.#state?.();
    if (!state) return;
    // What was gathered belongs before the state: it ends the part it was written for.
    this.flush();
    if (this.#truncated) return;
    this.#filled = 0;
    this.#blockAt = null;
    try {
      this.#sink.rotate();
    } catch {
      this.#fail();
      return;
    }
    this.#phase = "recent";
    this.#compressed = 0;
    this.#dropping = false;
    this.#stateAt = state.nowUs / 1000;
    const member = gzipSync(_encoder.encode(castStateLine(state)), {
      level: constants.Z_BEST_SPEED,
    });
    if (this.#send(member)) this.#compressed += member.length;
  }

  /** Writes the line(s) whose pieces are `pieces` (see `castLines`) into the block, whole. */
  #write(pieces: readonly string[], atMs: number): void {
    const size = this.#phase === "head" ? _BLOCK : this.#partBlock;
    if (!this.#fill(this.#filled, pieces, size)) {
      // They do not fit: the block goes out with whole lines only, and they start a new one.
      this.flush();
      if (this.#truncated || this.#dropping) return;
      if (!this.#fill(0, pieces, size)) {
        // Larger than a block (one huge read): a member of its own.
        this.#emit(_encodePieces(pieces), atMs);
        return;
      }
    }
    this.#blockAt ??= atMs;
  }

  /** Encodes `pieces` into the block from `at`, when they fit below `size` (else `#filled` stays). */
  #fill(at: number, pieces: readonly string[], size: number): boolean {
    let end = at;
    for (const piece of pieces) {
      const done = _encoder.encodeInto(piece, this.#block.subarray(end, size));
      if (done.read < piece.length) return false;
      end += done.written;
    }
    this.#filled = end;
    return true;
  }

  #emit(raw: Uint8Array, atMs: number): void {
    if (this.#truncated || this.#dropping) return;
    const member = gzipSync(raw, { level: constants.Z_BEST_SPEED });
    const bound = this.#phase === "head" ? this.#headBytes : this.#partCap;
    if (this.#compressed + member.length > bound) {
      this.#filled = 0;
      if (!this.#ring) {
        this.#truncated = true;
        // Past the bound by one short line, so a reader knows the rest was not recorded.
        this.#send(gzipSync(_encoder.encode(castTruncatedLine(atMs))));
        return;
      }
      // A gap from here to the next part's state; that part opens at the next input it can.
      this.#send(gzipSync(_encoder.encode(castGapLine(atMs))));
      this.#dropping = true;
      this.#phase = "opening";
      return;
    }
    if (!this.#send(member)) return;
    this.#compressed += member.length;
    if (this.#phase === "recent" && this.#compressed >= this.#partBytes) this.#phase = "opening";
  }

  #send(member: Uint8Array): boolean {
    try {
      this.#sink.append(member);
      return true;
    } catch {
      this.#fail();
      return false;
    }
  }

  // The journal cannot take more (disk full…): the recording ends, never the run.
  #fail(): void {
    this.#truncated = true;
    this.#filled = 0;
  }
}

// The UTF-8 of `pieces` one after another, without joining them into one string first.
function _encodePieces(pieces: readonly string[]): Uint8Array {
  let most = 0;
  for (const piece of pieces) most += piece.length * 3;
  const out = new Uint8Array(most);
  let end = 0;
  for (const piece of pieces) end += _encoder.encodeInto(piece, out.subarray(end)).written;
  return out.subarray(0, end);
}
