/**
 * Follows a run's channel folder (the record format in `adapters/channel.ts`): each look reads what
 * the index gained since the last one, then each record's payload, which it removes. Bounded: a
 * look reads at most {@link MAX_INDEX_READ} bytes of index and {@link MAX_RECORDS_PER_LOOK}
 * records (the rest waits for the next look), and never more of a payload than the record limit
 * allows; each byte of the index is read once. A malformed line, a payload that is missing, not a
 * plain file, too large or not JSON is dropped and said in the result; it never throws.
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import {
  CHANNEL_EVENT_NAME,
  CHANNEL_INDEX,
  CHANNEL_MAX_LINE,
  CHANNEL_MAX_RECORD,
  CHANNEL_PAYLOAD_NAME,
  type ChannelRecord,
} from "../../adapters/channel.ts";

/** The most index bytes one look reads. */
export const MAX_INDEX_READ = 64 * 1024;
/** The most records one look returns. */
export const MAX_RECORDS_PER_LOOK = 256;

/** Why a record was dropped. */
export type DropReason = "malformed" | "oversized" | "missing";

/** A dropped record. */
export interface ChannelDrop {
  reason: DropReason;
  /** The event name, when the index line had a valid one. */
  name?: string;
  /** What was wrong, for the journal. */
  detail: string;
}

/** What one look found. */
export interface ChannelLook {
  records: ChannelRecord[];
  drops: ChannelDrop[];
  /** More is waiting (a look's bounds were reached): look again soon. */
  more: boolean;
}

const _decoder = new TextDecoder();
const _NEWLINE = 0x0a;

/** Reads one channel folder's records in the order they were published. */
export class ChannelReader {
  readonly dir: string;
  readonly #maxRecord: number;
  #index: number | null = null;
  #offset = 0;
  /** Bytes of an index line still without its newline. */
  #partial: Uint8Array = new Uint8Array(0);
  /** The current line is too long: skip to its newline. */
  #skipping = false;
  readonly #buf = new Uint8Array(MAX_INDEX_READ);

  constructor(dir: string, opts: { maxRecord?: number } = {}) {
    this.dir = dir;
    this.#maxRecord = opts.maxRecord ?? CHANNEL_MAX_RECORD;
  }

  /** Reads what was published since the last look. Never throws. */
  look(): ChannelLook {
    const out: ChannelLook = { records: [], drops: [], more: false };
    const fd = this.#openIndex();
    if (fd === null) return out;
    let size: number;
    try {
      size = fstatSync(fd).size;
    } catch {
      return out;
    }
    let budget = MAX_INDEX_READ;
    while (this.#offset < size && budget > 0 && out.records.length < MAX_RECORDS_PER_LOOK) {
      let n: number;
      const want = Math.min(budget, size - this.#offset, this.#buf.length);
      try {
        n = readSync(fd, this.#buf, 0, want, this.#offset);
      } catch {
        return out;
      }
      if (n <= 0) break;
      budget -= n;
      const used = this.#lines(this.#buf.subarray(0, n), out);
      this.#offset += used;
    }
    out.more = this.#offset < size;
    return out;
  }

  /** Closes the index. */
  close(): void {
    if (this.#index !== null) {
      try {
        closeSync(this.#index);
      } catch { /* already closed */ }
      this.#index = null;
    }
  }

  #openIndex(): number | null {
    if (this.#index !== null) return this.#index;
    try {
      this.#index = openSync(
        join(this.dir, CHANNEL_INDEX),
        constants.O_RDONLY | constants.O_NOFOLLOW,
      );
    } catch {
      return null; // no record yet
    }
    return this.#index;
  }

  // Handles the complete lines in `chunk`; returns how many of its bytes were used (a look that
  // reached its record bound stops at a line's end, the rest is read again next time).
  #lines(chunk: Uint8Array, out: ChannelLook): number {
    let start = 0;
    for (;;) {
      if (out.records.length >= MAX_RECORDS_PER_LOOK) return start;
      const nl = chunk.indexOf(_NEWLINE, start);
      if (nl < 0) {
        const rest = chunk.subarray(start);
        if (this.#skipping) return chunk.length;
        if (this.#partial.length + rest.length > CHANNEL_MAX_LINE) {
          this.#partial = new Uint8Array(0);
          this.#skipping = true;
          out.drops.push({ reason: "malformed", detail: "an index line too long" });
        } else this.#partial = _concat(this.#partial, rest);
        return chunk.length;
      }
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      const line = this.#partial.length ? _concat(this.#partial, piece) : piece;
      this.#partial = new Uint8Array(0);
      if (line.length > CHANNEL_MAX_LINE) {
        out.drops.push({ reason: "malformed", detail: "an index line too long" });
        continue;
      }
      this.#record(_decoder.decode(line), out);
    }
  }

  #record(line: string, out: ChannelLook): void {
    const m = /^(\S+) (\S+)$/.exec(line);
    if (!m || !CHANNEL_EVENT_NAME.test(m[1]) || !CHANNEL_PAYLOAD_NAME.test(m[2])) {
      out.drops.push({ reason: "malformed", detail: `an index line that is not a record` });
      return;
    }
    const [, name, file] = m;
    const payload = this.#payload(join(this.dir, file));
    if ("drop" in payload) {
      out.drops.push({ reason: payload.drop, name, detail: payload.detail });
      return;
    }
    try {
      out.records.push({ name, data: JSON.parse(_decoder.decode(payload.bytes)) });
    } catch {
      out.drops.push({ reason: "malformed", name, detail: "a payload that is not JSON" });
    }
  }

  // The payload's bytes, at most the record limit; the file is removed whatever it held.
  #payload(
    path: string,
  ): { bytes: Uint8Array } | { drop: DropReason; detail: string } {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      _unlink(path); // a link (never followed) goes too
      return { drop: "missing", detail: "its payload file is missing or a link" };
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return { drop: "missing", detail: "its payload is not a plain file" };
      if (st.size > this.#maxRecord) {
        return { drop: "oversized", detail: `a payload of ${st.size} bytes` };
      }
      // Read one byte past the limit: a file that grew since (a hostile writer) is too large.
      const bytes = new Uint8Array(Math.min(st.size, this.#maxRecord) + 1);
      let got = 0;
      while (got < bytes.length) {
        const n = readSync(fd, bytes, got, bytes.length - got, got);
        if (n <= 0) break;
        got += n;
      }
      if (got > this.#maxRecord) {
        return { drop: "oversized", detail: `a payload over ${this.#maxRecord} bytes` };
      }
      return { bytes: bytes.subarray(0, got) };
    } catch (e) {
      return { drop: "missing", detail: `its payload could not be read (${(e as Error).message})` };
    } finally {
      try {
        closeSync(fd);
      } catch { /* closed */ }
      _unlink(path);
    }
  }
}

function _unlink(path: string): void {
  try {
    unlinkSync(path);
  } catch { /* gone already */ }
}

function _concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
