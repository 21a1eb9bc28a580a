/**
 * Character sets selectable with SCS (`ESC ( 0` …): the 94-character sets that replace ASCII
 * glyphs, and which of them a screen has designated and shifted in. Only DEC Special Graphics and
 * UK are mapped; other national sets print ASCII.
 *
 * @module
 */

/** Replacement code point per ASCII code (0 = unchanged). */
export type Charset = Uint32Array;

function _charset(map: Record<string, string>): Charset {
  const table = new Uint32Array(128);
  for (const [from, to] of Object.entries(map)) table[from.charCodeAt(0)] = to.codePointAt(0)!;
  return table;
}

/** DEC Special Graphics (`ESC ( 0`): line drawing. */
export const DEC_SPECIAL_GRAPHICS: Charset = _charset({
  "`": "\u25c6",
  a: "\u2592",
  b: "\u2409",
  c: "\u240c",
  d: "\u240d",
  e: "\u240a",
  f: "\u00b0",
  g: "\u00b1",
  h: "\u2424",
  i: "\u240b",
  j: "\u2518",
  k: "\u2510",
  l: "\u250c",
  m: "\u2514",
  n: "\u253c",
  o: "\u23ba",
  p: "\u23bb",
  q: "\u2500",
  r: "\u23bc",
  s: "\u23bd",
  t: "\u251c",
  u: "\u2524",
  v: "\u2534",
  w: "\u252c",
  x: "\u2502",
  y: "\u2264",
  z: "\u2265",
  "{": "\u03c0",
  "|": "\u2260",
  "}": "\u00a3",
  "~": "\u00b7",
});

/** UK (`ESC ( A`): `#` is the pound sign. */
export const UK: Charset = _charset({ "#": "\u00a3" });

/**
 * The charset selected by SCS final byte `final`: a table, null for ASCII, or undefined when
 * xterm.js does not know the final (the sequence is then ignored).
 */
export function charsetFor(final: number): Charset | null | undefined {
  switch (String.fromCharCode(final)) {
    case "0":
      return DEC_SPECIAL_GRAPHICS;
    case "A":
      return UK;
    case "B":
    case "4":
    case "C":
    case "5":
    case "R":
    case "Q":
    case "K":
    case "Y":
    case "E":
    case "6":
    case "Z":
    case "H":
    case "7":
    case "=":
      return null;
    default:
      return undefined;
  }
}

/** G0–G3 as designated by SCS, and the set shifted in (GL) that printing maps through. */
export class Charsets {
  /** The set in use (GL), null for ASCII. DECRC restores it directly, as xterm.js does. */
  gl: Charset | null = null;
  readonly #g: (Charset | null)[] = [null, null, null, null];
  #level = 0;

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
