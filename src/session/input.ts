/**
 * Tracks the line the user is typing at the agent's prompt, from raw-mode key bytes, so a submit
 * can be recorded and `/agent [NAME]` can be taken out of the stream. Pure: bytes in, bytes to
 * forward and events out.
 *
 * Every byte is forwarded as typed (the agent shows it), except the Enter that completes a
 * `/agent` command. Escape sequences (cursor keys, function keys, mouse and focus reports, kitty
 * `CSI … u` keys, the terminal's replies to queries) pass through; those that move the cursor or
 * recall history make the tracked line uncertain, and an uncertain line is never a command.
 *
 * @module
 */

/** What the tracker saw happen. */
export type InputEvent =
  /**
   * Enter submitted a non-empty line. `exact` is false when cursor movement, history or
   * completion may have changed the line in ways the tracker cannot follow (best effort text).
   */
  | { type: "submit"; text: string; exact: boolean }
  /** `/agent` or `/agent NAME` was entered; its Enter was not forwarded. */
  | { type: "command"; name: "agent"; arg: string | null; typed: string };

/** The result of one {@linkcode InputTracker.feed}. */
export interface InputResult {
  /** The bytes to send to the agent. */
  forward: Uint8Array;
  events: InputEvent[];
}

/**
 * The bytes that erase `typed` from the agent's input box: one DEL (0x7f, Backspace) per code
 * point. Used when a `/agent` command does not lead to a switch.
 */
export function eraseBytes(typed: string): Uint8Array {
  return new Uint8Array([...typed].length).fill(0x7f);
}

const _COMMAND = /^\/agent(?:[ \t]+([^\s]+))?[ \t]*$/;
const _PASTE_END = [0x1b, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 2 0 1 ~
const _MAX_SEQUENCE = 256;

type _State = "ground" | "esc" | "csi" | "ss3" | "string" | "string-esc" | "mouse" | "paste";

/** Follows the typed line through raw key bytes; see the module doc. */
export class InputTracker {
  #line: string[] = [];
  #exact = true;
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
    this.#line = [];
    this.#exact = true;
    this.#utf8 = [];
    this.#utf8Need = 0;
  }

  /** Marks the line unknown (e.g. uuldana itself typed into the agent). */
  markUncertain(): void {
    this.#exact = false;
  }

  /** Feeds the user's key bytes; returns what to forward and what happened. */
  feed(bytes: Uint8Array): InputResult {
    this.#skip = [];
    this.#events = [];
    for (let i = 0; i < bytes.length; i++) this.#byte(bytes[i], i);
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
        this.#line.pop();
        return;
      case 0x15: // Ctrl-U: kill to the start of the (logical) line
        return this.#killLine();
      case 0x17: // Ctrl-W
        return this.#killWord();
      case 0x03: // Ctrl-C clears the input box
        this.#line = [];
        this.#exact = true;
        return;
      case 0x04: // Ctrl-D, Ctrl-L: no edit at the end of the line
      case 0x0c:
      case 0x00:
        return;
      default: // Tab completion, Ctrl-A/E/K/Y…: the line is no longer known
        this.#exact = false;
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
        this.#exact = false;
        return this.#startEscape(i);
      case 0x7f: // Alt-Backspace
      case 0x08:
        return this.#killWord();
      case 0x0d: // Alt-Enter: newline in the box
        return this.#insert("\n");
      default: // Alt-key (word moves, Escape then a key)
        this.#exact = false;
    }
  }

  #ss3(b: number, i: number): void {
    if (b === 0x4d) return this.#enter(this.#seqStart, i + 1); // keypad Enter
    if (b >= 0x50 && b <= 0x53) return; // F1-F4
    this.#exact = false;
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
        return;
      }
      if (fields[0] === "27" && fields.length >= 3) {
        return this.#key(Number(fields[2]), Number(fields[1]) || 1, 1, null, null, i);
      }
      // Home, Insert, Delete, End move or edit; PgUp/PgDn and F5+ do not.
      if (["1", "2", "3", "4", "7", "8"].includes(fields[0])) this.#exact = false;
      return;
    }
    if (f === "u") {
      const fields = params.split(";");
      const key = fields[0].split(":");
      const mod = (fields[1] ?? "").split(":");
      const text = fields[2] ? fields[2].split(":").map(Number) : null;
      const shifted = key[1] ? Number(key[1]) : null;
      return this.#key(Number(key[0]), Number(mod[0]) || 1, Number(mod[1]) || 1, shifted, text, i);
    }
    if ("ABCDHF".includes(f)) this.#exact = false; // cursor keys, history
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
      if (code === 127 || code === 8) {
        this.#line.pop();
        return;
      }
      if (code >= 32 && code < 57344 && code <= 0x10ffff) {
        if (m === 0) return this.#insert(String.fromCodePoint(code));
        if (shifted !== null) return this.#insert(String.fromCodePoint(shifted));
      }
      this.#exact = false;
      return;
    }
    if (m === 4) {
      if (code === 0x75) return this.#killLine();
      if (code === 0x77) return this.#killWord();
      if (code === 0x63) {
        this.#line = [];
        this.#exact = true;
        return;
      }
      if (code === 0x6a) return this.#insert("\n");
      if (code === 0x64 || code === 0x6c) return;
    }
    if (m === 2) {
      if (code === 127 || code === 8) return this.#killWord();
      if (code === 13) return this.#insert("\n");
    }
    this.#exact = false;
  }

  #paste(b: number): void {
    if (b === _PASTE_END[this.#pasteMatch]) {
      if (++this.#pasteMatch === _PASTE_END.length) {
        this.#flushUtf8();
        this.#state = "ground";
        this.#pasteMatch = 0;
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
    if (b === 0x0d) return this.#insert("\n");
    if (b === 0x0a) {
      if (!cr) this.#insert("\n");
      return;
    }
    if (b === 0x09) return this.#insert("\t");
    if (b < 0x20 || b === 0x7f) return this.#flushUtf8();
    this.#textByte(b);
  }

  #enter(start: number, end: number): void {
    this.#flushUtf8();
    const text = this.#line.join("");
    const exact = this.#exact;
    this.#line = [];
    this.#exact = true;
    if (text.trim() === "") return;
    const cmd = exact ? _COMMAND.exec(text) : null;
    if (cmd !== null) {
      this.#skip.push([start, end]);
      this.#events.push({ type: "command", name: "agent", arg: cmd[1] ?? null, typed: text });
      return;
    }
    this.#events.push({ type: "submit", text, exact });
  }

  #insert(s: string): void {
    this.#flushUtf8();
    for (const ch of s) this.#line.push(ch);
  }

  #killLine(): void {
    const nl = this.#line.lastIndexOf("\n");
    this.#line.length = nl + 1;
  }

  #killWord(): void {
    const l = this.#line;
    while (l.length > 0 && /\s/.test(l[l.length - 1]) && l[l.length - 1] !== "\n") l.pop();
    while (l.length > 0 && !/\s/.test(l[l.length - 1])) l.pop();
  }

  /** Collects UTF-8 bytes into code points; malformed input becomes U+FFFD. */
  #textByte(b: number): void {
    if (b < 0x80) {
      this.#flushUtf8();
      this.#line.push(String.fromCharCode(b));
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
    for (const ch of s) this.#line.push(ch);
  }
}
