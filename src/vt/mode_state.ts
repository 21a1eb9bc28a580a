/**
 * The one owner of a terminal's modes: changes them, tells listeners of each change (once, only
 * when the value really changes), keeps the kitty keyboard flag stack bounded, and puts them back
 * to their defaults for RIS. The screen reads the same `Modes` object (insert, wraparound,
 * origin, reverse-wraparound), so it is changed in place, never replaced.
 *
 * @module
 */
import { copyModes, defaultModes, type ModeChange, type ModeName, type Modes } from "./modes.ts";

/** Most entries the kitty keyboard flag stack keeps; a push beyond drops the oldest. */
export const KITTY_STACK_LIMIT = 64;

const _DEFAULTS = defaultModes() as unknown as Readonly<Record<string, unknown>>;
const _NAMES = Object.keys(_DEFAULTS) as ModeName[];

/** Modes and their listeners. */
export class ModeState {
  /** The modes, changed in place (read them; change them through the methods). */
  readonly current: Modes = defaultModes();
  #listeners: ((c: ModeChange) => void)[] = [];
  // A mode may differ from its default (a reset then compares them all, else has nothing to do).
  #changed = false;

  /** A copy of the modes, sharing nothing. */
  copy(): Modes {
    return copyModes(this.current);
  }

  /** Calls `cb` whenever a mode changes value; returns the unsubscribe function. */
  listen(cb: (change: ModeChange) => void): () => void {
    this.#listeners.push(cb);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== cb);
    };
  }

  /** Puts back saved modes, telling nobody (a saved terminal restored, terminal_state.ts). */
  restore(modes: Readonly<Modes>): void {
    Object.assign(this.current, copyModes(modes));
    this.#changed = true;
  }

  /** Sets `mode` to `value`; listeners hear of it when it changed. */
  set<K extends ModeName>(mode: K, value: Modes[K]): void {
    if (this.current[mode] === value) return;
    this.current[mode] = value;
    this.#changed = true;
    for (const l of this.#listeners) l({ mode, value });
  }

  /** Kitty `CSI > flags u`: pushes `flags` (the oldest entry goes past the limit). */
  pushKittyFlags(flags: number): void {
    const stack = this.current.kittyKeyboardFlags;
    stack.push(flags);
    if (stack.length > KITTY_STACK_LIMIT) stack.shift();
    this.#kittyChanged();
  }

  /** Kitty `CSI < n u`: pops `n` entries (all when fewer); nothing when the stack is empty. */
  popKittyFlags(n: number): void {
    const stack = this.current.kittyKeyboardFlags;
    if (stack.length === 0) return;
    stack.splice(Math.max(0, stack.length - n));
    this.#kittyChanged();
  }

  /**
   * Kitty `CSI = flags ; how u`: the top entry becomes `flags` (how 1), gets them set (2) or
   * cleared (3); an empty stack gets one entry.
   */
  setKittyFlags(flags: number, how: number): void {
    const stack = this.current.kittyKeyboardFlags;
    const top = stack.length ? stack[stack.length - 1] : 0;
    const value = how === 1 ? flags : how === 2 ? top | flags : how === 3 ? top & ~flags : top;
    if (stack.length) stack[stack.length - 1] = value;
    else stack.push(value);
    this.#kittyChanged();
  }

  #kittyChanged(): void {
    this.#changed = true;
    const value = [...this.current.kittyKeyboardFlags];
    for (const l of this.#listeners) l({ mode: "kittyKeyboardFlags", value });
  }

  /**
   * Every mode back to its default (RIS) but `cursorHidden`, which xterm.js keeps; listeners
   * hear of each change after all are done. Costs nothing when no mode changed since the last.
   */
  reset(): void {
    if (!this.#changed) return;
    this.#changed = false;
    const modes = this.current as unknown as Record<string, unknown>;
    let changed: ModeName[] | null = null;
    for (const k of _NAMES) {
      if (k === "cursorHidden") continue;
      if (k === "kittyKeyboardFlags") {
        // the stack is compared by length
        if (this.current.kittyKeyboardFlags.length === 0) continue;
        this.current.kittyKeyboardFlags = [];
      } else if (modes[k] !== _DEFAULTS[k]) modes[k] = _DEFAULTS[k];
      else continue;
      (changed ??= []).push(k);
    }
    for (const k of changed ?? []) {
      if (k === "kittyKeyboardFlags") this.#kittyChanged();
      else for (const l of this.#listeners) l({ mode: k, value: this.current[k] });
    }
  }
}
