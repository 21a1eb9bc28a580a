/**
 * What uuldana has to say while an agent is on the user's screen, kept until the screen is
 * uuldana's again (the agent stopped for a switch, or gone). Pure and bounded.
 *
 * Why nothing is written meanwhile: a full-screen agent (Claude, Codex, Gemini…) draws relative to
 * where it believes its cursor is. A line of ours moves that cursor and takes a row the agent
 * thinks is its own (its input box, say), so its next frame lands beside it and the user's next
 * keys are drawn over garbled text (found by the real-agent matrix with Claude's hooks off). No
 * other place in the terminal is ours while it runs either. Not the title: it is the agent's
 * (Claude, Codex, Gemini, Qwen, OpenCode and Copilot all set it), so ours would hide theirs
 * until they set it again, or be gone at once when they do; and a tab title is too short to say
 * what to do about it. Not a row of the screen: any row printed scrolls or erases what the agent drew.
 * Out-of-band notifications (the bell, a desktop notification) draw nothing and move no cursor:
 * those stay, for what must reach the user now (`src/notify/`).
 *
 * @module
 */

/** Lines kept at most; later ones are counted. */
export const HELD_LINES_MAX = 20;

/** Lines kept for later, in order, each once. */
export class HeldLines {
  readonly #lines: string[] = [];
  #more = 0;

  /** Keeps `line` (a line said again while kept is kept once). */
  keep(line: string): void {
    if (this.#lines.includes(line)) return;
    if (this.#lines.length >= HELD_LINES_MAX) this.#more++;
    else this.#lines.push(line);
  }

  /** Whether anything is kept. */
  get empty(): boolean {
    return this.#lines.length === 0;
  }

  /** The kept lines, in order (with a count of those not kept), and forgets them. */
  take(): string[] {
    const lines = this.#lines.splice(0);
    if (this.#more) lines.push(`(and ${this.#more} more lines like these, not kept)`);
    this.#more = 0;
    return lines;
  }
}
