/**
 * The bounded scrollback: a ring of lines that scrolled off the top of the normal screen. It is
 * bounded twice: by a number of lines, and by the memory its combining-mark texts take (a line
 * of plain text costs its cells, a line of combined cells several times more), so a flood of
 * combining marks keeps fewer lines instead of more memory.
 *
 * @module
 */
import type { Line } from "./line.ts";

/** Most bytes (estimated by `Line.combinedBytes`) the combined texts of the scrollback hold. */
export const COMBINED_BUDGET_BYTES = 8 * 1024 * 1024;

// Most lines dropped for the budget kept for reuse (a push drops about as many as it adds).
const SPARE_LINES = 4;

/** A ring buffer of at most `capacity` lines, oldest first. */
export class Scrollback {
  /** Maximum number of lines kept. */
  readonly capacity: number;
  /** Most bytes the kept lines' combined texts may hold; the oldest lines go first. */
  readonly combinedBudget: number;
  // Slots of the ring; a slot outside [start, start + length) holds nothing.
  #items: (Line | undefined)[] = [];
  // Lines dropped for the budget, newest last, handed back by push for reuse: the newest is the
  // one written last, so the row a flood fills next is still in the CPU's cache.
  #spare: Line[] = [];
  #bytes: number[] = [];
  #start = 0;
  #length = 0;
  #combined = 0;

  constructor(capacity: number, combinedBudget = COMBINED_BUDGET_BYTES) {
    this.capacity = Math.max(0, Math.floor(capacity));
    this.combinedBudget = combinedBudget;
  }

  /** Number of lines held. */
  get length(): number {
    return this.#length;
  }

  /** Bytes the combined texts of the kept lines hold (estimated). */
  get combinedBytes(): number {
    return this.#combined;
  }

  /** The `i`-th line, 0 = oldest. */
  get(i: number): Line {
    return this.#items[(this.#start + i) % this.capacity]!;
  }

  /**
   * Appends `line` (`bytes`: its `combinedBytes`, when the caller knows it). Returns a line
   * object the caller may reuse (one that left the ring: the evicted oldest, `line` itself when
   * the capacity is 0), or null.
   */
  push(line: Line, bytes?: number): Line | null {
    const cap = this.capacity;
    if (cap === 0) return line;
    bytes ??= line.combinedBytes();
    let free: Line | undefined;
    if (this.#length === cap) {
      free = this.#items[this.#start];
      this.#combined -= this.#bytes[this.#start];
      this.#items[this.#start] = line;
      this.#bytes[this.#start] = bytes;
      this.#start = (this.#start + 1) % cap;
    } else {
      const idx = (this.#start + this.#length) % cap;
      free = this.#spare.pop();
      this.#items[idx] = line;
      this.#bytes[idx] = bytes;
      this.#length++;
    }
    this.#combined += bytes;
    while (this.#combined > this.combinedBudget && this.#length > 1) this.#dropOldest();
    return free ?? null;
  }

  /** Removes and returns the newest line (used when the screen grows). */
  pop(): Line | undefined {
    if (this.#length === 0) return undefined;
    const idx = (this.#start + this.#length - 1) % this.capacity;
    const line = this.#items[idx];
    this.#items[idx] = undefined; // it goes back on screen: never hand it out for reuse
    this.#combined -= this.#bytes[idx];
    this.#length--;
    return line;
  }

  /** Drops every line. */
  clear(): void {
    if (this.#length === 0 && this.#items.length === 0) return;
    this.#items = [];
    this.#spare = [];
    this.#bytes = [];
    this.#start = 0;
    this.#length = 0;
    this.#combined = 0;
  }

  #dropOldest(): void {
    const line = this.#items[this.#start]!;
    line.dropTexts(); // the line is kept for reuse, not its texts
    this.#items[this.#start] = undefined;
    if (this.#spare.length < SPARE_LINES) this.#spare.push(line);
    this.#combined -= this.#bytes[this.#start];
    this.#start = (this.#start + 1) % this.capacity;
    this.#length--;
  }
}
