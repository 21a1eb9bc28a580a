/**
 * Keeps a run's raw terminal output with its timing, bounded, for `uuldana export`. Output is
 * copied into one reusable block and compressed block by block as it arrives (gzip members, which
 * concatenate into one valid gzip stream). Each member goes straight to a sink (a file beside
 * the journal), so memory holds one block whatever the burst, and a run that is killed keeps what
 * it recorded up to its last flush. The beginning is kept (a recording must start at the beginning to replay); once the
 * compressed bound is reached the rest is counted as truncated.
 *
 * @module
 */
import { constants, gunzipSync, gzipSync } from "node:zlib";

/** Default bound on the compressed output kept per run. */
export const DEFAULT_RECORDING_BYTES = 4 * 1024 * 1024;

const _BLOCK = 256 * 1024;

/** What a recording adds once it is finished: the timing that goes with its members. */
export interface RecordingSummary {
  /** Classic `script` timing: one line per chunk, `<seconds since previous> <bytes>`. */
  timing: string;
  truncated: boolean;
}

/** A finished recording as read back from the journal. */
export interface StoredRecording extends RecordingSummary {
  cols: number;
  rows: number;
  /** gzip of the concatenated chunks (the members in order). */
  data: Uint8Array;
}

/** Options of an {@link OutputRecording}. */
export interface OutputRecordingOptions {
  /** Bound on the compressed bytes handed to the sink (default {@link DEFAULT_RECORDING_BYTES}). */
  maxBytes?: number;
  /** Start of the timing clock (ms, performance clock). */
  now?: number;
}

/**
 * Collects output chunks as they arrive and hands each compressed member to `sink`. A sink that
 * throws ends the recording (marked truncated); the error goes no further.
 */
export class OutputRecording {
  readonly #sink: (member: Uint8Array) => void;
  readonly #timing: string[] = [];
  readonly #maxBytes: number;
  readonly #block = new Uint8Array(_BLOCK);
  #filled = 0;
  #compressed = 0;
  /** Raw bytes inside the members handed out. */
  #kept = 0;
  #last: number;
  #truncated = false;

  constructor(sink: (member: Uint8Array) => void, opts: OutputRecordingOptions = {}) {
    this.#sink = sink;
    this.#maxBytes = opts.maxBytes ?? DEFAULT_RECORDING_BYTES;
    this.#last = opts.now ?? performance.now();
  }

  /** Adds one chunk seen at `now` (ms, performance clock). The chunk is not kept. */
  add(chunk: Uint8Array, now = performance.now()): void {
    if (this.#truncated) return;
    this.#timing.push(`${((now - this.#last) / 1000).toFixed(6)} ${chunk.length}`);
    this.#last = now;
    for (let at = 0; at < chunk.length;) {
      const n = Math.min(chunk.length - at, _BLOCK - this.#filled);
      this.#block.set(chunk.subarray(at, at + n), this.#filled);
      this.#filled += n;
      at += n;
      if (this.#filled === _BLOCK) this.flush();
      if (this.#truncated) return;
    }
  }

  /** Stops recording: what follows is counted as truncated. */
  stop(): void {
    if (this.#truncated) return;
    this.#filled = 0;
    this.#truncated = true;
    this.#trimTiming();
  }

  /**
   * Hands what was gathered since the last member to the sink now, as a member of its own. Blocks
   * fill themselves; flushing sooner bounds what a killed run loses.
   */
  flush(): void {
    if (this.#filled === 0 || this.#truncated) return;
    const raw = this.#filled;
    const member = gzipSync(this.#block.subarray(0, raw), { level: constants.Z_BEST_SPEED });
    this.#filled = 0;
    if (this.#compressed + member.length > this.#maxBytes) {
      this.stop();
      return;
    }
    try {
      this.#sink(member);
    } catch {
      // The journal cannot take more (disk full…): the recording ends, never the run.
      this.stop();
      return;
    }
    this.#compressed += member.length;
    this.#kept += raw;
  }

  // After truncation the timing describes exactly the bytes kept, so an export replays them.
  #trimTiming(): void {
    let sum = 0;
    for (let i = 0; i < this.#timing.length; i++) {
      const [delay, size] = this.#timing[i].split(" ");
      const n = Number(size);
      if (sum + n >= this.#kept) {
        const rest = this.#kept - sum;
        this.#timing.length = rest > 0 ? i + 1 : i;
        if (rest > 0) this.#timing[i] = `${delay} ${rest}`;
        return;
      }
      sum += n;
    }
  }

  /** Hands the last partial block to the sink and returns the timing of everything kept. */
  finish(): RecordingSummary {
    this.flush();
    return { timing: this.#timing.join("\n"), truncated: this.#truncated };
  }
}

/** The raw bytes of a stored recording. */
export function recordingBytes(stored: { data: Uint8Array }): Uint8Array {
  return stored.data.length ? new Uint8Array(gunzipSync(stored.data)) : new Uint8Array();
}
