/**
 * The line being typed at the agent's prompt, as the key tracker (`input.ts`) edits it: text at a
 * cursor, in pieces. A typed key is a piece of one code point; a bracketed paste is one piece,
 * kept as the string it arrived as, so a 1 MB paste costs one string and not a million. A piece is
 * split only where the cursor has to stop inside it (Left into a paste, Home after a pasted
 * newline), which costs what the piece holds, once.
 *
 * The line is bounded: it keeps at most {@linkcode TURN_CAP} UTF-16 code units. A paste that does
 * not fit keeps its start and its end with a note in place of the middle; typed keys that do not
 * fit are counted and a note at the end says so. {@linkcode LineBuffer.cut} then tells the
 * tracker that the turn is not whole. Pure.
 *
 * @module
 */

/**
 * What one turn keeps, in UTF-16 code units: 50 times what a delivered handoff carries in all
 * (`HANDOFF_CAP`, 20,000 code points), so the full handoff file keeps any turn a person writes
 * or pastes to discuss whole, and a 100 MB paste costs a bounded 2 MB of string.
 */
export const TURN_CAP = 1_000_000;

/** The share of the cap a paste may fill, so the words typed after a huge paste still fit. */
const _PASTE_SHARE = 0.9;

/** Room kept in a paste's budget for its cut note (longer than any note). */
const _NOTE_ROOM = 160;

/** Roughly how many bytes `s` takes in UTF-8 (exact for well-formed text). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
  }
  return n;
}

/** The note that stands for the middle of a paste that was not kept. */
export function pasteCutNote(bytes: number): string {
  return `\n[… uuldana kept only the start and the end of this paste: ` +
    `${bytes.toLocaleString("en")} bytes in the middle were not recorded …]\n`;
}

/** The note after a turn whose last typed keys were not kept, for a line of `cap` code units. */
export function typedCutNote(bytes: number, cap: number = TURN_CAP): string {
  return `\n[… uuldana did not record the last ${bytes.toLocaleString("en")} bytes typed in ` +
    `this turn: it keeps at most ${cap.toLocaleString("en")} characters of a turn …]`;
}

const _isHigh = (c: number) => c >= 0xd800 && c < 0xdc00;
const _isLow = (c: number) => c >= 0xdc00 && c < 0xe000;

/** Code units of the last code point of `p` (2 for an astral character). */
function _lastUnits(p: string): number {
  const n = p.length;
  return n >= 2 && _isLow(p.charCodeAt(n - 1)) && _isHigh(p.charCodeAt(n - 2)) ? 2 : 1;
}

/** Code units of the first code point of `p`. */
function _firstUnits(p: string): number {
  return p.length >= 2 && _isHigh(p.charCodeAt(0)) && _isLow(p.charCodeAt(1)) ? 2 : 1;
}

/** `n` rounded so as not to end inside a surrogate pair of `s` (a cut end of a head). */
function _headEnd(s: string, n: number): number {
  return n > 0 && n < s.length && _isHigh(s.charCodeAt(n - 1)) ? n - 1 : n;
}

/** A start in `s` that does not begin inside a surrogate pair (a cut start of a tail). */
function _tailStart(s: string, at: number): number {
  return at > 0 && at < s.length && _isLow(s.charCodeAt(at)) ? at + 1 : at;
}

/** The typed line: pieces, a cursor between pieces, and the tail mark; see the module doc. */
export class LineBuffer {
  #pieces: string[] = [];
  /** A piece boundary: the cursor is before `#pieces[#cursor]`. */
  #cursor = 0;
  #size = 0;
  /** The boundary where the tail starts (text typed at the end since `markTail`), or null. */
  #tailFrom: number | null = 0;
  /** UTF-8 bytes of typed keys not kept because the line was full. */
  #dropped = 0;
  #cut = false;
  readonly #cap: number;

  /** A buffer that keeps at most `cap` code units (default {@linkcode TURN_CAP}). */
  constructor(cap: number = TURN_CAP) {
    this.#cap = cap;
  }

  /** The line's text, with a note where something was not kept. */
  get text(): string {
    const text = this.#pieces.join("");
    return this.#dropped > 0 ? text + typedCutNote(this.#dropped, this.#cap) : text;
  }

  /** True when part of the line was not kept (the cap); the text says where. */
  get cut(): boolean {
    return this.#cut;
  }

  /** Code units kept. */
  get size(): number {
    return this.#size;
  }

  /** True when the cursor is at the end of the line. */
  get atEnd(): boolean {
    return this.#cursor === this.#pieces.length;
  }

  /** True when the cursor is at the start of the line. */
  get atStart(): boolean {
    return this.#cursor === 0;
  }

  /** The text from the tail mark to the end, or null when the tail was given up. */
  get tail(): string | null {
    return this.#tailFrom === null ? null : this.#pieces.slice(this.#tailFrom).join("");
  }

  /** True when the tail holds text (the cursor, at the end, is after the tail mark). */
  get tailHasText(): boolean {
    return this.#tailFrom !== null && this.#tailFrom < this.#pieces.length;
  }

  /** True when the tail was given up. */
  get tailLost(): boolean {
    return this.#tailFrom === null;
  }

  /** Starts the tail at the end of the line. */
  markTail(): void {
    this.#tailFrom = this.#pieces.length;
  }

  /** Gives the tail up: later typing is not a tail of what the box shows. */
  loseTail(): void {
    this.#tailFrom = null;
  }

  /** Empties the line; the tail starts afresh. */
  clear(): void {
    this.#pieces = [];
    this.#cursor = 0;
    this.#size = 0;
    this.#tailFrom = 0;
    this.#dropped = 0;
    this.#cut = false;
  }

  /** Inserts typed text (a key's code points) at the cursor; dropped when the line is full. */
  insert(s: string): void {
    if (this.#size + s.length > this.#cap) {
      this.#dropped += utf8Length(s);
      this.#cut = true;
      return;
    }
    this.#put(s);
  }

  /**
   * Inserts a paste at the cursor as one piece: `head`, then (when `omittedBytes` > 0, the middle
   * the tracker did not keep) a note, then `tail`. What does not fit the line is cut from the
   * middle too; returns the text inserted (the paste as recorded).
   */
  insertPaste(head: string, omittedBytes: number, tail: string): string {
    let budget = Math.max(0, Math.floor(this.#cap * _PASTE_SHARE) - this.#size);
    let omitted = omittedBytes;
    if (omitted > 0 || head.length + tail.length > budget) {
      budget = Math.max(0, budget - _NOTE_ROOM);
    }
    if (head.length + tail.length > budget) {
      // Keep half the budget from each end (more of one when the other is short).
      const tailKeep = Math.min(tail.length, Math.max(budget >> 1, budget - head.length));
      const headKeep = _headEnd(head, Math.min(head.length, budget - tailKeep));
      const from = _tailStart(tail, tail.length - tailKeep);
      omitted += utf8Length(head.slice(headKeep)) + utf8Length(tail.slice(0, from));
      head = head.slice(0, headKeep);
      tail = tail.slice(from);
    }
    const text = omitted > 0 ? head + pasteCutNote(omitted) + tail : head + tail;
    if (omitted > 0) this.#cut = true;
    if (text !== "") this.#put(text);
    return text;
  }

  #put(s: string): void {
    if (this.#cursor === this.#pieces.length) this.#pieces.push(s);
    else this.#pieces.splice(this.#cursor, 0, s);
    // Text inserted before the tail mark (the line went uncertain with the cursor inside it) is
    // not tail: the mark moves with the text after it.
    if (this.#tailFrom !== null && this.#cursor < this.#tailFrom) this.#tailFrom++;
    this.#cursor++;
    this.#size += s.length;
  }

  /** The code point before the cursor, or "" at the start. */
  charBefore(): string {
    if (this.#cursor === 0) return "";
    const p = this.#pieces[this.#cursor - 1];
    return p.slice(p.length - _lastUnits(p));
  }

  /**
   * Replaces the code point before the cursor with `ch`, typed now: a key after the tail mark,
   * so it joins the tail even when the character it replaces came before the mark.
   */
  replaceBefore(ch: string): void {
    if (this.#cursor === 0) return;
    const p = this.#pieces[this.#cursor - 1];
    const k = _lastUnits(p);
    if (p.length > k) this.#split(this.#cursor - 1, p.length - k);
    const i = this.#cursor - 1;
    this.#size += ch.length - this.#pieces[i].length;
    this.#pieces[i] = ch;
    if (this.#tailFrom === this.#cursor && this.atEnd) this.#tailFrom = i;
  }

  /** Deletes the code point before the cursor (Backspace). */
  backspace(): void {
    if (this.#cursor === 0) return;
    const i = this.#cursor - 1;
    const p = this.#pieces[i];
    const k = _lastUnits(p);
    this.#size -= k;
    if (p.length === k) {
      this.#pieces.splice(i, 1);
      this.#cursor--;
      if (this.#tailFrom !== null && this.#tailFrom > this.#cursor) this.#tailFrom--;
    } else this.#pieces[i] = p.slice(0, p.length - k);
  }

  /** Deletes the code point after the cursor (Delete). */
  deleteForward(): void {
    if (this.atEnd) return;
    const i = this.#cursor;
    const p = this.#pieces[i];
    const k = _firstUnits(p);
    this.#size -= k;
    if (p.length === k) {
      this.#pieces.splice(i, 1);
      if (this.#tailFrom !== null && this.#tailFrom > i) this.#tailFrom--;
    } else this.#pieces[i] = p.slice(k);
  }

  /** Moves the cursor one code point left. */
  left(): void {
    if (this.#cursor === 0) return;
    const p = this.#pieces[this.#cursor - 1];
    const k = _lastUnits(p);
    if (p.length > k) this.#split(this.#cursor - 1, p.length - k);
    this.#cursor--;
  }

  /** Moves the cursor one code point right. */
  right(): void {
    if (this.atEnd) return;
    const p = this.#pieces[this.#cursor];
    const k = _firstUnits(p);
    if (p.length > k) this.#split(this.#cursor, k);
    this.#cursor++;
  }

  /** The boundary at the start of the cursor's (logical) line. */
  lineStart(): number {
    return this.#back(this.#cursor, (c) => c !== "\n");
  }

  /** The boundary at the end of the cursor's (logical) line. */
  lineEnd(): number {
    return this.#forward(this.#cursor, (c) => c !== "\n");
  }

  /** The boundary at the start of the word before the cursor (Ctrl-W's rule). */
  wordStart(): number {
    const blank = (c: string) => /\s/.test(c);
    const at = this.#back(this.#cursor, (c) => blank(c) && c !== "\n");
    return this.#back(at, (c) => !blank(c));
  }

  /** Puts the cursor at a boundary from {@linkcode lineStart} and the like. */
  moveTo(boundary: number): void {
    this.#cursor = boundary;
  }

  /** Deletes from the cursor to `boundary`, after it (Ctrl-K). */
  deleteTo(boundary: number): void {
    this.#remove(this.#cursor, boundary);
  }

  /**
   * Deletes from `boundary`, before the cursor, to the cursor; the tail survives when only its
   * own end was deleted (returns false when the deletion reached before the tail mark).
   */
  deleteBackTo(boundary: number): boolean {
    const tailKept = this.#tailFrom !== null && boundary >= this.#tailFrom;
    this.#remove(boundary, this.#cursor);
    this.#cursor = boundary;
    return tailKept;
  }

  #remove(from: number, to: number): void {
    if (to <= from) return;
    for (let i = from; i < to; i++) this.#size -= this.#pieces[i].length;
    this.#pieces.splice(from, to - from);
    if (this.#tailFrom !== null && this.#tailFrom > from) {
      this.#tailFrom = Math.max(from, this.#tailFrom - (to - from));
    }
  }

  /** Splits piece `i` at code unit `u` (0 < u < its length); boundaries after it shift by one. */
  #split(i: number, u: number): void {
    const p = this.#pieces[i];
    this.#pieces.splice(i, 1, p.slice(0, u), p.slice(u));
    if (i < this.#cursor) this.#cursor++;
    if (this.#tailFrom !== null && i < this.#tailFrom) this.#tailFrom++;
  }

  /** The boundary reached going back from `from` over code units that satisfy `keep`. */
  #back(from: number, keep: (c: string) => boolean): number {
    for (let i = from - 1; i >= 0; i--) {
      const p = this.#pieces[i];
      let u = p.length;
      while (u > 0 && keep(p[u - 1])) u--;
      if (u === 0) continue;
      if (u === p.length) return i + 1;
      this.#split(i, u);
      return i + 1;
    }
    return 0;
  }

  /** The boundary reached going forward from `from` over code units that satisfy `keep`. */
  #forward(from: number, keep: (c: string) => boolean): number {
    for (let i = from; i < this.#pieces.length; i++) {
      const p = this.#pieces[i];
      let u = 0;
      while (u < p.length && keep(p[u])) u++;
      if (u === p.length) continue;
      if (u === 0) return i;
      this.#split(i, u);
      return i + 1;
    }
    return this.#pieces.length;
  }
}
