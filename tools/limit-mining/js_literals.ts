/**
 * The string and template literals of a JavaScript source, found by a small lexer that knows
 * strings, templates (with their `${…}` fills), comments and regular expressions well enough for
 * minified bundles. It works on the source's bytes read one byte a character (latin1), so a
 * literal's start and end are byte offsets; its value is decoded from its bytes as UTF-8 with the
 * JavaScript escapes (`\xB7`, `\u2019`) resolved: Bun's bundles escape every non-ASCII character.
 *
 * @module
 */

/** One literal: its value (fills written `${expr}`), and where its bytes start and end. */
export interface JsLiteral {
  value: string;
  start: number;
  end: number;
}

const KEYWORDS_BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "instanceof",
  "new",
  "void",
  "delete",
  "throw",
  "yield",
  "await",
  "of",
]);

const utf8 = new TextDecoder("utf-8");

/** Decodes a literal's raw bytes (UTF-8) and resolves its escapes. */
function cook(bytes: Uint8Array, from: number, to: number): string {
  const raw = utf8.decode(bytes.subarray(from, to));
  if (!raw.includes("\\")) return raw;
  return raw.replace(
    /\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|\r?\n|(.))/gs,
    (_m, x, ub, u, c) => {
      if (x) return String.fromCharCode(parseInt(x, 16));
      if (ub) return String.fromCodePoint(Math.min(parseInt(ub, 16), 0x10ffff));
      if (u) return String.fromCharCode(parseInt(u, 16));
      if (c === undefined) return "";
      return ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", "0": "\0" } as Record<
        string,
        string
      >)[c] ?? c;
    },
  );
}

function isIdent(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 36 ||
    c === 95 || c >= 128;
}

/** A short name for a template fill: its expression when short, else `…`. */
function fillName(expr: string): string {
  const e = expr.trim().replace(/\s+/g, " ");
  return e.length <= 40 ? e : "…";
}

/**
 * Lexes `bytes[from, to)` as JavaScript and calls `emit` with each string or template literal.
 * An unterminated literal (a desync after a misread regex) is dropped and lexing goes on after it.
 */
export function scanJsLiterals(
  bytes: Uint8Array,
  emit: (literal: JsLiteral) => void,
  from = 0,
  to = bytes.length,
): void {
  let i = from;
  // What came before, for the regex-or-division question: "(" = punctuation, "x" = a value.
  let prevValue = false;
  while (i < to) {
    const c = bytes[i];
    if (c === 34 || c === 39) {
      const end = stringEnd(bytes, i, to);
      if (end < 0) {
        i++;
        continue;
      }
      emit({ value: cook(bytes, i + 1, end - 1), start: i, end });
      i = end;
      prevValue = true;
    } else if (c === 96) {
      const t = template(bytes, i, to);
      if (!t) {
        i++;
        continue;
      }
      emit({ value: t.value, start: i, end: t.end });
      i = t.end;
      prevValue = true;
    } else if (c === 47) {
      const n = bytes[i + 1];
      if (n === 47) {
        while (i < to && bytes[i] !== 10) i++;
      } else if (n === 42) {
        i += 2;
        while (i < to && !(bytes[i] === 42 && bytes[i + 1] === 47)) i++;
        i += 2;
      } else if (!prevValue) {
        const end = regexEnd(bytes, i, to);
        i = end < 0 ? i + 1 : end;
        prevValue = true;
      } else {
        i++;
        prevValue = false;
      }
    } else if (isIdent(c)) {
      const s = i;
      while (i < to && isIdent(bytes[i])) i++;
      let word = "";
      if (i - s <= 10) { for (let k = s; k < i; k++) word += String.fromCharCode(bytes[k]); }
      prevValue = !KEYWORDS_BEFORE_REGEX.has(word);
    } else if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
    } else {
      prevValue = c === 41 || c === 93 || c === 125; // ) ] }
      i++;
    }
  }
}

/** The index after a '…' or "…" literal starting at `i`, or -1 if a line ends first. */
function stringEnd(bytes: Uint8Array, i: number, to: number): number {
  const q = bytes[i];
  for (let k = i + 1; k < to; k++) {
    const c = bytes[k];
    if (c === 92) k++;
    else if (c === q) return k + 1;
    else if (c === 10 || c === 13) return -1;
  }
  return -1;
}

/** The index after a regex literal starting at `i`, or -1 if a line ends first. */
function regexEnd(bytes: Uint8Array, i: number, to: number): number {
  let inClass = false;
  for (let k = i + 1; k < to; k++) {
    const c = bytes[k];
    if (c === 92) k++;
    else if (c === 10 || c === 13) return -1;
    else if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    else if (c === 47 && !inClass) {
      k++;
      while (k < to && isIdent(bytes[k])) k++;
      return k;
    }
  }
  return -1;
}

const MAX_TEMPLATE = 20_000;

/** A template literal starting at `i`: its value with fills as `${expr}`, and its end. */
function template(bytes: Uint8Array, i: number, to: number): { value: string; end: number } | null {
  let value = "";
  let seg = i + 1;
  const limit = Math.min(to, i + MAX_TEMPLATE);
  for (let k = i + 1; k < limit; k++) {
    const c = bytes[k];
    if (c === 92) k++;
    else if (c === 96) return { value: value + cook(bytes, seg, k), end: k + 1 };
    else if (c === 36 && bytes[k + 1] === 123) {
      value += cook(bytes, seg, k);
      const close = fillEnd(bytes, k + 2, limit);
      if (close < 0) return null;
      value += "${" + fillName(utf8.decode(bytes.subarray(k + 2, close))) + "}";
      k = close;
      seg = close + 1;
    }
  }
  return null;
}

/** The index of the `}` that closes a fill whose expression starts at `i`, or -1. */
function fillEnd(bytes: Uint8Array, i: number, to: number): number {
  let depth = 0;
  for (let k = i; k < to; k++) {
    const c = bytes[k];
    if (c === 34 || c === 39) {
      const e = stringEnd(bytes, k, to);
      if (e < 0) return -1;
      k = e - 1;
    } else if (c === 96) {
      const t = template(bytes, k, to);
      if (!t) return -1;
      k = t.end - 1;
    } else if (c === 123) depth++;
    else if (c === 125) {
      if (depth === 0) return k;
      depth--;
    }
  }
  return -1;
}
