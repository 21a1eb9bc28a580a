/**
 * Keeps a run's raw terminal output with its timing, bounded, for `uuldana export`. Output is
 * copied into one reusable block and compressed block by block as it arrives (gzip members, which
 * concatenate into one valid gzip stream), so memory holds only compressed data plus one block,
 * and a burst costs no more than the compressed bound. The beginning is kept (a recording must
 * start at the beginning to replay); once the compressed bound is reached the rest is counted as
 * truncated.
 *
 * @module
 */
import { constants, gunzipSync, gzipSync } from "node:zlib";

/** Default bound on the compressed output kept per run. */
export const DEFAULT_RECORDING_BYTES = 4 * 1024 * 1024;

const _BLOCK = 256 * 1024;

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
  readonly #members: Uint8Array[] = [];
  readonly #timing: string[] = [];
  readonly #maxBytes: number;
  readonly #block = new Uint8Array(_BLOCK);
  #filled = 0;
  #compressed = 0;
  /** Raw bytes inside the kept members. */
  #kept = 0;
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
      if (this.#filled === _BLOCK) this.#flush();
      if (this.#truncated) return;
    }
  }

  #flush(): void {
    if (this.#filled === 0) return;
    const raw = this.#filled;
    const member = gzipSync(this.#block.subarray(0, raw), { level: constants.Z_BEST_SPEED });
    this.#filled = 0;
    if (this.#compressed + member.length > this.#maxBytes) {
      this.#truncated = true;
      this.#trimTiming();
      return;
    }
    this.#members.push(new Uint8Array(member));
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

  /** The compressed recording. */
  finish(): StoredRecording {
    this.#flush();
    const data = new Uint8Array(this.#compressed);
    let at = 0;
    for (const m of this.#members) {
      data.set(m, at);
      at += m.length;
    }
    return {
      cols: this.cols,
      rows: this.rows,
      timing: this.#timing.join("\n"),
      data,
      truncated: this.#truncated,
    };
  }
}

/** The raw bytes of a stored recording. */
export function recordingBytes(stored: { data: Uint8Array }): Uint8Array {
  return stored.data.length ? new Uint8Array(gunzipSync(stored.data)) : new Uint8Array();
}
