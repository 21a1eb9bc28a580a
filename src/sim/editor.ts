/**
 * A simulated agent's input box as an editor, the way Claude Code's behaves: a cursor that
 * Left/Right/Home/End and the readline keys move, history recall on Up/Down, `@path` completion on
 * Tab, `\` then Enter for a newline, and long pastes collapsed to `[Pasted text #N +M lines]`
 * until they are sent. Pure: keys in, the shown text and the submitted text out.
 *
 * @module
 */

/** How this agent's box behaves. */
export interface EditorRules {
  /** `\` then Enter inserts a newline (Claude Code). */
  backslashEnter: boolean;
  /** Long pastes show as a label until sent (Claude Code). */
  collapsePastes: boolean;
  /** The message is sent with leading and trailing blanks removed (Claude Code). */
  trim: boolean;
  /**
   * How a collapsed paste is labelled: Claude Code's `[Pasted text #N +M lines]` (the default),
   * Gemini CLI's `[Pasted Text: L lines]` or Copilot CLI 1.0.102's `[Paste #N - L lines]`.
   */
  label?: "claude" | "gemini" | "copilot";
}

// Claude Code 2.1.197 collapses a paste longer than 800 characters or with more newlines than
// min(rows - 10, 2), and turns its tabs into four spaces (read from its bundled source).
const _COLLAPSE_CHARS = 800;
const _LABEL = /\[Pasted text #(\d+)(?: \+\d+ lines)?\]/g;
const _GEMINI_LABEL = /\[Pasted Text: \d+ lines\]/g;
const _COPILOT_LABEL = /\[Paste #(\d+) - \d+ lines?\]/g;

/** The input box's text, cursor, history and pastes. */
export class LineEditor {
  #chars: string[] = [];
  #cursor = 0;
  readonly #history: string[] = [];
  /** How far back Up has gone (0: the draft). */
  #recall = 0;
  #draft = "";
  readonly #pastes = new Map<number, string>();
  #nextPaste = 1;
  readonly #rules: EditorRules;

  constructor(rules: EditorRules) {
    this.#rules = rules;
  }

  /** What the box shows (collapsed pastes as their labels). */
  get text(): string {
    return this.#chars.join("");
  }

  /** The cursor, in code points from the start. */
  get cursor(): number {
    return this.#cursor;
  }

  /** While Up/Down recall history: which message (1 = oldest) of how many; else null. */
  get recalled(): { at: number; of: number } | null {
    if (this.#recall === 0) return null;
    return { at: this.#history.length - this.#recall + 1, of: this.#history.length };
  }

  /** Empties the box. */
  clear(): void {
    this.#set("");
    this.#recall = 0;
  }

  /** Types text at the cursor. */
  insert(s: string): void {
    this.#chars.splice(this.#cursor, 0, ...s);
    this.#cursor += [...s].length;
  }

  /** A bracketed paste, collapsed to a label when it is long (see `EditorRules`). */
  paste(raw: string, rows: number): void {
    const text = raw.replace(/\r\n?/g, "\n").replaceAll("\t", "    ");
    const newlines = (text.match(/\n/g) ?? []).length;
    const collapse = this.#rules.collapsePastes &&
      (text.length > _COLLAPSE_CHARS || newlines > Math.max(0, Math.min(rows - 10, 2)));
    if (!collapse) return this.insert(text);
    const id = this.#nextPaste++;
    this.#pastes.set(id, text);
    if (this.#rules.label === "gemini") return this.insert(`[Pasted Text: ${newlines + 1} lines]`);
    if (this.#rules.label === "copilot") {
      return this.insert(`[Paste #${id} - ${newlines + 1} line${newlines ? "s" : ""}]`);
    }
    this.insert(
      newlines === 0 ? `[Pasted text #${id}]` : `[Pasted text #${id} +${newlines} lines]`,
    );
  }

  /** Backspace: deletes before the cursor. */
  backspace(): void {
    if (this.#cursor === 0) return;
    this.#chars.splice(--this.#cursor, 1);
  }

  /** Delete: deletes at the cursor. */
  deleteForward(): void {
    this.#chars.splice(this.#cursor, 1);
  }

  /** Left, Right. */
  move(by: number): void {
    this.#cursor = Math.max(0, Math.min(this.#chars.length, this.#cursor + by));
  }

  /** Home, Ctrl-A: the start of the cursor's line. */
  home(): void {
    this.#cursor = this.#lineStart();
  }

  /** End, Ctrl-E: the end of the cursor's line. */
  end(): void {
    this.#cursor = this.#lineEnd();
  }

  /** Ctrl-U: deletes back to the start of the line. */
  killToStart(): void {
    const start = this.#lineStart();
    this.#chars.splice(start, this.#cursor - start);
    this.#cursor = start;
  }

  /** Ctrl-K: deletes to the end of the line. */
  killToEnd(): void {
    this.#chars.splice(this.#cursor, this.#lineEnd() - this.#cursor);
  }

  /** Ctrl-W: deletes the word before the cursor. */
  killWord(): void {
    let at = this.#cursor;
    while (at > 0 && /[ \t]/.test(this.#chars[at - 1])) at--;
    while (at > 0 && !/\s/.test(this.#chars[at - 1])) at--;
    this.#chars.splice(at, this.#cursor - at);
    this.#cursor = at;
  }

  /** Up: the line above, or on the first line the previous message from history. */
  up(): void {
    if (this.#lineStart() > 0) return this.#verticalMove(-1);
    if (this.#recall >= this.#history.length) return;
    if (this.#recall === 0) this.#draft = this.text;
    this.#recall++;
    this.#set(this.#history[this.#history.length - this.#recall]);
  }

  /** Down: the line below, or on the last line the next message from history (then the draft). */
  down(): void {
    if (this.#lineEnd() < this.#chars.length) return this.#verticalMove(1);
    if (this.#recall === 0) return;
    this.#recall--;
    this.#set(
      this.#recall === 0 ? this.#draft : this.#history[this.#history.length - this.#recall],
    );
  }

  /**
   * Tab: completes the `@path` word before the cursor with `complete(prefix)` (the names it may
   * become); a single match is taken (Claude Code 2.1.197 adds no space after it), several share
   * their common start.
   */
  tab(complete: (prefix: string) => string[]): void {
    const before = this.#chars.slice(0, this.#cursor).join("");
    const m = /@(\S*)$/.exec(before);
    if (!m) return;
    const names = complete(m[1]);
    if (names.length === 0) return;
    let common = names[0];
    for (const n of names) while (!n.startsWith(common)) common = common.slice(0, -1);
    this.insert(common.slice(m[1].length));
  }

  /**
   * Enter: a newline after a `\` (when the rules say so), else the message to send with the
   * pastes expanded (null when the box is blank). The box is emptied and the message remembered.
   */
  enter(): string | null {
    if (this.#rules.backslashEnter && this.#chars[this.#cursor - 1] === "\\") {
      this.#chars[this.#cursor - 1] = "\n";
      return null;
    }
    const shown = this.text;
    if (!shown.trim()) return null;
    // Claude trims what the box shows, then puts the collapsed pastes back in.
    // Gemini's labels carry no number: they stand for the pastes in order.
    const inOrder = [...this.#pastes.values()];
    const sent = (this.#rules.trim ? shown.trim() : shown)
      .replace(_LABEL, (label, id) => this.#pastes.get(Number(id)) ?? label)
      .replace(_GEMINI_LABEL, (label) => inOrder.shift() ?? label)
      .replace(_COPILOT_LABEL, (label, id) => this.#pastes.get(Number(id)) ?? label);
    this.#history.push(sent);
    this.#pastes.clear();
    this.clear();
    return sent;
  }

  /** The editing keys the decoder leaves as raw sequences; false when `seq` is none of them. */
  editKey(seq: string): boolean {
    switch (seq) {
      case "\x1b[H":
      case "\x1bOH":
      case "\x1b[1~":
      case "\x01":
        this.home();
        return true;
      case "\x1b[F":
      case "\x1bOF":
      case "\x1b[4~":
      case "\x05":
        this.end();
        return true;
      case "\x1b[3~":
        this.deleteForward();
        return true;
      case "\x15":
        this.killToStart();
        return true;
      case "\x0b":
        this.killToEnd();
        return true;
      case "\x17":
      case "\x1b\x7f":
        this.killWord();
        return true;
      case "\x1b\r": // Alt+Enter, Shift+Enter (xterm modifyOtherKeys, kitty): a newline
      case "\x1b[27;2;13~":
      case "\x1b[13;2u":
        this.insert("\n");
        return true;
    }
    return false;
  }

  #set(text: string): void {
    this.#chars = [...text];
    this.#cursor = this.#chars.length;
  }

  #lineStart(): number {
    return this.#chars.lastIndexOf("\n", this.#cursor - 1) + 1;
  }

  #lineEnd(): number {
    const nl = this.#chars.indexOf("\n", this.#cursor);
    return nl < 0 ? this.#chars.length : nl;
  }

  #verticalMove(dir: -1 | 1): void {
    const col = this.#cursor - this.#lineStart();
    if (dir < 0) {
      this.#cursor = this.#lineStart() - 1; // the end of the line above
      this.#cursor = Math.min(this.#lineStart() + col, this.#cursor);
    } else {
      this.#cursor = this.#lineEnd() + 1; // the start of the line below
      this.#cursor = Math.min(this.#cursor + col, this.#lineEnd());
    }
  }
}
