/**
 * The cursor of the buffer shown and its rules: where it may be (inside the screen, inside the
 * margins in origin mode, one past the last column while a wrap is pending), how each movement
 * is clamped, backspace (reverse wraparound), tab stops, and DECSC/DECRC. The position lives in
 * the buffer (each buffer has its own); these are the rules.
 *
 * @module
 */
import { COMBINED, CP_MASK, WIDTH_MASK } from "./line.ts";
import type { Modes } from "./modes.ts";
import type { Repeater } from "./repeat.ts";
import type { Screen } from "./screen.ts";

/** The cursor rules of one screen. */
export class Cursor {
  readonly #screen: Screen;
  readonly #modes: Readonly<Modes>;
  readonly #rep: Repeater;

  constructor(screen: Screen, modes: Readonly<Modes>, rep: Repeater) {
    this.#screen = screen;
    this.#modes = modes;
    this.#rep = rep;
  }

  /** Clamps the cursor into the screen (into the margins in origin mode), at most `maxCol`. */
  restrict(maxCol = this.#screen.cols - 1): void {
    const buf = this.#screen.buf;
    buf.x = Math.min(maxCol, Math.max(0, buf.x));
    buf.y = this.#modes.origin
      ? Math.min(buf.scrollBottom, Math.max(buf.scrollTop, buf.y))
      : Math.min(this.#screen.rows - 1, Math.max(0, buf.y));
  }

  /** CUP: to (x, y), 0-based, relative to the top margin in origin mode, clamped. */
  set(x: number, y: number): void {
    const buf = this.#screen.buf;
    buf.x = x;
    buf.y = this.#modes.origin ? buf.scrollTop + y : y;
    this.restrict();
  }

  /** CHA/HPA: to column `x` (0-based) of the cursor row. */
  toColumn(x: number): void {
    this.set(x, this.#screen.buf.y);
  }

  /** VPA: to row `y` (0-based, relative to the top margin in origin mode), same column. */
  toRow(y: number): void {
    this.set(this.#screen.buf.x, y);
  }

  /** By (dx, dy), clamped (CUF, CUB, HPR, VPR); origin mode adds the top margin (xterm.js). */
  move(dx: number, dy: number): void {
    this.restrict();
    const buf = this.#screen.buf;
    this.set(buf.x + dx, buf.y + dy);
  }

  /** CUU: `n` rows up, stopping at the top margin when the cursor is below it. */
  up(n: number): void {
    const buf = this.#screen.buf;
    const d = buf.y - buf.scrollTop;
    this.move(0, -(d >= 0 ? Math.min(d, n) : n));
  }

  /** CUD: `n` rows down, stopping at the bottom margin when the cursor is above it. */
  down(n: number): void {
    const buf = this.#screen.buf;
    const d = buf.scrollBottom - buf.y;
    this.move(0, d >= 0 ? Math.min(d, n) : n);
  }

  /** CR: column 0. */
  carriageReturn(): void {
    this.#screen.buf.x = 0;
  }

  /** HT: to the next tab stop (the last column at most); nothing at a pending wrap. */
  tab(): void {
    const buf = this.#screen.buf;
    if (buf.x < this.#screen.cols) buf.x = buf.nextStop(buf.x);
  }

  /** CHT (`forward`) / CBT: `n` tab stops right or left; nothing at a pending wrap. */
  tabs(n: number, forward: boolean): void {
    const buf = this.#screen.buf;
    const cols = this.#screen.cols;
    if (buf.x >= cols) return;
    for (let k = Math.min(n, cols); k > 0; k--) {
      buf.x = forward ? buf.nextStop(buf.x) : buf.prevStop(buf.x);
    }
  }

  /** HTS: a tab stop at the cursor column. */
  setTabStop(): void {
    const buf = this.#screen.buf;
    buf.setStop(buf.x);
  }

  /** TBC 0 (`all` false) / TBC 3: no tab stop at the cursor column, or none at all. */
  clearTabStops(all: boolean): void {
    const buf = this.#screen.buf;
    if (all) buf.clearStops();
    else buf.clearStop(buf.x);
  }

  /** BS, wrapping back over soft-wrapped rows in reverse-wraparound mode. */
  backspace(): void {
    this.#rep.forget(); // reverse wraparound may change a row's wrap flag
    const buf = this.#screen.buf;
    const cols = this.#screen.cols;
    if (!this.#modes.reverseWraparound) {
      this.restrict();
      if (buf.x > 0) buf.x--;
      return;
    }
    this.restrict(cols);
    if (buf.x > 0) buf.x--;
    else if (buf.y > buf.scrollTop && buf.y <= buf.scrollBottom && buf.lines[buf.y].wrapped) {
      buf.lines[buf.y].wrapped = false;
      buf.y--;
      buf.x = cols - 1;
      const c = buf.lines[buf.y].cells[buf.x];
      if ((c & WIDTH_MASK) && !(c & (CP_MASK | COMBINED))) buf.x--;
    }
    this.restrict();
  }

  /** DECSC: saves the position (the row as an absolute index, like xterm.js) and the charset. */
  save(): void {
    const buf = this.#screen.buf;
    buf.savedX = buf.x;
    buf.savedY = buf.base + buf.y;
    buf.savedCharset = this.#screen.charsets.gl;
  }

  /** DECRC: restores what `save` saved, clamped. */
  restore(): void {
    const buf = this.#screen.buf;
    buf.x = buf.savedX || 0;
    buf.y = Math.max(buf.savedY - buf.base, 0);
    this.#screen.charsets.gl = buf.savedCharset;
    this.restrict();
  }
}
