/**
 * uuldana's answer to `/agent` (the list of agents, an unknown name) while an agent runs, shown on
 * the terminal's other screen so that not a cell of the agent's is touched: the alternate screen is
 * entered (`?1049h`: the terminal saves the cursor and keeps the normal screen as it is), the
 * answer drawn there, the agent's output held; the next key (swallowed), or a minute, or more held
 * output than the bound, leaves it (`?1049l`: the agent's screen and cursor exactly as they were)
 * and the held output follows, in order. An agent on the alternate screen itself has no other
 * screen to spare (`?1049h` again would clear its own): it is never asked to open.
 *
 * @module
 */

/** Output of the agent held at most while the answer shows; more closes it. */
export const ANSWER_HELD_MAX = 4 * 1024 * 1024;
/** The answer closes itself after this long: the agent's output is never held longer. */
export const ANSWER_SHOWN_MS = 60_000;

const _encoder = new TextEncoder();

/** The answer's screen; see the module doc. */
export class AnswerScreen {
  readonly #write: (bytes: Uint8Array) => void;
  readonly #shownMs: number;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #open = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Writes to the user's terminal through `write`. */
  constructor(write: (bytes: Uint8Array) => void, opts: { shownMs?: number } = {}) {
    this.#write = write;
    this.#shownMs = opts.shownMs ?? ANSWER_SHOWN_MS;
  }

  /** Whether the answer shows (the agent's output is held). */
  get open(): boolean {
    return this.#open;
  }

  /** Shows `text` (lines split on `\n`) with `footer` under it; a shown answer is replaced. */
  show(text: string, footer: string): void {
    // deno-lint-ignore no-control-regex
    const body = text.split("\n").map((l) => l.replace(/[\x00-\x1f\x7f]/g, "")).join("\r\n");
    // Plain text in the default charset and colours; the terminal's `?1049l` gives back the
    // agent's own (DECRC), as it saved them at `?1049h`.
    const enter = this.#open ? "" : "\x1b[?1049h";
    this.#open = true;
    this.#write(_encoder.encode(`${enter}\x1b[H\x1b[2J\x1b(B\x1b[0m${body}\r\n\r\n${footer}`));
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.close(), this.#shownMs);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  /**
   * Takes the agent's `chunk` while the answer shows (a copy: the caller may reuse it); returns
   * false when it does not show (the caller writes the chunk itself).
   */
  hold(chunk: Uint8Array): boolean {
    if (!this.#open) return false;
    this.#held.push(chunk.slice());
    this.#heldBytes += chunk.length;
    if (this.#heldBytes > ANSWER_HELD_MAX) this.close();
    return true;
  }

  /** Back to the agent's screen, as it was, then what it wrote meanwhile. Idempotent. */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    clearTimeout(this.#timer);
    const held = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    this.#write(_encoder.encode("\x1b[?1049l"));
    for (const chunk of held) this.#write(chunk);
  }
}
