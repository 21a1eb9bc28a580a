/**
 * Cuts a byte stream into pieces that end on a UTF-8 character boundary, so each piece a run's
 * detector reads is also one text event of its recording (asciicast holds text, and a character a
 * `read` split in two cannot be written half in one event): a replay then reads exactly the pieces
 * the live run read. At most 3 bytes (the start of an incomplete character) wait for the next
 * piece; bytes that are not UTF-8 at all pass through as they are. Pure.
 *
 * @module
 */

/** Cuts output into pieces that end on a character boundary. */
export class Utf8Segmenter {
  /** The start of a character the last chunk ended in (0 to 3 bytes). */
  #carry: Uint8Array = new Uint8Array(0);

  /**
   * The piece to hand on for `chunk`: the bytes held from before, then `chunk` up to its last
   * complete character. May be empty; may be a view into `chunk` (not kept).
   */
  next(chunk: Uint8Array): Uint8Array {
    const held = this.#carry;
    // The piece is `held + chunk` up to `cut`. The held bytes are one character's start, so a cut
    // inside them can only be before all of them.
    const cut = held.length + chunk.length - _incompleteTail(held, chunk);
    let piece: Uint8Array;
    if (held.length === 0) piece = chunk.subarray(0, cut);
    else if (cut === 0) piece = new Uint8Array(0);
    else piece = _concat(held, chunk.subarray(0, cut - held.length));
    // Copied: the caller may reuse `chunk`.
    this.#carry = cut === 0 ? _concat(held, chunk) : chunk.slice(cut - held.length);
    return piece;
  }

  /** Whether the start of a character waits for the rest of it. */
  get holding(): boolean {
    return this.#carry.length > 0;
  }

  /** The bytes still held (an incomplete character at the end of the output). */
  rest(): Uint8Array {
    const rest = this.#carry;
    this.#carry = new Uint8Array(0);
    return rest;
  }
}

function _concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * How many bytes at the end of `held + chunk` are the start of a character not complete yet,
 * counted from the end of `chunk` (at most 3).
 */
function _incompleteTail(held: Uint8Array, chunk: Uint8Array): number {
  const total = held.length + chunk.length;
  const at = (i: number) => i < held.length ? held[i] : chunk[i - held.length];
  // The last byte that is not a continuation byte (10xxxxxx), among the last 4.
  for (let back = 1; back <= Math.min(4, total); back++) {
    const b = at(total - back);
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 && b <= 0xf4
      ? 4
      : b >= 0xe0 && b <= 0xef
      ? 3
      : b >= 0xc2 && b <= 0xdf
      ? 2
      : 1;
    return need > back ? back : 0;
  }
  return 0;
}
