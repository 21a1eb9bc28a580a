/**
 * The redactor (src/handoff/redact.ts) for text that must keep its shape: a recording, whose
 * replay reads the same bytes at the same offsets. Each secret the redactor finds is replaced by
 * its marker padded with `*` to the secret's length in UTF-8 bytes (only `*` when the marker is
 * longer), its line breaks kept, so every byte offset and screen row and column after it stays
 * where it was. A secret split
 * across two pieces of text (two output events) is found in the pieces joined, and each piece
 * keeps its own length. Pure.
 *
 * @module
 */
import { redact } from "../handoff/redact.ts";

/** What a redaction did. */
export interface ShapedRedaction {
  /** The pieces, each with the same UTF-8 length as before. */
  pieces: string[];
  /** Secrets replaced. */
  count: number;
}

const _enc = new TextEncoder();
const _MARKER_SPLIT = /(\[REDACTED:[a-z0-9-]+\])/;

/**
 * Redacts `pieces` as one text; each piece keeps its UTF-8 length. Twice: the text as it is, then
 * the text as a screen shows it (see {@link screenView}), which finds a secret the agent's own
 * line wrap or colours cut in two.
 */
export function redactPieces(pieces: readonly string[]): ShapedRedaction {
  const first = _redactPieces(pieces);
  const second = _redactOnScreen(first.pieces);
  return { pieces: second.pieces, count: first.count + second.count };
}

function _redactPieces(pieces: readonly string[]): ShapedRedaction {
  const text = pieces.join("");
  const spans = secretSpans(text);
  if (spans === null) {
    // The redactor's result could not be lined up with the text (rare: see secretSpans): each
    // piece on its own, and a piece that cannot be lined up either is blanked out whole.
    let count = 0;
    const out = pieces.map((p) => {
      const own = secretSpans(p);
      if (own === null) {
        count++;
        return "*".repeat(_bytes(p));
      }
      count += own.length;
      return _apply(p, own, 0, p.length);
    });
    return { pieces: out, count };
  }
  let at = 0;
  const out = pieces.map((p) => {
    const piece = _apply(text, spans, at, at + p.length);
    at += p.length;
    return piece;
  });
  return { pieces: out, count: spans.length };
}

/** Redacts one text, keeping its UTF-8 length. */
export function redactShaped(text: string): { text: string; count: number } {
  const r = redactPieces([text]);
  return { text: r.pieces[0], count: r.count };
}

/**
 * The text a screen shows of terminal output: escape sequences and other control characters
 * left out, and every line break (with the indentation after it) read as one space. `runs` maps
 * it back: view characters `[view, view + length)` are output characters `[text, text + length)`.
 */
export function screenView(text: string): { view: string; runs: _Run[] } {
  const parts: string[] = [];
  const runs: _Run[] = [];
  let viewLength = 0;
  let runStart = -1;
  let inBreak = false;
  const endRun = (i: number) => {
    if (runStart < 0) return;
    parts.push(text.slice(runStart, i));
    runs.push({ view: viewLength, text: runStart, length: i - runStart });
    viewLength += i - runStart;
    runStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const control = c < 0x20 || c === 0x7f;
    if (!control && !(inBreak && c === 0x20)) {
      if (runStart < 0) runStart = i;
      inBreak = false;
      continue;
    }
    endRun(i);
    if (c === 0x1b) i = _escapeEnd(text, i);
    else if ((c === 0x0a || c === 0x0d) && !inBreak) {
      // The break reads as one space, shown at the break's first character.
      parts.push(" ");
      runs.push({ view: viewLength, text: i, length: 1 });
      viewLength++;
      inBreak = true;
    }
  }
  endRun(text.length);
  return { view: parts.join(""), runs };
}

/** A stretch of a screen view and where it is in the output. */
interface _Run {
  view: number;
  text: number;
  length: number;
}

// The index of the last character of the escape sequence starting at `i`.
function _escapeEnd(text: string, i: number): number {
  const next = text[i + 1];
  if (next === "[") {
    let j = i + 2;
    while (j < text.length && !(text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e)) j++;
    return j;
  }
  if (next === "]" || next === "P" || next === "_" || next === "^") {
    for (let j = i + 2; j < text.length; j++) {
      if (text.charCodeAt(j) === 0x07) return j;
      if (text.charCodeAt(j) === 0x1b && text[j + 1] === "\\") return j + 1;
    }
    return text.length - 1;
  }
  if (next !== undefined && "()*+-./#%".includes(next)) return i + 2;
  return i + 1;
}

// The second pass: secrets in the screen view, blanked in the output where they show (their
// escape sequences and line breaks left as they are).
function _redactOnScreen(pieces: readonly string[]): ShapedRedaction {
  const text = pieces.join("");
  const { view, runs } = screenView(text);
  const spans = secretSpans(view);
  if (!spans || spans.length === 0) return { pieces: [...pieces], count: 0 };
  // Which output characters each secret shows on (not the breaks), and what replaces each.
  const replace = new Map<number, string>();
  for (const s of spans) {
    const shown: number[] = [];
    for (const r of _runsIn(runs, s.start, s.end)) {
      for (let v = Math.max(s.start, r.view); v < Math.min(s.end, r.view + r.length); v++) {
        const i = r.text + v - r.view;
        if (text[i] !== "\r" && text[i] !== "\n") shown.push(i);
      }
    }
    const filler = _filler(s.marker, shown.map((i) => text[i]).join(""));
    let f = 0;
    for (const i of shown) {
      const n = _bytes(text[i]);
      replace.set(i, filler.slice(f, f + n));
      f += n;
    }
  }
  const changed = [...replace.keys()].sort((a, b) => a - b);
  let start = 0;
  let k = 0;
  const out = pieces.map((p) => {
    const end = start + p.length;
    let piece = "";
    let from = start;
    for (; k < changed.length && changed[k] < end; k++) {
      piece += text.slice(from, changed[k]) + replace.get(changed[k]);
      from = changed[k] + 1;
    }
    piece = from === start ? p : piece + text.slice(from, end);
    start = end;
    return piece;
  });
  return { pieces: out, count: spans.length };
}

// The runs that hold view characters [start, end), found by binary search.
function _runsIn(runs: readonly _Run[], start: number, end: number): _Run[] {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid].view + runs[mid].length <= start) lo = mid + 1;
    else hi = mid;
  }
  const out: _Run[] = [];
  for (let i = lo; i < runs.length && runs[i].view < end; i++) out.push(runs[i]);
  return out;
}

/** A secret at `[start, end)` of a text (UTF-16 indices) and the marker the redactor put there. */
export interface SecretSpan {
  start: number;
  end: number;
  marker: string;
}

/**
 * Where the redactor replaced secrets in `text`, found by lining its result up with the text:
 * what it left is the text's own, in order, between its markers. Null when that cannot be done
 * unambiguously (the check: the text with these spans replaced must be the redactor's result).
 */
export function secretSpans(text: string): SecretSpan[] | null {
  const redacted = redact(text);
  if (redacted.count === 0) return [];
  const parts = redacted.text.split(_MARKER_SPLIT);
  if (!text.startsWith(parts[0])) return null;
  let pos = parts[0].length;
  const spans: SecretSpan[] = [];
  for (let k = 1; k < parts.length; k += 2) {
    let marker = parts[k];
    let next = parts[k + 1];
    // A marker the text itself shows (a redacted handoff on screen) is text: no secret the
    // redactor knows starts with "[REDACTED:".
    if (text.startsWith(marker, pos)) {
      pos += marker.length;
      if (!text.startsWith(next, pos)) return null;
      pos += next.length;
      continue;
    }
    // Secrets side by side: one span, their markers together.
    while (next === "" && k + 2 < parts.length) {
      k += 2;
      marker += parts[k];
      next = parts[k + 1];
    }
    const last = k + 2 >= parts.length;
    const end = last ? text.length - next.length : text.indexOf(next, pos + 1);
    if (end <= pos || (last && !text.endsWith(next))) return null;
    spans.push({ start: pos, end, marker });
    pos = end + next.length;
  }
  // The check: these spans give exactly what the redactor gave.
  let rebuilt = "";
  let from = 0;
  for (const s of spans) {
    rebuilt += text.slice(from, s.start) + s.marker;
    from = s.end;
  }
  rebuilt += text.slice(from);
  return rebuilt === redacted.text ? spans : null;
}

// The part [from, to) of `text` with every secret in it replaced, each byte by one ASCII byte.
function _apply(text: string, spans: readonly SecretSpan[], from: number, to: number): string {
  let out = "";
  let at = from;
  for (const s of spans) {
    if (s.end <= from || s.start >= to) continue;
    const a = Math.max(s.start, from);
    const b = Math.min(s.end, to);
    out += text.slice(at, a);
    const filler = _filler(s.marker, text.slice(s.start, s.end));
    const skip = _bytes(text.slice(s.start, a));
    out += filler.slice(skip, skip + _bytes(text.slice(a, b)));
    at = b;
  }
  return out + text.slice(at, to);
}

// What replaces `secret`: its marker padded with `*`, byte for byte, with its line breaks kept
// where they were (a key block keeps its rows on the screen).
function _filler(marker: string, secret: string): string {
  const breaks = secret.match(/[\r\n]/g)?.length ?? 0;
  const room = _bytes(secret) - breaks;
  const fill = marker.length <= room ? marker + "*".repeat(room - marker.length) : "*".repeat(room);
  let out = "";
  let at = 0;
  for (const ch of secret) {
    if (ch === "\r" || ch === "\n") out += ch;
    else {
      const n = _bytes(ch);
      out += fill.slice(at, at + n);
      at += n;
    }
  }
  return out;
}

function _bytes(s: string): number {
  return _enc.encode(s).length;
}
