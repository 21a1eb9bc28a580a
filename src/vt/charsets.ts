/**
 * Character sets selectable with SCS (`ESC ( 0` …): the 94-character sets that replace ASCII
 * glyphs (DEC Special Graphics and the national sets, as xterm.js maps them: the data is
 * `charsets.json`), and which of them a screen has designated and shifted in.
 *
 * @module
 */
import data from "./charsets.json" with { type: "json" };

/** Replacement code point per ASCII code (0 = unchanged). */
export type Charset = Uint32Array;

function _charset(map: Record<string, string>): Charset {
  const table = new Uint32Array(128);
  // xterm.js prints the first code unit of a mapping (Dutch "[" is "ij": "i")
  for (const [from, to] of Object.entries(map)) table[from.charCodeAt(0)] = to.charCodeAt(0);
  return table;
}

const _BY_FINAL = new Map<number, Charset | null>([
  ...data.ascii.map((f) => [f.charCodeAt(0), null] as const),
  ...Object.entries(data.sets).map(([f, set]) => [f.charCodeAt(0), _charset(set.map)] as const),
]);

/**
 * The charset selected by SCS final byte `final`: a table, null for ASCII, or undefined when
 * xterm.js does not know the final (the sequence is then ignored).
 */
export function charsetFor(final: number): Charset | null | undefined {
  return _BY_FINAL.get(final);
}

/** The SCS final byte that selects `charset` (ASCII: `B`), the inverse of {@link charsetFor}. */
export function charsetFinal(charset: Charset | null): number {
  if (charset === null) return 0x42;
  for (const [final, set] of _BY_FINAL) if (set === charset) return final;
  return 0x42;
}

/** G0–G3 as designated by SCS, and the set shifted in (GL) that printing maps through. */
export class Charsets {
  /** The set in use (GL), null for ASCII. DECRC restores it directly, as xterm.js does. */
  gl: Charset | null = null;
  readonly #g: (Charset | null)[] = [null, null, null, null];
  #level = 0;

  /** G0–G3 as SCS final bytes and the level shifted in (a saved terminal, terminal_state.ts). */
  save(): { g: number[]; level: number } {
    return { g: this.#g.map(charsetFinal), level: this.#level };
  }

  /** Puts back what {@link save} returned. */
  restore(saved: { g: readonly number[]; level: number }): void {
    for (let i = 0; i < 4; i++) this.#g[i] = charsetFor(saved.g[i] ?? 0x42) ?? null;
    this.shift(saved.level);
  }

  /** G0–G3 back to ASCII, G0 shifted in. */
  reset(): void {
    for (let i = 0; i < 4; i++) this.#g[i] = null;
    this.#level = 0;
    this.gl = null;
  }

  /** Locking shift (SI, SO, LS2, LS3…): G`level` becomes the set in use. */
  shift(level: number): void {
    this.#level = level;
    this.gl = this.#g[level];
  }

  /** SCS: designates `charset` as G`g` (in use at once when G`g` is shifted in). */
  designate(g: number, charset: Charset | null): void {
    this.#g[g] = charset;
    if (this.#level === g) this.gl = charset;
  }
}
