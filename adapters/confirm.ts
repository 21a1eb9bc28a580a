/**
 * Acting on a limit only once the agent has finished showing it: the same hit (kind, message,
 * reset time) seen on two looks at least `settleMs` apart; a retry footer's countdown and attempt
 * may change meanwhile (the latest is acted on). A message split across writes
 * ("… resets 3:" then "01am (UTC)") changes between looks, so it is decided on when complete. Pure.
 *
 * @module
 */
import type { LimitHit } from "./adapter.ts";

/** How long a hit must stay unchanged on screen before it is acted on, by default. */
export const LIMIT_SETTLE_MS = 500;

/** What to do about the limit seen on this look. */
export type LimitVerdict =
  | { action: "none" }
  | { action: "wait"; retryInMs: number }
  | { action: "act"; hit: LimitHit };

/** Tracks the latest sighting of a limit across looks at the screen. */
export class LimitConfirmation {
  readonly settleMs: number;
  #seen: { key: string; at: number; hit: LimitHit } | null = null;

  constructor(settleMs: number = LIMIT_SETTLE_MS) {
    this.settleMs = settleMs;
  }

  /** The hit seen on the last look, not yet confirmed, or null. */
  get pending(): LimitHit | null {
    return this.#seen?.hit ?? null;
  }

  /** Records the hit seen at `nowMs` (null: none) and says whether to act on it. */
  observe(hit: LimitHit | null, nowMs: number): LimitVerdict {
    if (!hit) {
      this.#seen = null;
      return { action: "none" };
    }
    const key = _key(hit);
    if (this.#seen?.key !== key) {
      this.#seen = { key, at: nowMs, hit };
      return { action: "wait", retryInMs: this.settleMs };
    }
    this.#seen.hit = hit;
    const waited = nowMs - this.#seen.at;
    if (waited >= this.settleMs) return { action: "act", hit };
    return { action: "wait", retryInMs: this.settleMs - waited };
  }
}

// What must not change: a retry footer's countdown and attempt ("retrying in 13s attempt #2") may.
function _key(hit: LimitHit): string {
  const message = hit.message.replace(/\[retrying[^\]]*\]/, "[retrying]");
  return JSON.stringify([hit.kind, message, hit.resetsAt, !!hit.final]);
}
