/**
 * The text inside a binary, read as UTF-8 by this module rather than by `strings` (which drops
 * `’` and `·`): runs of printable ASCII and well-formed multi-byte UTF-8, and within a run the
 * pieces a compiler packed side by side (Rust keeps its string constants back to back with no
 * separator: `…to continue.Your workspace is out of credits.`).
 *
 * @module
 */

/** A run of printable text: its bytes are `[start, end)`. */
export interface TextRun {
  start: number;
  end: number;
}

/** One piece of text from a run: its value and where its bytes start and end. */
export interface TextPiece {
  value: string;
  start: number;
  end: number;
}

/** Length of the well-formed UTF-8 sequence at `i` (2–4), or 0. */
function multiByte(bytes: Uint8Array, i: number, to: number): number {
  const c = bytes[i];
  const n = c >= 0xc2 && c <= 0xdf
    ? 2
    : c >= 0xe0 && c <= 0xef
    ? 3
    : c >= 0xf0 && c <= 0xf4
    ? 4
    : 0;
  if (n === 0 || i + n > to) return 0;
  for (let k = 1; k < n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return 0;
  return n;
}

/**
 * A byte that marks a format string's fill inside a run, followed by one byte of its own: Copilot's
 * native runtime writes `…for the month.\xC0M Upgrade your plan…`. Never valid UTF-8.
 */
export type FillMarker = 0xc0;

/**
 * Calls `emit` with every run of at least `minLength` printable bytes in `bytes[from, to)`. With
 * `fill`, that byte and the byte after it stay inside a run.
 */
export function scanTextRuns(
  bytes: Uint8Array,
  emit: (run: TextRun) => void,
  minLength = 8,
  from = 0,
  to = bytes.length,
  fill?: FillMarker,
): void {
  let start = -1;
  let i = from;
  while (i < to) {
    const c = bytes[i];
    let n = 0;
    if ((c >= 0x20 && c < 0x7f) || c === 9 || c === 10 || c === 13) n = 1;
    else if (c >= 0x80) n = c === fill && start >= 0 && i + 1 < to ? 2 : multiByte(bytes, i, to);
    if (n > 0) {
      if (start < 0) start = i;
      i += n;
    } else {
      if (start >= 0 && i - start >= minLength) emit({ start, end: i });
      start = -1;
      i++;
    }
  }
  if (start >= 0 && to - start >= minLength) emit({ start, end: to });
}

/** CamelCase words that are names, not two packed strings. */
const NAMES = new Set([
  "GitHub",
  "OpenAI",
  "OpenCode",
  "OpenRouter",
  "JavaScript",
  "TypeScript",
  "YouTube",
  "PowerShell",
  "DeepSeek",
  "WebSocket",
  "WebFetch",
  "WebSearch",
  "LinkedIn",
  "PayPal",
  "MacBook",
  "iPhone",
  "ChatGPT",
  "DeepWiki",
]);

const utf8 = new TextDecoder("utf-8");

/** The run's text, with its fill markers written `${…}`. */
function decodeRun(bytes: Uint8Array, start: number, end: number, fill?: FillMarker): string {
  let out = "";
  let seg = start;
  for (let k = start; fill !== undefined && k < end; k++) {
    if (bytes[k] === fill) {
      out += utf8.decode(bytes.subarray(seg, k)) + "${…}";
      k++;
      seg = k + 1;
    }
  }
  return out + utf8.decode(bytes.subarray(seg, end));
}

/**
 * Splits a run into the pieces it was likely packed from: at NUL-free joins where one sentence
 * ends and the next begins with no space (`continue.Your`, `secondsYou`), and at line breaks.
 * Offsets are byte offsets in `bytes`.
 */
export function splitRun(bytes: Uint8Array, run: TextRun, fill?: FillMarker): TextPiece[] {
  const pieces: TextPiece[] = [];
  let seg = run.start;
  const push = (end: number) => {
    if (end > seg) pieces.push({ value: decodeRun(bytes, seg, end, fill), start: seg, end });
    seg = end;
  };
  for (let k = run.start + 1; k < run.end - 1; k++) {
    const c = bytes[k];
    if (c === 10) {
      push(k);
      seg = k + 1;
      continue;
    }
    const upper = c >= 65 && c <= 90;
    const nextLower = bytes[k + 1] >= 97 && bytes[k + 1] <= 122;
    if (!upper || !nextLower) continue;
    const p = bytes[k - 1];
    const sentenceEnd = p === 46 || p === 33 || p === 63 || p === 41;
    const lower = p >= 97 && p <= 122;
    if (!sentenceEnd && !lower) continue;
    if (lower && camelName(bytes, k, run)) continue;
    if (sentenceEnd && p === 46 && isLetter(bytes[k - 2]) && !isLetter(bytes[k - 3])) continue;
    push(k);
  }
  push(run.end);
  return pieces;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** True if the word around `k` is a known CamelCase name or starts with a capital (`SessionEnd`). */
function camelName(bytes: Uint8Array, k: number, run: TextRun): boolean {
  let s = k - 1;
  while (s > run.start && isLetter(bytes[s - 1])) s--;
  let e = k + 1;
  while (e < run.end && isLetter(bytes[e])) e++;
  const word = String.fromCharCode(...bytes.subarray(s, e));
  for (const name of NAMES) if (word.includes(name)) return true;
  return false;
}
