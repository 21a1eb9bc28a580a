/**
 * The bounded scrollback: a ring of lines that scrolled off the top of the normal screen.
 *
 * @module
 */
import type { Line } from "./line.ts";

/** A ring buffer of at most `capacity` lines, oldest first. */
export class Scrollback {
  /** Maximum number of lines kept. */
  readonly capacity: number;
  #items: Line[] = [];
  #start = 0;
  #length = 0;

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity));
  }

  /** Number of lines held. */
  get length(): number {
    return this.#length;
  }

  /** The `i`-th line, 0 = oldest. */
  get(i: number): Line {
    return this.#items[(this.#start + i) % this.capacity];
  }

  /**
   * Appends `line`. Returns a line object the caller may reuse: the evicted oldest line when
   * full, `line` itself when the capacity is 0, otherwise null.
   */
  push(line: Line): Line | null {
    const cap = this.capacity;
    if (cap === 0) return line;
    if (this.#length < cap) {
      this.#items.push(line);
      this.#length++;
      return null;
    }
    const evicted = this.#items[this.#start];
    this.#items[this.#start] = line;
    this.#start = (this.#start + 1) % cap;
    return evicted;
  }

  /** Removes and returns the newest line (used when the screen grows). */
  pop(): Line | undefined {
    if (this.#length === 0) return undefined;
    const idx = (this.#start + this.#length - 1) % this.capacity;
    const line = this.#items[idx];
    this.#length--;
    if (this.#start === 0 && idx === this.#items.length - 1) this.#items.pop();
    else {
      // Normalise the ring so the newest slot can be refilled by push().
      this.#items = this.#toArray();
      this.#start = 0;
    }
    return line;
  }

  /** Drops every line. */
  clear(): void {
    this.#items = [];
    this.#start = 0;
    this.#length = 0;
  }

  #toArray(): Line[] {
    const out: Line[] = [];
    for (let i = 0; i < this.#length; i++) out.push(this.#items[(this.#start + i) % this.capacity]);
    return out;
  }
}
