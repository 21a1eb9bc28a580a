/**
 * Follows a log file an agent appends to (Gemini CLI's debug log), as `ChannelReader` follows a
 * channel index: each look reads what the file gained since the last one, at most
 * {@link LOG_MAX_READ} bytes (the rest waits for the next look), and returns its complete lines.
 * Bounded: a line longer than {@link LOG_MAX_LINE} is cut there (its rest skipped), and once the
 * file has grown past its cap (default {@link LOG_MAX_FILE}) it is emptied after a look, so it
 * never fills the disk (the agent appends, so its writes go on at the new end). A missing file is
 * nothing yet; a link is never followed. It never throws.
 *
 * @module
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync } from "node:fs";

/** The most bytes one look reads. */
export const LOG_MAX_READ = 64 * 1024;
/** The longest line kept, in bytes; a longer one is cut. */
export const LOG_MAX_LINE = 16 * 1024;
/** The size past which the file is emptied. */
export const LOG_MAX_FILE = 8 * 1024 * 1024;

const _decoder = new TextDecoder();
const _NEWLINE = 0x0a;

/** What one look found. */
export interface LogLook {
  /** Complete lines, without their newline. */
  lines: string[];
  /** More is waiting: look again soon. */
  more: boolean;
}

/** Follows one log file. */
export class LogFollower {
  readonly path: string;
  readonly #maxFile: number;
  #fd: number | null = null;
  #offset = 0;
  #partial: Uint8Array[] = [];
  #partialSize = 0;
  #skipping = false;
  readonly #buf = new Uint8Array(LOG_MAX_READ);

  constructor(path: string, opts: { maxFile?: number } = {}) {
    this.path = path;
    this.#maxFile = opts.maxFile ?? LOG_MAX_FILE;
  }

  /** Reads what was appended since the last look. Never throws. */
  look(): LogLook {
    const out: LogLook = { lines: [], more: false };
    const fd = this.#open();
    if (fd === null) return out;
    try {
      const size = fstatSync(fd).size;
      if (size < this.#offset) this.#offset = 0; // emptied by someone else: start over
      const want = Math.min(size - this.#offset, this.#buf.length);
      if (want <= 0) return out;
      const n = readSync(fd, this.#buf, 0, want, this.#offset);
      if (n <= 0) return out;
      this.#offset += n;
      this.#lines(this.#buf.subarray(0, n), out.lines);
      out.more = this.#offset < size;
      if (!out.more && this.#offset >= this.#maxFile) {
        ftruncateSync(fd, 0);
        this.#offset = 0;
      }
    } catch { /* a file that cannot be read now may be read later */ }
    return out;
  }

  /** Closes the file. */
  close(): void {
    if (this.#fd === null) return;
    try {
      closeSync(this.#fd);
    } catch { /* closed */ }
    this.#fd = null;
  }

  #open(): number | null {
    if (this.#fd !== null) return this.#fd;
    try {
      this.#fd = openSync(
        this.path,
        constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
      if (!fstatSync(this.#fd).isFile()) {
        this.close();
        return null;
      }
    } catch {
      return null; // not there yet
    }
    return this.#fd;
  }

  #lines(chunk: Uint8Array, lines: string[]): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(_NEWLINE, start);
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl);
      if (!this.#skipping) {
        const room = LOG_MAX_LINE - this.#partialSize;
        if (piece.length > room) {
          this.#keep(piece.subarray(0, room));
          this.#skipping = true;
        } else this.#keep(piece);
      }
      if (nl < 0) return;
      lines.push(this.#take());
      this.#skipping = false;
      start = nl + 1;
    }
  }

  #keep(bytes: Uint8Array): void {
    if (!bytes.length) return;
    this.#partial.push(bytes.slice());
    this.#partialSize += bytes.length;
  }

  #take(): string {
    const out = new Uint8Array(this.#partialSize);
    let at = 0;
    for (const p of this.#partial) {
      out.set(p, at);
      at += p.length;
    }
    this.#partial = [];
    this.#partialSize = 0;
    return _decoder.decode(out);
  }
}
