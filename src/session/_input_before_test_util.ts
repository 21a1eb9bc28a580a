/**
 * The key tracker as it was before its line became bounded pieces (commit 96dc3f0,
 * `src/session/input.ts`): one string per code point, no cap; two of its quirks mended (marked "Mended"). Kept only as the reference that
 * `input_test.ts` checks the new tracker against on random small key sequences, and the "before"
 * side of `bench/input_bench.ts`. Not used by uuldana.
 *
 * @module
 */

/** Esc followed by another byte within this many milliseconds is one key (Alt+key); see above. */
export const ESCAPE_TIMEOUT_MS = 50;

/** What the tracker saw happen. */
export type InputEvent =
  /**
   * Enter submitted the line. `exact` is false when history, completion or word moves may have
   * changed the line in ways the tracker cannot follow; then `text` is a guess (possibly empty,
   * e.g. history recall then Enter), `tail` is what was typed at the end since (null when the
   * cursor moved since), and the agent's input box is the better witness.
   */
  | {
    type: "submit";
    text: string;
    exact: boolean;
    tail: string | null;
    pastes: string[];
  }
  /** `/agent` or `/agent NAME` was entered; its Enter was not forwarded. */
  | { type: "command"; name: "agent"; arg: string | null; typed: string };

/** The result of one {@linkcode InputTracker.feed}. */
export interface InputResult {
  /** The bytes to send to the agent. */
  forward: Uint8Array;
  events: InputEvent[];
}

const _COMMAND = /^\/agent(?:[ \t]+([^\s]+))?[ \t]*$/;
const _PASTE_END = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 2 0 1 ~
const _MAX_SEQUENCE = 256;

type _State = "ground" | "esc" | "csi" | "ss3" | "string" | "string-esc" | "mouse" | "paste";

/** How the agent's input box takes keys (from its adapter). */
export interface KeyConventions {
  /** `\` then Enter is a newline, not a submit (Claude Code). */
  backslashEnter?: boolean;
  /** Milliseconds within which ESC and the next byte are one key; default ESCAPE_TIMEOUT_MS. */
  escapeTimeoutMs?: number;
}

/** Follows the typed line through raw key bytes; see the module doc. */
export class InputTrackerBefore {
  #line: string[] = [];
  #cursor = 0;
  #exact = true;
  /** Typed at the end since the line became uncertain; null once the cursor moved since. */
  #tail: string[] | null = [];
  #pastes: string[] = [];
  #pasted: string[] = [];
  readonly #keys: KeyConventions;
  #escAt = 0;
  #state: _State = "ground";
  #seqStart = 0;
  #params = "";
  #mouseLeft = 0;
  #pasteMatch = 0;
  #pasteCR = false;
  #utf8: number[] = [];
  #utf8Need = 0;
  #decoder = new TextDecoder();
  // Per feed: byte ranges not to forward, and the events.
  #skip: [number, number][] = [];
  #events: InputEvent[] = [];

  constructor(keys: KeyConventions = {}) {
    this.#keys = keys;
  }

  /** The line as tracked so far. */
  get line(): string {
    return this.#line.join("");
  }

  /** False when the line may differ from what the agent shows (cursor keys, history, Tab). */
  get exact(): boolean {
    return this.#exact;
  }

  /** Forgets the line: the agent's input box is known to be empty (e.g. a fresh agent). */
  reset(): void {
    this.#clearLine();
    this.#utf8 = [];
    this.#utf8Need = 0;
  }

  /** Marks the line unknown (e.g. uuldana itself typed into the agent). */
  markUncertain(): void {
    this.#uncertain();
  }

  /**
   * Feeds the user's key bytes, read at `now` (ms, `performance.now()`); returns what to forward
   * and what happened.
   */
  feed(bytes: Uint8Array, now: number = performance.now()): InputResult {
    this.#skip = [];
    this.#events = [];
    // An ESC that ended the last read, with nothing after it for a while, was the Esc key.
    const timeout = this.#keys.escapeTimeoutMs ?? ESCAPE_TIMEOUT_MS;
    if (this.#state === "esc" && now - this.#escAt > timeout) {
      this.#state = "ground";
      this.#uncertain(); // Esc may close a menu, clear the box or open a rewind list
    }
    for (let i = 0; i < bytes.length; i++) this.#byte(bytes[i], i);
    if (this.#state === "esc") this.#escAt = now;
    const events = this.#events;
    if (this.#skip.length === 0) return { forward: bytes, events };
    const parts: Uint8Array[] = [];
    let from = 0;
    for (const [start, end] of this.#skip) {
      parts.push(bytes.subarray(from, start));
      from = end;
    }
    parts.push(bytes.subarray(from));
    const forward = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      forward.set(p, off);
      off += p.length;
    }
    return { forward, events };
  }

  #byte(b: number, i: number): void {
    switch (this.#state) {
      case "ground":
        return this.#ground(b, i);
      case "esc":
        return this.#esc(b, i);
      case "csi":
        if (b >= 0x40 && b <= 0x7e) {
          this.#state = "ground";
          return this.#csi(this.#params, b, i);
        }
        if (b === 0x1b) return this.#startEscape(i);
        if (b >= 0x20) {
          this.#params += String.fromCharCode(b);
          if (this.#params.length > _MAX_SEQUENCE) this.#state = "ground";
        }
        return;
      case "ss3":
        this.#state = "ground";
        return this.#ss3(b, i);
      case "string":
        if (b === 0x07) this.#state = "ground";
        else if (b === 0x1b) this.#state = "string-esc";
        return;
      case "string-esc":
        this.#state = b === 0x5c ? "ground" : "string";
        return;
      case "mouse":
        if (--this.#mouseLeft === 0) this.#state = "ground";
        return;
      case "paste":
        return this.#paste(b);
    }
  }

  #startEscape(i: number): void {
    this.#flushUtf8();
    this.#state = "esc";
    this.#seqStart = i;
  }

  #ground(b: number, i: number): void {
    if (b >= 0x20 && b !== 0x7f) return this.#textByte(b);
    this.#flushUtf8();
    switch (b) {
      case 0x1b:
        return this.#startEscape(i);
      case 0x0d:
        return this.#enter(i, i + 1);
      case 0x0a: // Ctrl-J: a newline in the input box of the agents that take it
        return this.#insert("\n");
      case 0x7f:
      case 0x08:
        return this.#backspace();
      case 0x15: // Ctrl-U: kill to the start of the (logical) line
        return this.#killLine();
      case 0x17: // Ctrl-W
        return this.#killWord();
      case 0x03: // Ctrl-C clears the input box
        return this.#clearLine();
      case 0x01: // Ctrl-A, Ctrl-E: start and end of the (logical) line
        return this.#moveTo(this.#lineStart());
      case 0x05:
        return this.#moveTo(this.#lineEnd());
      case 0x0b: // Ctrl-K: kill to the end of the (logical) line
        this.#line.splice(this.#cursor, this.#lineEnd() - this.#cursor);
        return;
      case 0x04: // Ctrl-D, Ctrl-L: no edit at the end of the line
      case 0x0c:
      case 0x00:
        return;
      default: // Tab completion, Ctrl-Y…: the line is no longer known
        this.#uncertain();
    }
  }

  #esc(b: number, i: number): void {
    this.#state = "ground";
    switch (b) {
      case 0x5b: // [
        this.#state = "csi";
        this.#params = "";
        return;
      case 0x4f: // O
        this.#state = "ss3";
        return;
      case 0x5d: // ] OSC, P DCS, _ APC, ^ PM, X SOS: replies from the terminal
      case 0x50:
      case 0x5f:
      case 0x5e:
      case 0x58:
        this.#state = "string";
        return;
      case 0x1b:
        this.#uncertain();
        return this.#startEscape(i);
      case 0x7f: // Alt-Backspace
      case 0x08:
        return this.#killWord();
      case 0x0d: // Alt-Enter: newline in the box
        return this.#insert("\n");
      default: // Alt-key (word moves)
        this.#uncertain();
    }
  }

  #ss3(b: number, i: number): void {
    if (b === 0x4d) return this.#enter(this.#seqStart, i + 1); // keypad Enter
    if (b >= 0x50 && b <= 0x53) return; // F1-F4
    this.#cursorKey(String.fromCharCode(b));
  }

  #csi(params: string, final: number, i: number): void {
    const f = String.fromCharCode(final);
    const lead = params[0];
    if (lead === "?" || lead === ">" || lead === "=" || lead === "$") return; // terminal replies
    if (lead === "<") return; // SGR mouse
    if (f === "M" && params === "") {
      this.#state = "mouse"; // X10 mouse: three raw bytes follow
      this.#mouseLeft = 3;
      return;
    }
    if (f === "~") {
      const fields = params.split(";");
      if (fields[0] === "200") {
        this.#state = "paste";
        this.#pasteMatch = 0;
        this.#pasteCR = false;
        this.#pasted = [];
        return;
      }
      if (fields[0] === "27" && fields.length >= 3) {
        return this.#key(Number(fields[2]), Number(fields[1]) || 1, 1, null, null, i);
      }
      if (fields.length > 1 && fields[1] !== "1") return this.#uncertain(); // modified keys
      if (fields[0] === "1" || fields[0] === "7") return this.#cursorKey("H");
      if (fields[0] === "4" || fields[0] === "8") return this.#cursorKey("F");
      if (fields[0] === "3") {
        this.#line.splice(this.#cursor, 1); // Delete
        return this.#noteMoved();
      }
      if (fields[0] === "2") return this.#uncertain(); // Insert: overtype, maybe
      return; // PgUp/PgDn and F5+ do not edit
    }
    if (f === "u") {
      const fields = params.split(";");
      const key = fields[0].split(":");
      const mod = (fields[1] ?? "").split(":");
      const text = fields[2] ? fields[2].split(":").map(Number) : null;
      const shifted = key[1] ? Number(key[1]) : null;
      return this.#key(Number(key[0]), Number(mod[0]) || 1, Number(mod[1]) || 1, shifted, text, i);
    }
    if ("ABCDHF".includes(f)) {
      // Modified cursor keys (Ctrl/Alt+Left: word moves) are not followed.
      if (params !== "" && params !== "1" && params !== "1;1") return this.#uncertain();
      return this.#cursorKey(f);
    }
    // Focus (I/O), F-keys (P–S, also cursor position reports), Shift-Tab (Z): no edit.
  }

  /** A key reported as a code (kitty `CSI u`, xterm modifyOtherKeys `CSI 27;m;c~`). */
  #key(
    code: number,
    mods: number,
    event: number,
    shifted: number | null,
    text: number[] | null,
    i: number,
  ): void {
    if (event === 3) return; // release
    const m = (mods - 1) & ~(64 | 128); // ignore Caps Lock and Num Lock
    if (code >= 57441 && code <= 57454) return; // modifier keys alone
    if (text !== null && text.every((c) => Number.isInteger(c) && c > 0)) {
      return this.#insert(String.fromCodePoint(...text));
    }
    if (m === 0 || m === 1) {
      if (code === 13 || code === 57414) {
        return m === 0 ? this.#enter(this.#seqStart, i + 1) : this.#insert("\n");
      }
      if (code === 127 || code === 8) return this.#backspace();
      if (code >= 32 && code < 57344 && code <= 0x10ffff) {
        if (m === 0) return this.#insert(String.fromCodePoint(code));
        if (shifted !== null) return this.#insert(String.fromCodePoint(shifted));
      }
      return this.#uncertain();
    }
    if (m === 4) {
      if (code === 0x75) return this.#killLine();
      if (code === 0x77) return this.#killWord();
      if (code === 0x63) return this.#clearLine();
      if (code === 0x6a) return this.#insert("\n");
      if (code === 0x64 || code === 0x6c) return;
    }
    if (m === 2) {
      if (code === 127 || code === 8) return this.#killWord();
      if (code === 13) return this.#insert("\n");
    }
    this.#uncertain();
  }

  #paste(b: number): void {
    if (b === _PASTE_END[this.#pasteMatch]) {
      if (++this.#pasteMatch === _PASTE_END.length) {
        this.#flushUtf8();
        this.#state = "ground";
        this.#pasteMatch = 0;
        this.#pastes.push(this.#pasted.join(""));
        this.#pasted = [];
      }
      return;
    }
    if (this.#pasteMatch > 0) {
      // A partial end marker was text after all (its ESC is dropped like other controls).
      for (const c of _PASTE_END.slice(1, this.#pasteMatch)) this.#pasteText(c);
      this.#pasteMatch = 0;
      return this.#paste(b);
    }
    this.#pasteText(b);
  }

  #pasteText(b: number): void {
    const cr = this.#pasteCR;
    this.#pasteCR = b === 0x0d;
    const before = this.#line.length;
    if (b === 0x0d) this.#insert("\n");
    else if (b === 0x0a) {
      if (!cr) this.#insert("\n");
    } else if (b === 0x09) this.#insert("\t");
    else if (b < 0x20 || b === 0x7f) this.#flushUtf8();
    else this.#textByte(b);
    // What this byte completed (a code point may take several) is part of the paste's text.
    const added = this.#line.length - before;
    if (added > 0) this.#pasted.push(...this.#line.slice(this.#cursor - added, this.#cursor));
  }

  #enter(start: number, end: number): void {
    this.#flushUtf8();
    // Claude's `\` + Enter: the backslash becomes a newline and nothing is sent.
    if (this.#keys.backslashEnter && this.#cursor > 0 && this.#line[this.#cursor - 1] === "\\") {
      this.#line[this.#cursor - 1] = "\n";
      // Mended (2): the original did this with the cursor inside the line too, putting a newline
      // typed in the middle into the tail, which is what was typed at the end.
      if (this.#cursor < this.#line.length) return;
      this.#tail?.pop();
      this.#tail?.push("\n");
      return;
    }
    const text = this.#line.join("");
    const exact = this.#exact;
    const tail = this.#tail === null ? null : this.#tail.join("");
    const pastes = this.#pastes;
    this.#clearLine();
    if (exact && text.trim() === "") return;
    const cmd = exact ? _COMMAND.exec(text) : null;
    if (cmd !== null) {
      this.#skip.push([start, end]);
      this.#events.push({ type: "command", name: "agent", arg: cmd[1] ?? null, typed: text });
      return;
    }
    this.#events.push({ type: "submit", text, exact, tail, pastes });
  }

  #clearLine(): void {
    this.#line = [];
    this.#cursor = 0;
    this.#exact = true;
    this.#tail = [];
    this.#pastes = [];
  }

  /** A key whose effect on the box is not followed: the box will tell (see the module doc). */
  #uncertain(): void {
    this.#exact = false;
    this.#tail = [];
  }

  /** The cursor left the end of the line: later typing is not a tail of what the box shows. */
  #noteMoved(): void {
    if (!this.#exact && this.#cursor !== this.#line.length) this.#tail = null;
  }

  #moveTo(at: number): void {
    this.#cursor = Math.max(0, Math.min(this.#line.length, at));
    this.#noteMoved();
  }

  #lineStart(): number {
    // Mended (1): in the original, at the very start a fromIndex of -1 counted from
    // the end, so Home/Ctrl-A at the start of a line with a newline later jumped past it (a bug
    // the new tracker does not have; `input_test.ts` has its test).
    if (this.#cursor === 0) return 0;
    return this.#line.lastIndexOf("\n", this.#cursor - 1) + 1;
  }

  #lineEnd(): number {
    const nl = this.#line.indexOf("\n", this.#cursor);
    return nl < 0 ? this.#line.length : nl;
  }

  /** An unmodified cursor key: Left, Right, Home, End are followed; Up and Down are not. */
  #cursorKey(f: string): void {
    if (f === "D") return this.#moveTo(this.#cursor - 1);
    if (f === "C") return this.#moveTo(this.#cursor + 1);
    if (f === "H") return this.#moveTo(this.#lineStart());
    if (f === "F") return this.#moveTo(this.#lineEnd());
    this.#uncertain(); // Up/Down: history recall, or a move between rows
  }

  #insert(s: string): void {
    this.#flushUtf8();
    for (const ch of s) this.#put(ch);
  }

  #put(ch: string): void {
    this.#line.splice(this.#cursor++, 0, ch);
    if (this.#tail !== null && this.#cursor === this.#line.length) this.#tail.push(ch);
  }

  #backspace(): void {
    if (this.#cursor === 0) return;
    this.#line.splice(--this.#cursor, 1);
    if (this.#tail !== null && this.#cursor === this.#line.length) {
      if (this.#tail.length > 0) this.#tail.pop();
      else if (!this.#exact) this.#tail = null; // deleted into text only the box knows
    }
  }

  #killLine(): void {
    this.#killBack(this.#lineStart());
  }

  #killWord(): void {
    const l = this.#line;
    let at = this.#cursor;
    while (at > 0 && /\s/.test(l[at - 1]) && l[at - 1] !== "\n") at--;
    while (at > 0 && !/\s/.test(l[at - 1])) at--;
    this.#killBack(at);
  }

  /** Deletes from `at` to the cursor; the tail survives when only its own end was deleted. */
  #killBack(at: number): void {
    const count = this.#cursor - at;
    const atEnd = this.#cursor === this.#line.length;
    this.#line.splice(at, count);
    this.#cursor = at;
    if (this.#tail === null) return;
    if (atEnd && count <= this.#tail.length) this.#tail.length -= count;
    else if (!this.#exact) this.#tail = null;
  }

  /** Collects UTF-8 bytes into code points; malformed input becomes U+FFFD. */
  #textByte(b: number): void {
    if (b < 0x80) {
      this.#flushUtf8();
      this.#put(String.fromCharCode(b));
      return;
    }
    if (b >= 0x80 && b < 0xc0 && this.#utf8.length > 0) {
      this.#utf8.push(b);
      if (this.#utf8.length === this.#utf8Need) this.#flushUtf8();
      return;
    }
    this.#flushUtf8();
    this.#utf8 = [b];
    this.#utf8Need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (this.#utf8Need === 1) this.#flushUtf8();
  }

  #flushUtf8(): void {
    if (this.#utf8.length === 0) return;
    const s = this.#decoder.decode(new Uint8Array(this.#utf8));
    this.#utf8 = [];
    this.#utf8Need = 0;
    for (const ch of s) this.#put(ch);
  }
}
