/**
 * uuldana's answer to `/agent` (the list of agents, an unknown name) while an agent runs, shown so
 * that the agent's screen comes back as it was. The agent's output is held while the answer shows;
 * the next key (swallowed), a minute, or more held output than the bound closes it, and the held
 * output follows, in order.
 *
 * - An agent on the normal screen: the answer is drawn on the terminal's alternate screen
 *   (`?1049h`: the terminal saves the cursor and keeps the normal screen as it is); `?1049l` gives
 *   back the agent's screen and cursor exactly as they were. Not a cell of the agent's is touched.
 * - An agent on the alternate screen itself (real Claude 2.1.332, OpenCode, Copilot, Qwen…) leaves
 *   no other screen to spare: `?1049h` again would clear its own, and what a terminal keeps of an
 *   alternate screen left and entered again varies (tmux keeps nothing). The answer is drawn over
 *   it (the cursor saved), cleared when it closes, and the agent asked to paint its whole screen
 *   again (`repaint`: the caller's resize nudge, as every full-screen agent repaints on one).
 *
 * @module
 */

/** Output of the agent held at most while the answer shows; more closes it. */
export const ANSWER_HELD_MAX = 4 * 1024 * 1024;
/** The answer closes itself after this long: the agent's output is never held longer. */
export const ANSWER_SHOWN_MS = 60_000;

const _encoder = new TextEncoder();

/** Where the agent draws while the answer shows over it. */
export type AgentScreen = "normal" | "alternate";

/** The answer's screen; see the module doc. */
export class AnswerScreen {
  readonly #write: (bytes: Uint8Array) => void;
  readonly #repaint: () => void;
  readonly #shownMs: number;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** The screen of the agent the answer shows over; null while none shows. */
  #over: AgentScreen | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Writes to the user's terminal through `write`; `repaint` asks an agent on the alternate screen
   * to paint all of it again once the answer is gone from over it.
   */
  constructor(
    write: (bytes: Uint8Array) => void,
    opts: { repaint?: () => void; shownMs?: number } = {},
  ) {
    this.#write = write;
    this.#repaint = opts.repaint ?? (() => {});
    this.#shownMs = opts.shownMs ?? ANSWER_SHOWN_MS;
  }

  /** Whether the answer shows (the agent's output is held). */
  get open(): boolean {
    return this.#over !== null;
  }

  /**
   * Shows `text` (lines split on `\n`) with `footer` under it over an agent drawing on `agent`'s
   * screen; a shown answer is replaced.
   */
  show(text: string, footer: string, agent: AgentScreen): void {
    // deno-lint-ignore no-control-regex
    const body = text.split("\n").map((l) => l.replace(/[\x00-\x1f\x7f]/g, "")).join("\r\n");
    // Entered once: the normal screen's other screen, or (over an agent on the alternate one) the
    // agent's cursor and colours saved (DECSC), given back when it closes (DECRC).
    const enter = this.#over ? "" : agent === "normal" ? "\x1b[?1049h" : "\x1b7";
    this.#over ??= agent;
    // Plain text in the default charset and colours.
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
    if (!this.#over) return false;
    this.#held.push(chunk.slice());
    this.#heldBytes += chunk.length;
    if (this.#heldBytes > ANSWER_HELD_MAX) this.close();
    return true;
  }

  /** Back to the agent's screen, then what it wrote meanwhile. Idempotent. */
  close(): void {
    const over = this.#over;
    if (!over) return;
    this.#over = null;
    clearTimeout(this.#timer);
    const held = this.#held;
    this.#held = [];
    this.#heldBytes = 0;
    this.#write(_encoder.encode(over === "normal" ? "\x1b[?1049l" : "\x1b[H\x1b[2J\x1b8"));
    for (const chunk of held) this.#write(chunk);
    if (over === "alternate") this.#repaint();
  }
}
