/**
 * When a detected limit is worth a handoff. Pure.
 *
 * @module
 */
import type { LimitHit } from "./adapter.ts";

/** When a transient rate limit counts as persistent. */
export interface HandOffPolicy {
  /** Hand off once the agent shows this retry attempt number (or a later one). */
  minAttempt: number;
  /** Hand off once the agent says it will wait this many seconds (or longer) before retrying. */
  minWaitSeconds: number;
}

/** The default policy: attempt ≥ 3 or a wait ≥ 5 minutes. */
export const DEFAULT_HANDOFF_POLICY: Readonly<HandOffPolicy> = Object.freeze({
  minAttempt: 3,
  minWaitSeconds: 300,
});

/**
 * True when `hit` should end the run and hand off: always for `usage`; for `rate` only when the agent
 * gave up (`final`), or the attempt or the wait reached the policy's threshold.
 */
export function shouldHandOff(
  hit: LimitHit,
  policy: HandOffPolicy = DEFAULT_HANDOFF_POLICY,
): boolean {
  if (hit.kind === "usage") return true;
  if (hit.final) return true;
  if (hit.attempt !== undefined && hit.attempt >= policy.minAttempt) return true;
  if (hit.waitSeconds !== undefined && hit.waitSeconds >= policy.minWaitSeconds) return true;
  return false;
}
