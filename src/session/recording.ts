/**
 * Keeps a run's timed inputs (what the agent wrote, with when its detector read it; resizes;
 * channel events; the end) as an asciicast v2 recording (src/detect/cast.ts), bounded, for
 * `uuldana export`, `uuldana debug detect RUN` and bug reports. Event lines are gathered in one
 * reusable block and compressed block by block as it fills (gzip members, which concatenate into
 * one valid gzip stream). Each member goes straight to a sink (a file beside the journal), so
 * memory holds one block whatever the burst, and a run that is killed keeps what it recorded up
 * to its last flush. A member holds whole lines only, so a recording cut anywhere still reads.
 * The beginning is kept (a recording must start at the beginning to replay); once the compressed
 * bound is reached the recording says so (`t` event) and the rest is not recorded.
 *
 * @module
 */
import { constants, gzipSync } from "node:zlib";
import { castLines, castTruncatedLine } from "../detect/cast.ts";
import type { TimedInput } from "../detect/timed_input.ts";

/** Default bound on the compressed output kept per run. */
export const DEFAULT_RECORDING_BYTES = 4 * 1024 * 1024;

const _BLOCK = 256 * 1024;
const _encoder = new TextEncoder();

/** Options of a {@link CastRecording}. */
export interface CastRecordingOptions {
  /** Bound on the compressed bytes handed to the sink (default {@link DEFAULT_RECORDING_BYTES}). */
  maxBytes?: number;
}

/**
 * Collects a run's timed inputs as they arrive and hands each compressed member to `sink`. A
 * sink that throws ends the recording (marked truncated); the error goes no further.
 */
export class CastRecording {
  readonly #sink: (member: Uint8Array) => void;
  readonly #maxBytes: number;
  readonly #block = new Uint8Array(_BLOCK);
  readonly #decoder = new TextDecoder();
  #filled = 0;
  #compressed = 0;
  /** The time of the first line in the block (where a cut would be). */
  #blockAt: number | null = null;
  #truncated = false;

  /** Starts a recording whose first line is `headerLine` (see `castHeaderLine`). */
  constructor(
    sink: (member: Uint8Array) => void,
    headerLine: string,
    opts: CastRecordingOptions = {},
  ) {
    this.#sink = sink;
    this.#maxBytes = opts.maxBytes ?? DEFAULT_RECORDING_BYTES;
    this.#write(headerLine + "\n", 0);
  }

  /** Whether the recording stopped before the run's end (its bound, or a sink that failed). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Adds one input. Its bytes are not kept. */
  add(input: TimedInput): void {
    if (this.#truncated) return;
    this.#write(castLines(input, this.#decoder), input.atMs);
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
    return { truncated: this.#truncated };
  }

  #write(text: string, atMs: number): void {
    let done = _encoder.encodeInto(text, this.#block.subarray(this.#filled));
    if (done.read < text.length) {
      // It does not fit: the block goes out with whole lines only, and the text starts a new one.
      this.flush();
      if (this.#truncated) return;
      done = _encoder.encodeInto(text, this.#block);
      if (done.read < text.length) {
        // Larger than a block (one huge read of escape sequences): a member of its own.
        this.#emit(_encoder.encode(text), atMs);
        return;
      }
    }
    this.#filled += done.written;
    this.#blockAt ??= atMs;
  }

  #emit(raw: Uint8Array, atMs: number): void {
    if (this.#truncated) return;
    const member = gzipSync(raw, { level: constants.Z_BEST_SPEED });
    if (this.#compressed + member.length > this.#maxBytes) {
      this.#truncated = true;
      this.#filled = 0;
      // Past the bound by one short line, so a reader knows the rest was not recorded.
      this.#send(gzipSync(_encoder.encode(castTruncatedLine(atMs))));
      return;
    }
    if (this.#send(member)) this.#compressed += member.length;
  }

  #send(member: Uint8Array): boolean {
    try {
      this.#sink(member);
      return true;
    } catch {
      // The journal cannot take more (disk full…): the recording ends, never the run.
      this.#truncated = true;
      this.#filled = 0;
      return false;
    }
  }
}
