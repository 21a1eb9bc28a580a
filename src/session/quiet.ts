/**
 * When has the agent's screen gone quiet? Quiet means no output for `quietMs` and not inside an
 * unfinished synchronized update (`CSI ? 2026 h` without its `l`). A sync start that never ends
 * stops counting after `syncCutoffMs` without output, so a crashed frame cannot block forever.
 *
 * {@linkcode QuietDetector} is pure: time is passed in.
 *
 * @module
 */

/** Options for {@linkcode QuietDetector}. */
export interface QuietOptions {
  /** Silence needed to call the screen quiet (ms, default 1500). */
  quietMs?: number;
  /** Silence after which an unfinished sync update no longer counts (ms, default 5000). */
  syncCutoffMs?: number;
}

/** Pure quiet tracking; every method takes the current time in ms. */
export class QuietDetector {
  /** Silence needed to call the screen quiet, ms. */
  readonly quietMs: number;
  /** Silence after which an unfinished sync update is ignored, ms. */
  readonly syncCutoffMs: number;
  #lastOutput: number;
  #inSync = false;

  /** `start` is when watching began; it counts as the last output until there is some. */
  constructor(start: number, opts: QuietOptions = {}) {
    this.quietMs = opts.quietMs ?? 1500;
    this.syncCutoffMs = Math.max(opts.syncCutoffMs ?? 5000, this.quietMs);
    this.#lastOutput = start;
  }

  /** Records output at `now`; `inSyncUpdate` is the terminal's ?2026 state after it. */
  output(now: number, inSyncUpdate: boolean): void {
    this.#lastOutput = Math.max(this.#lastOutput, now);
    this.#inSync = inSyncUpdate;
  }

  /** True when the screen is quiet at `now`. */
  isQuiet(now: number): boolean {
    return this.msUntilQuiet(now) === 0;
  }

  /** How long from `now` until the screen is quiet if no more output comes (0 when quiet). */
  msUntilQuiet(now: number): number {
    const need = this.#inSync ? this.syncCutoffMs : this.quietMs;
    return Math.max(0, this.#lastOutput + need - now);
  }
}
