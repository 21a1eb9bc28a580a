/**
 * OpenCode's identifiers (Kilo's too): `prefix_` + 12 hex digits of `(ms × 4096 + counter)` (the
 * low 48 bits; bit-inverted for descending ids) + 14 random base-62 characters. OpenCode orders
 * messages and parts by id, so an imported message must carry an id that sorts before the ids the
 * agent gives later turns (Kilo leaves out of a request every message that sorts after the turn's).
 * Sessions use descending ids (newest first in its lists). Pure but for the clock and the random
 * tail, both injectable.
 *
 * @module
 */

/** The kinds of id the import document needs. */
export type OpenCodeIdPrefix = "ses" | "msg" | "prt";

const _BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const _RANDOM_CHARS = 14;
const _MASK48 = (1n << 48n) - 1n;

// Ids made within one millisecond stay ordered, as the agent's own counter keeps them.
let _lastMs = 0;
let _counter = 0;

/**
 * A new id the way OpenCode makes one (`Identifier.ascending`/`descending`) at `now` (epoch ms).
 * `random` fills the tail's bytes (crypto by default).
 */
export function openCodeId(
  prefix: OpenCodeIdPrefix,
  opts: {
    descending?: boolean;
    now?: number;
    random?: (bytes: Uint8Array) => Uint8Array;
  } = {},
): string {
  const ms = opts.now ?? Date.now();
  if (ms !== _lastMs) {
    _lastMs = ms;
    _counter = 0;
  }
  _counter++;
  let value = BigInt(ms) * 0x1000n + BigInt(_counter);
  if (opts.descending) value = ~value;
  const hex = (value & _MASK48).toString(16).padStart(12, "0");
  const bytes = (opts.random ?? ((b) => crypto.getRandomValues(b)))(new Uint8Array(_RANDOM_CHARS));
  const tail = Array.from(bytes, (b) => _BASE62[b % 62]).join("");
  return `${prefix}_${hex}${tail}`;
}
