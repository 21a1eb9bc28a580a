/**
 * Byte strings for the miner's fixtures: text (as UTF-8), raw bytes and arrays joined in order.
 *
 * @module
 */

const enc = new TextEncoder();

/** `parts` joined: strings as UTF-8, number arrays as raw bytes. */
export function bytesOf(...parts: (string | number[] | Uint8Array)[]): Uint8Array {
  const chunks = parts.map((p) =>
    typeof p === "string" ? enc.encode(p) : p instanceof Uint8Array ? p : new Uint8Array(p)
  );
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
