/**
 * Acting on a limit only once the agent has finished showing it. A hit counts when the agent has
 * stopped writing for `quietMs` (the screen it was read from is complete), or when the same hit
 * (kind, message, reset time) stayed on screen for `settleMs` while the agent kept drawing (a
 * spinner, a retry countdown). A hit whose reset clause did not parse ("… resets 3:" — the rest of
 * a message split across writes may still come) waits for `settleMs` either way. Pure.
 *
 * @module
 */
import type { LimitHit } from "../../adapters/adapter.ts";

/** Silence after which the screen a hit was read from counts as complete, by default. */
export const LIMIT_QUIET_MS = 40;
/** How long a hit must stay unchanged while the agent keeps writing, by default. */
export const LIMIT_SETTLE_MS = 500;

/** What to do about the limit seen on this look. */
export type LimitVerdict =
  | { action: "none" }
  | { action: "wait"; retryInMs: number }
  | { action: "act"; hit: LimitHit };

// A reset clause the message shows but whose time did not parse: it may be cut short.
const _RESET_CLAUSE = /\b(?:resets?|try again|retry after|reset after|reset in)\b/i;

/** True when `hit` names a reset but no time could be read from it (it may be incomplete). */
export function resetLooksCut(hit: LimitHit): boolean {
  return hit.resetsAt === null && _RESET_CLAUSE.test(hit.message);
}

/** Tracks the latest sighting of a limit across looks at the screen. */
export class LimitConfirmation {
  readonly quietMs: number;
  readonly settleMs: number;
  #seen: { key: string; at: number; hit: LimitHit } | null = null;

  constructor(opts: { quietMs?: number; settleMs?: number } = {}) {
    this.quietMs = opts.quietMs ?? LIMIT_QUIET_MS;
    this.settleMs = opts.settleMs ?? LIMIT_SETTLE_MS;
  }

  /** The sighting held, as JSON data (a detector's saved state, detector_state.ts). */
  save(): { key: string; at: number; hit: LimitHit } | null {
    return structuredClone(this.#seen);
  }

  /** Puts back what {@link save} returned. */
  restore(seen: { key: string; at: number; hit: LimitHit } | null): void {
    this.#seen = structuredClone(seen);
  }

  /** The hit seen on the last look, not yet acted on, or null. */
  get pending(): LimitHit | null {
    return this.#seen?.hit ?? null;
  }

  /**
   * Records the hit seen at `nowMs` (null: none) on a screen the agent has not written to for
   * `quietForMs`, and says whether to act on it.
   */
  observe(hit: LimitHit | null, nowMs: number, quietForMs: number): LimitVerdict {
    if (!hit) {
      this.#seen = null;
      return { action: "none" };
    }
    const key = limitKey(hit);
    if (this.#seen?.key !== key) this.#seen = { key, at: nowMs, hit };
    else this.#seen.hit = hit;
    const cut = resetLooksCut(hit);
    if (!cut && quietForMs >= this.quietMs) return { action: "act", hit };
    const settled = nowMs - this.#seen.at;
    if (settled >= this.settleMs) return { action: "act", hit };
    const untilSettled = this.settleMs - settled;
    return {
      action: "wait",
      retryInMs: cut ? untilSettled : Math.min(untilSettled, this.quietMs - quietForMs),
    };
  }
}

/**
 * What must not change for two sightings to be the same limit: a retry footer's countdown and
 * attempt ("retrying in 13s attempt #2") may.
 */
export function limitKey(hit: LimitHit): string {
  const message = hit.message.replace(/\[retrying[^\]]*\]/, "[retrying]");
  return JSON.stringify([hit.kind, message, hit.resetsAt, !!hit.final]);
}
