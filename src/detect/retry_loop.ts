/**
 * The retry-loop rule: an error the agent retries without a bound of its own (`LimitHit.endless`,
 * Gemini CLI 0.61.0's capacity loop: `MODEL_CAPACITY_EXHAUSTED` retried at once, 30 and more times
 * a second, behind its `Thinking...` spinner) ends the run once nothing else has happened for
 * `retryLoopSeconds` since the agent reported it: its screen, but for the row it animates while
 * it waits on its model (`Adapter.waitingRow`), stayed the same. Anything else drawn (a reply, a
 * thought, a tool, a dialog, text typed in its input box) or the waiting row gone means the agent
 * went on: the watch ends and never acts, so an agent that got through, or switched itself, and
 * works is never replaced. The principle: docs/detection.md, "Ambiguous cases". Pure: times are
 * integer microseconds passed in, as in the Detector.
 *
 * @module
 */
import type { LimitHit } from "../../adapters/adapter.ts";
import { microseconds as _us } from "./timed_input.ts";

/**
 * A change beside the waiting row counts once it has lasted this long: a look can fall between
 * the pieces of one redraw (Gemini redraws its spinner every 80 ms, a frame in several writes).
 */
export const RETRY_LOOP_SETTLE_MS = 1_000;

/** What ended a watch, or started one, for the decision log. */
export type RetryLoopNews =
  | { type: "watching"; hit: LimitHit }
  | { type: "went-on"; hit: LimitHit; why: string }
  | { type: "looping"; hit: LimitHit; seconds: number };

/** A watch, as JSON data (part of a detector's saved state). */
export interface RetryLoopWatch {
  hit: LimitHit;
  /** When the agent reported it (µs). */
  sinceUs: number;
  /** The screen without its waiting row, once two looks in a row agreed on it, or null. */
  screen: string | null;
  /** The last look's screen (a candidate until the next look agrees). */
  last: string | null;
  /** Since when (µs) the looks have differed from `screen`, or null while they agree. */
  differsSinceUs: number | null;
}

/** One run's retry-loop rule. */
export class RetryLoop {
  readonly #seconds: number;
  readonly #waitingRow: RegExp | undefined;
  /** The endless error reported and what its screen showed since. */
  #watch: RetryLoopWatch | null = null;

  /**
   * `seconds`: how long nothing else may happen (0: the rule is off); `waitingRow`: the row the
   * agent animates while it waits on its model (none: the rule cannot tell, and is off).
   */
  constructor(seconds: number, waitingRow: RegExp | undefined) {
    this.#seconds = seconds;
    this.#waitingRow = waitingRow;
  }

  /** The watch, as JSON data (a detector's saved state), or null. */
  save(): RetryLoopWatch | null {
    return structuredClone(this.#watch);
  }

  /** Puts back what {@link save} returned. */
  restore(watch: RetryLoopWatch | null): void {
    this.#watch = structuredClone(watch);
  }

  /** An endless retry is being watched. */
  get watching(): boolean {
    return this.#watch !== null;
  }

  /** When the watch is next due (µs): its bound, or the end of a change's settling; or null. */
  get dueUs(): number | null {
    const w = this.#watch;
    if (!w) return null;
    const bound = w.sinceUs + _us(this.#seconds * 1000);
    return w.differsSinceUs === null
      ? bound
      : Math.max(bound, w.differsSinceUs + _us(RETRY_LOOP_SETTLE_MS));
  }

  /**
   * The agent reported `hit` at `t` (µs) with its screen `lines`: an endless retry starts a watch
   * (one already running goes on: the same loop). Returns news for the decision log, or null.
   */
  heard(hit: LimitHit, t: number, lines: readonly string[]): RetryLoopNews | null {
    if (!hit.endless || hit.kind !== "rate" || this.#seconds <= 0 || !this.#waitingRow) {
      return null;
    }
    if (this.#watch) return null;
    this.#watch = {
      hit,
      sinceUs: t,
      screen: null,
      last: this.#waiting(lines),
      differsSinceUs: null,
    };
    return { type: "watching", hit };
  }

  /**
   * The screen `lines` at `t` (µs): anything beside the waiting row that moved and stayed moved
   * {@link RETRY_LOOP_SETTLE_MS} ends the watch.
   */
  looked(t: number, lines: readonly string[]): RetryLoopNews | null {
    const w = this.#watch;
    if (!w) return null;
    const screen = this.#waiting(lines);
    const previous = w.last;
    w.last = screen;
    // The report can come before the agent's spinner is drawn, and a look can see half a frame:
    // the screen two looks in a row agree on, showing the waiting row, is the one to keep.
    if (w.screen === null) {
      if (screen !== null && screen === previous) w.screen = screen;
      return null;
    }
    if (screen === w.screen) {
      w.differsSinceUs = null;
      return null;
    }
    w.differsSinceUs ??= t;
    if (t - w.differsSinceUs < _us(RETRY_LOOP_SETTLE_MS)) return null;
    this.#watch = null;
    return {
      type: "went-on",
      hit: w.hit,
      why: screen === null
        ? "the agent stopped waiting on its model (its waiting row is gone)"
        : "the agent drew something beside its waiting row: it went on",
    };
  }

  /** At `t` (µs), with the screen `lines`: the loop, once due and nothing else happened. */
  due(t: number, lines: readonly string[]): RetryLoopNews | null {
    const due = this.dueUs;
    if (due === null || t < due) return null;
    const gone = this.looked(t, lines);
    if (gone) return gone;
    const w = this.#watch!;
    // A change still settling: looked at again when it has (dueUs moved past t).
    if (w.differsSinceUs !== null) return null;
    this.#watch = null;
    if (w.screen === null) {
      return {
        type: "went-on",
        hit: w.hit,
        why: "its screen never showed it waiting on its model",
      };
    }
    return { type: "looping", hit: w.hit, seconds: this.#seconds };
  }

  /** No more looks: the watch ends. */
  cancel(): void {
    this.#watch = null;
  }

  // The screen's rows but the waiting row, or null when the screen does not show that row.
  #waiting(lines: readonly string[]): string | null {
    const row = this.#waitingRow!;
    return lines.some((l) => row.test(l)) ? lines.filter((l) => !row.test(l)).join("\n") : null;
  }
}
