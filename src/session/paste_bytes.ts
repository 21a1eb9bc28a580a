/**
 * The bytes of one bracketed paste as the key tracker (`input.ts`) keeps them while it arrives:
 * its first {@linkcode PASTE_KEEP_BYTES} in a head that grows as needed, its last ones in a ring,
 * and a count of all, so a paste of any size costs a bounded copy. When it ends, the text to put in
 * the line: the head and the tail cut at code point boundaries, with the bytes between them
 * counted, decoded as the agent's input box takes them. Pure.
 *
 * @module
 */
import { TURN_CAP } from "./line_buffer.ts";

/** The bytes kept from each end of one paste (the middle of a longer one is counted, not kept). */
export const PASTE_KEEP_BYTES = TURN_CAP / 2;
// The head a paste starts with (most are short); a longer one is dropped after its paste.
const _FIRST_CHUNK = 256;

/** A paste's text as kept: `head`, then `omitted` bytes not kept, then `tail` ("" when whole). */
export interface KeptPaste {
  head: string;
  omitted: number;
  tail: string;
}

/** One paste's bytes while it arrives; see the module doc. */
export class PasteBytes {
  #head = new Uint8Array(0);
  #ring: Uint8Array | null = null;
  #bytes = 0;

  /** A paste begins: nothing kept. */
  start(): void {
    this.#bytes = 0;
    this.#ring = null;
    if (this.#head.length !== _FIRST_CHUNK) this.#head = new Uint8Array(_FIRST_CHUNK);
  }

  /** Keeps pasted bytes: in the head while it has room, the rest in the ring of the last ones. */
  add(run: Uint8Array): void {
    let rest = run;
    const n = this.#bytes;
    if (n < PASTE_KEEP_BYTES) {
      const take = Math.min(rest.length, PASTE_KEEP_BYTES - n);
      if (n + take > this.#head.length) {
        const size = Math.max(n + take, Math.min(PASTE_KEEP_BYTES, this.#head.length * 2));
        const grown = new Uint8Array(size);
        grown.set(this.#head.subarray(0, n));
        this.#head = grown;
      }
      this.#head.set(rest.subarray(0, take), n);
      this.#bytes += take;
      rest = rest.subarray(take);
      if (rest.length === 0) return;
    }
    // Of the rest only the last PASTE_KEEP_BYTES can be kept; the ring holds them in order
    // from the write position.
    if (rest.length > PASTE_KEEP_BYTES) {
      this.#bytes += rest.length - PASTE_KEEP_BYTES;
      rest = rest.subarray(rest.length - PASTE_KEEP_BYTES);
    }
    const ring = this.#ring ??= new Uint8Array(PASTE_KEEP_BYTES);
    const at = (this.#bytes - PASTE_KEEP_BYTES) % PASTE_KEEP_BYTES;
    const first = Math.min(rest.length, PASTE_KEEP_BYTES - at);
    ring.set(rest.subarray(0, first), at);
    ring.set(rest.subarray(first), 0);
    this.#bytes += rest.length;
  }

  /** The paste ended: its text as kept (see {@linkcode KeptPaste}); the buffers are let go. */
  end(): KeptPaste {
    const n = this.#bytes;
    let head: Uint8Array = this.#head.subarray(0, Math.min(n, PASTE_KEEP_BYTES));
    let tail: Uint8Array = new Uint8Array(0);
    if (n > 2 * PASTE_KEEP_BYTES) {
      // The ring wrapped: its oldest byte is at the write position.
      const ring = this.#ring!;
      const at = (n - PASTE_KEEP_BYTES) % PASTE_KEEP_BYTES;
      tail = new Uint8Array(PASTE_KEEP_BYTES);
      tail.set(ring.subarray(at));
      tail.set(ring.subarray(0, at), PASTE_KEEP_BYTES - at);
    } else if (n > PASTE_KEEP_BYTES) tail = this.#ring!.subarray(0, n - PASTE_KEEP_BYTES);
    let omitted = n - head.length - tail.length;
    if (omitted > 0) {
      // Cut at code point boundaries: a head ends before a split sequence, a tail starts after.
      const end = _utf8CompleteEnd(head);
      let start = 0;
      while (start < 3 && start < tail.length && (tail[start] & 0xc0) === 0x80) start++;
      omitted += head.length - end + start;
      head = head.subarray(0, end);
      tail = tail.subarray(start);
    }
    // Uncut, the two parts are one text (a character or CR LF may straddle them).
    const kept = omitted > 0
      ? { head: pasteText(head), omitted, tail: pasteText(tail) }
      : { head: pasteText(_joined(head, tail)), omitted: 0, tail: "" };
    this.#ring = null;
    if (this.#head.length > _FIRST_CHUNK) this.#head = new Uint8Array(0);
    return kept;
  }
}

/** The end of `bytes` without a UTF-8 sequence that the cut left incomplete. */
function _utf8CompleteEnd(bytes: Uint8Array): number {
  const n = bytes.length;
  let lead = n - 1;
  while (lead > 0 && n - lead < 4 && (bytes[lead] & 0xc0) === 0x80) lead--;
  if (lead < 0 || bytes[lead] < 0xc0) return n;
  const need = bytes[lead] >= 0xf0 ? 4 : bytes[lead] >= 0xe0 ? 3 : 2;
  return n - lead < need ? lead : n;
}

function _joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (b.length === 0) return a;
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}

const _decoder = new TextDecoder();

/**
 * Pasted bytes as the box takes them: CR, LF and CR LF are each one newline, Tab stays, other
 * controls (the ESC of a partial end marker) are dropped; malformed UTF-8 becomes U+FFFD.
 */
export function pasteText(bytes: Uint8Array): string {
  if (bytes.length === 0) return "";
  // deno-lint-ignore no-control-regex
  return _decoder.decode(bytes).replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}
