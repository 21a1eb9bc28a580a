/**
 * Keeps a run's raw terminal output with its timing, bounded, for `uuldana export`. The first
 * `maxBytes` are kept (a recording must start at the beginning to replay correctly); the rest is
 * counted as truncated. Stored gzip-compressed.
 *
 * @module
 */
import { gunzipSync, gzipSync } from "node:zlib";

/** Default bound on raw output kept per run (before compression). */
export const DEFAULT_RECORDING_BYTES = 16 * 1024 * 1024;

/** A finished recording as stored in the journal. */
export interface StoredRecording {
  cols: number;
  rows: number;
  /** Classic `script` timing: one line per chunk, `<seconds since previous> <bytes>`. */
  timing: string;
  /** gzip of the concatenated chunks. */
  data: Uint8Array;
  truncated: boolean;
}

/** Collects output chunks as they arrive. */
export class OutputRecording {
  readonly #chunks: Uint8Array[] = [];
  readonly #timing: string[] = [];
  readonly #maxBytes: number;
  #bytes = 0;
  #last: number;
  #truncated = false;

  constructor(
    readonly cols: number,
    readonly rows: number,
    maxBytes = DEFAULT_RECORDING_BYTES,
    now = performance.now(),
  ) {
    this.#maxBytes = maxBytes;
    this.#last = now;
  }

  /** Adds one chunk seen at `now` (ms, performance clock). */
  add(chunk: Uint8Array, now = performance.now()): void {
    if (this.#truncated) return;
    const room = this.#maxBytes - this.#bytes;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    if (kept.length < chunk.length) this.#truncated = true;
    if (kept.length === 0) return;
    this.#chunks.push(kept.slice());
    this.#timing.push(`${((now - this.#last) / 1000).toFixed(6)} ${kept.length}`);
    this.#bytes += kept.length;
    this.#last = now;
  }

  /** The compressed recording. */
  finish(): StoredRecording {
    const all = new Uint8Array(this.#bytes);
    let at = 0;
    for (const c of this.#chunks) {
      all.set(c, at);
      at += c.length;
    }
    return {
      cols: this.cols,
      rows: this.rows,
      timing: this.#timing.join("\n"),
      data: gzipSync(all),
      truncated: this.#truncated,
    };
  }
}

/** The raw bytes of a stored recording. */
export function recordingBytes(stored: { data: Uint8Array }): Uint8Array {
  return new Uint8Array(gunzipSync(stored.data));
}
