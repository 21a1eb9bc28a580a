/**
 * When a detected limit is worth a handoff. Pure.
 *
 * The principle (docs/detection.md, "Ambiguous cases"): the work must not stand still, and an agent
 * that is still working is never replaced. A rate limit the agent retries is transient while the
 * agent's own stated wait is short; a stated wait of many minutes or hours is the work standing
 * still. The attempt count decides only where the agent states no wait, and a long run of retries
 * (`maxAttempt`) is the work standing still even with short waits.
 *
 * @module
 */
import type { LimitHit } from "./adapter.ts";

/** When a transient rate limit counts as persistent. */
export interface HandOffPolicy {
  /** Hand off once the agent shows this retry attempt number (or a later) and states no wait. */
  minAttempt: number;
  /** Hand off once the agent says it will wait this many seconds (or longer) before retrying. */
  minWaitSeconds: number;
  /** Hand off at this retry attempt (or a later) whatever wait the agent states. */
  maxAttempt: number;
}

/**
 * The default policy: a stated wait of 5 minutes or more; attempt 3 where no wait is stated;
 * attempt 10 whatever the wait (OpenCode's backoff, 2 to 30 s, has then retried for 3 minutes).
 */
export const DEFAULT_HANDOFF_POLICY: Readonly<HandOffPolicy> = Object.freeze({
  minAttempt: 3,
  minWaitSeconds: 300,
  maxAttempt: 10,
});

/**
 * The retry-loop rule's default (src/detect/retry_loop.ts): an error the agent retries without end
 * (Gemini CLI 0.61.0's capacity loop) hands off once nothing else happened for this many seconds.
 * Gemini itself, with its errors shown in full, gives up on capacity after 2 silent retries (about
 * 4 s) and asks the user; a minute is well past that and past a capacity blip, and it is far
 * below the 10-20 minutes users report it looping (google-gemini/gemini-cli#26862).
 */
export const DEFAULT_RETRY_LOOP_SECONDS = 60;

/**
 * True when `hit` should end the run and hand off: always for `usage`; for `rate` only when the agent
 * gave up (`final`), its stated wait reached the policy's threshold, it retried `maxAttempt` times,
 * or (no wait stated) the attempt reached `minAttempt`.
 */
export function shouldHandOff(
  hit: LimitHit,
  policy: HandOffPolicy = DEFAULT_HANDOFF_POLICY,
): boolean {
  if (hit.kind === "usage") return true;
  if (hit.final) return true;
  if (hit.attempt !== undefined && hit.attempt >= policy.maxAttempt) return true;
  if (hit.waitSeconds !== undefined) return hit.waitSeconds >= policy.minWaitSeconds;
  return hit.attempt !== undefined && hit.attempt >= policy.minAttempt;
}
