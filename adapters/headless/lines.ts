/**
 * Splits a byte stream into lines as it arrives: UTF-8 sequences and line terminators may be cut
 * anywhere between chunks, `\r\n` counts as one terminator, and a line longer than the bound is
 * cut (its tail dropped up to the next newline) so a runaway stream cannot exhaust memory.
 *
 * @module
 */

/** Default longest line kept, in UTF-16 code units (16 Mi): tool results can be large. */
export const DEFAULT_MAX_LINE = 16 * 1024 * 1024;

/** An incremental line splitter. */
export class LineSplitter {
  readonly #decoder = new TextDecoder("utf-8", { fatal: false });
  readonly #maxLine: number;
  #buffer = "";
  #dropping = false;
  #cutLines = 0;

  /** `maxLine`: longest line kept (code units); longer ones are cut to this length. */
  constructor(maxLine: number = DEFAULT_MAX_LINE) {
    this.#maxLine = maxLine;
  }

  /** How many lines were cut because they exceeded the bound. */
  get cutLines(): number {
    return this.#cutLines;
  }

  /** Feeds a chunk of bytes (or text); returns the lines it completed. */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    return this.#take(text, false);
  }

  /** Ends the stream; returns the last line when it had no terminator. */
  end(): string[] {
    return this.#take(this.#decoder.decode(), true);
  }

  #take(text: string, final: boolean): string[] {
    const out: string[] = [];
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf("\n", start);
      const piece = nl === -1 ? text.slice(start) : text.slice(start, nl);
      if (!this.#dropping) {
        this.#buffer += piece;
        if (this.#buffer.length > this.#maxLine) {
          out.push(this.#buffer.slice(0, this.#maxLine));
          this.#buffer = "";
          this.#cutLines++;
          this.#dropping = true;
        }
      }
      if (nl === -1) break;
      if (!this.#dropping) out.push(_stripCr(this.#buffer));
      this.#buffer = "";
      this.#dropping = false;
      start = nl + 1;
    }
    if (final) {
      if (!this.#dropping && this.#buffer !== "") out.push(_stripCr(this.#buffer));
      this.#buffer = "";
      this.#dropping = false;
    }
    return out;
  }
}

function _stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
