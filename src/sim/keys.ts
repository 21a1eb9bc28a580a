/**
 * Decodes what a terminal sends to a program in raw mode into key events: text, Enter,
 * backspace, Ctrl-C, escape sequences, focus reports and bracketed pastes. Sequences split
 * across reads are held until complete. Pure.
 *
 * @module
 */

/** Start marker of a bracketed paste. */
export const PASTE_START = "\x1b[200~";
/** End marker of a bracketed paste. */
export const PASTE_END = "\x1b[201~";

/** One decoded key event. */
export type KeyEvent =
  | { type: "text"; text: string }
  | { type: "enter" }
  | { type: "newline" }
  | { type: "tab" }
  | { type: "backspace" }
  | { type: "ctrl-c" }
  | { type: "ctrl-d" }
  | { type: "escape" }
  | { type: "paste"; text: string }
  | { type: "focus"; focused: boolean }
  | { type: "arrow"; direction: "up" | "down" | "left" | "right" }
  | { type: "other"; sequence: string };

/** Stateful decoder: feed it each read (as text), get the complete events. */
export class KeyDecoder {
  #buf = "";
  #paste: string | null = null;

  /** True while an incomplete escape sequence (e.g. a lone ESC) waits for more input. */
  get pending(): boolean {
    return this.#paste === null && this.#buf.length > 0;
  }

  /** True while inside a bracketed paste whose end marker has not arrived yet. */
  get inPaste(): boolean {
    return this.#paste !== null;
  }

  /** Decodes `chunk` (appended to what was held back) into events. */
  feed(chunk: string): KeyEvent[] {
    this.#buf += chunk;
    const out: KeyEvent[] = [];
    while (this.#buf.length > 0) {
      if (this.#paste !== null) {
        const end = this.#buf.indexOf(PASTE_END);
        if (end < 0) {
          const keep = _partialSuffix(this.#buf, PASTE_END);
          this.#paste += this.#buf.slice(0, this.#buf.length - keep);
          this.#buf = this.#buf.slice(this.#buf.length - keep);
          break;
        }
        out.push({ type: "paste", text: this.#paste + this.#buf.slice(0, end) });
        this.#paste = null;
        this.#buf = this.#buf.slice(end + PASTE_END.length);
        continue;
      }
      const c = this.#buf[0];
      if (c === "\x1b") {
        const n = _escapeLength(this.#buf);
        if (n === 0) break; // incomplete: wait for more (or flush())
        const seq = this.#buf.slice(0, n);
        this.#buf = this.#buf.slice(n);
        if (seq === PASTE_START) this.#paste = "";
        else out.push(_escapeEvent(seq));
        continue;
      }
      const code = c.charCodeAt(0);
      if (code < 0x20 || code === 0x7f) {
        this.#buf = this.#buf.slice(1);
        out.push(_controlEvent(c));
        continue;
      }
      let i = 1;
      while (i < this.#buf.length) {
        const k = this.#buf.charCodeAt(i);
        if (k < 0x20 || k === 0x7f) break;
        i++;
      }
      out.push({ type: "text", text: this.#buf.slice(0, i) });
      this.#buf = this.#buf.slice(i);
    }
    return out;
  }

  /** Resolves held-back bytes after a pause: a lone ESC becomes the Escape key. */
  flush(): KeyEvent[] {
    if (this.#paste !== null || this.#buf.length === 0) return [];
    const held = this.#buf;
    this.#buf = "";
    if (held === "\x1b") return [{ type: "escape" }];
    return [{ type: "other", sequence: held }];
  }
}

// Length of the escape sequence at the start of `s`, 0 when it is not complete yet.
function _escapeLength(s: string): number {
  if (s.length < 2) return 0;
  const second = s[1];
  if (second === "[") {
    for (let i = 2; i < s.length; i++) {
      const k = s.charCodeAt(i);
      if (k >= 0x40 && k <= 0x7e) return i + 1;
      if (k < 0x20 || k > 0x7e) return i; // malformed: end the sequence before it
    }
    return 0;
  }
  if (second === "O") return s.length >= 3 ? 3 : 0;
  if (second === "\x1b") return 1; // ESC ESC: the first one is a lone Escape
  return 2; // Alt+key
}

function _escapeEvent(seq: string): KeyEvent {
  switch (seq) {
    case "\x1b":
      return { type: "escape" };
    case "\x1b[I":
      return { type: "focus", focused: true };
    case "\x1b[O":
      return { type: "focus", focused: false };
    case "\x1b[A":
    case "\x1bOA":
      return { type: "arrow", direction: "up" };
    case "\x1b[B":
    case "\x1bOB":
      return { type: "arrow", direction: "down" };
    case "\x1b[C":
    case "\x1bOC":
      return { type: "arrow", direction: "right" };
    case "\x1b[D":
    case "\x1bOD":
      return { type: "arrow", direction: "left" };
    case "\x1b[13u":
      return { type: "enter" };
    case "\x1b[99;5u":
      return { type: "ctrl-c" };
  }
  return { type: "other", sequence: seq };
}

function _controlEvent(c: string): KeyEvent {
  switch (c) {
    case "\r":
      return { type: "enter" };
    case "\n":
      return { type: "newline" };
    case "\t":
      return { type: "tab" };
    case "\x7f":
    case "\b":
      return { type: "backspace" };
    case "\x03":
      return { type: "ctrl-c" };
    case "\x04":
      return { type: "ctrl-d" };
  }
  return { type: "other", sequence: c };
}

// How many trailing characters of `s` could be the beginning of `marker`.
function _partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) {
    if (s.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
