/**
 * A table of handlers by sequence identifier, written the way the sequences read: `"?h"` is
 * `CSI ? … h`, `" @"` is `CSI … SP @`, `"(0"` is `ESC ( 0`. The identifier is what the parser
 * passes (`Performer`): the prefix and intermediate bytes, then the final byte, 8 bits each.
 *
 * @module
 */

/**
 * The identifier of the sequence whose prefix/intermediates and final byte are `chars`.
 *
 * @example
 * ```ts
 * identOf("?h"); // 0x3f68
 * ```
 */
export function identOf(chars: string): number {
  let ident = 0;
  for (let i = 0; i < chars.length; i++) ident = (ident << 8) | chars.charCodeAt(i);
  return ident;
}

/** Handlers by identifier; a final byte alone is found in an array, the rest in a map. */
export class DispatchTable<H> {
  readonly #byFinal: (H | undefined)[] = new Array(0x80).fill(undefined);
  readonly #byIdent = new Map<number, H>();

  /** A table of `entries`, each sequence written as for {@link identOf}. */
  constructor(entries: Iterable<readonly [string, H]>) {
    for (const [chars, handler] of entries) {
      const ident = identOf(chars);
      if (ident < 0x80) this.#byFinal[ident] = handler;
      else this.#byIdent.set(ident, handler);
    }
  }

  /** The handler of `ident`, undefined when the sequence has none. */
  get(ident: number): H | undefined {
    return ident < 0x80 ? this.#byFinal[ident] : this.#byIdent.get(ident);
  }
}
