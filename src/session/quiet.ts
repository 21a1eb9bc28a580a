/**
 * When has the agent's screen gone quiet? Quiet means no output for `quietMs` and not inside an
 * unfinished synchronized update (`CSI ? 2026 h` without its `l`). A sync start that never ends
 * stops counting after `syncCutoffMs` without output, so a crashed frame cannot block forever.
 *
 * {@linkcode QuietDetector} is pure (time is passed in); {@linkcode QuietTimer} wraps it with a
 * timer for the session.
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

/**
 * A {@linkcode QuietDetector} on the real clock: call `output()` as bytes arrive and await
 * `whenQuiet()`.
 */
export class QuietTimer {
  readonly detector: QuietDetector;
  #now: () => number;
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: QuietOptions = {}, now: () => number = performance.now.bind(performance)) {
    this.#now = now;
    this.detector = new QuietDetector(now(), opts);
  }

  /** Records output now. */
  output(inSyncUpdate: boolean): void {
    this.detector.output(this.#now(), inSyncUpdate);
  }

  /** Resolves once the screen is quiet (at once when it already is). */
  whenQuiet(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#arm();
    });
  }

  /** Drops the timer; pending `whenQuiet()` promises stay pending. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiters = [];
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    const wait = this.detector.msUntilQuiet(this.#now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#waiters.length === 0) return;
      if (!this.detector.isQuiet(this.#now())) return this.#arm();
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const w of waiters) w();
    }, wait);
  }
}
