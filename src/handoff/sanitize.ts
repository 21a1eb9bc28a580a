// deno-lint-ignore-file no-control-regex -- matching control characters is the point here
/**
 * Sanitising recorded text before it reaches any road, and measuring text in the units our limits
 * are stated in (Unicode code points; UTF-16 code units where a receiver counts those).
 *
 * After {@linkcode sanitize}, a text holds no ESC, no other C0/C1 control character except newline
 * and tab, no bidirectional control, no default-ignorable code point, and no lone surrogate. So a
 * recorded `ESC[201~` can never end a bracketed paste, no terminal sequence reaches the next
 * agent's screen, and no invisible character can hide a line that imitates the frame.
 *
 * Invisible means the Unicode property Default_Ignorable_Code_Point (zero-width space, joiners,
 * word joiner, BOM, soft hyphen, variation selectors, tag characters, Hangul fillers, …) plus the
 * bidirectional controls (U+061C, U+200E/F, U+202A–202E, U+2066–2069). All of them go, including
 * the zero-width joiner and variation selectors inside emoji sequences: 👩‍💻 arrives as 👩💻 and
 * ❤️ as ❤. The handoff is read by a model, not shown as art, and a joiner kept "only inside emoji"
 * would be a place to hide things; removing is the simpler and safer rule.
 *
 * @module
 */

// Whole escape sequences, removed together so their parameters do not survive as visible text:
// CSI (7-bit and 8-bit), string sequences (OSC, DCS, SOS, PM, APC) terminated by BEL or ST, and
// two-character ESC sequences. The string body is bounded so a stray `ESC ]` cannot eat the rest.
const _ESCAPE_SEQUENCES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|[\x1b][\]PX^_][^\x07\x1b\x9c\n]{0,4096}(?:\x07|\x1b\\|\x9c)|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]{0,4096}(?:\x07|\x1b\\|\x9c)|\x1b[ -/]*[0-~]/g;
// What is left after sequences are gone: every C0 control except tab and newline, DEL, C1
// controls, bidirectional embeddings/overrides/isolates (they can make text read differently
// than it is). Sequences come first in the alternation so they go whole, in one pass.
const _STRIP = new RegExp(
  _ESCAPE_SEQUENCES.source + String.raw`|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]`,
  "g",
);
// Invisible characters (see the module doc). Separate from _STRIP: a property escape needs the
// `u` flag, under which the surrogate ranges above would mean something else.
const _INVISIBLE_SOURCE = String
  .raw`[\p{Default_Ignorable_Code_Point}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]`;
const _INVISIBLE = new RegExp(_INVISIBLE_SOURCE, "gu");
const _HAS_INVISIBLE = new RegExp(_INVISIBLE_SOURCE, "u");
// The Unicode line/paragraph separators become newlines.
const _SEPARATORS = /[\u2028\u2029]/g;
const _LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// Cheap pre-checks so clean text (the usual case) costs one scan per concern.
const _HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const _HAS_SURROGATE = /[\ud800-\udfff]/;

/** Matches any character that {@linkcode sanitize} never lets through (for tests and guards). */
export const FORBIDDEN_CHARACTER: RegExp = new RegExp(
  String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f]|${_INVISIBLE_SOURCE}|` +
    String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`,
  "u",
);

/** Whether `text` holds an invisible character (see {@linkcode stripInvisible}). */
export function hasInvisible(text: string): boolean {
  return _HAS_INVISIBLE.test(text);
}

/** Removes invisible characters: default-ignorable code points and bidirectional controls. */
export function stripInvisible(text: string): string {
  return _HAS_INVISIBLE.test(text) ? text.replace(_INVISIBLE, "") : text;
}

/**
 * Whether `text` holds anything but blanks once sanitised. Looks only as far as the first
 * non-blank character when that one is plain (so a 1 MB pasted entry costs nothing); sanitises
 * the whole text only when it starts with escapes, controls or invisible characters.
 */
export function hasVisibleText(text: string): boolean {
  const first = /\S/u.exec(text);
  if (first === null) return false;
  const c = first[0];
  if (!_HAS_CONTROL.test(c) && !_HAS_INVISIBLE.test(c)) return true;
  return /\S/.test(sanitize(text));
}

/**
 * Removes terminal escape sequences, control characters (keeping newline and tab) and invisible
 * characters, turns carriage returns and Unicode line separators into newlines, and replaces lone
 * surrogates with U+FFFD.
 */
export function sanitize(text: string): string {
  let out = text;
  if (_HAS_CONTROL.test(out)) {
    if (out.includes("\r")) out = out.replace(/\r\n?/g, "\n");
    out = out.replace(_STRIP, "");
    if (out.includes("\u2028") || out.includes("\u2029")) out = out.replace(_SEPARATORS, "\n");
  }
  if (_HAS_SURROGATE.test(out)) out = out.replace(_LONE_SURROGATES, "\uFFFD");
  return stripInvisible(out);
}

/** How a receiver counts characters: Unicode code points, or UTF-16 code units (JavaScript). */
export type Unit = "codepoint" | "utf16";

/**
 * Number of Unicode code points in `text`; a surrogate pair counts once, a lone surrogate once.
 */
export function codePointLength(text: string): number {
  // A native scan first: most text has no surrogate at all, and this loop is slow until V8
  // optimises it (a 1 MB handoff file took 16 ms on the switch path).
  if (!_HAS_SURROGATE.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Size of `text` in `unit`. */
export function sizeIn(text: string, unit: Unit): number {
  return unit === "utf16" ? text.length : codePointLength(text);
}

function _isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function _isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The first at most `max` characters (in `unit`) of `text`, never splitting a surrogate pair.
 */
export function headOf(text: string, max: number, unit: Unit = "codepoint"): string {
  if (max <= 0) return "";
  let i = 0;
  let n = 0;
  while (i < text.length && n < max) {
    const pair = _isHigh(text.charCodeAt(i)) && i + 1 < text.length &&
      _isLow(text.charCodeAt(i + 1));
    const step = pair ? 2 : 1;
    const cost = unit === "utf16" ? step : 1;
    if (n + cost > max) break;
    i += step;
    n += cost;
  }
  return text.slice(0, i);
}

/**
 * The last at most `max` characters (in `unit`) of `text`, never splitting a surrogate pair.
 */
export function tailOf(text: string, max: number, unit: Unit = "codepoint"): string {
  if (max <= 0) return "";
  let i = text.length;
  let n = 0;
  while (i > 0 && n < max) {
    const pair = _isLow(text.charCodeAt(i - 1)) && i - 2 >= 0 &&
      _isHigh(text.charCodeAt(i - 2));
    const step = pair ? 2 : 1;
    const cost = unit === "utf16" ? step : 1;
    if (n + cost > max) break;
    i -= step;
    n += cost;
  }
  return text.slice(i);
}

/** Folds `text` onto one line (newlines and tabs become spaces, runs of spaces collapse). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
