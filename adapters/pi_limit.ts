/**
 * What pi's error text means (its `errorMessage`, or an `Error: …` row without `Error: `): the
 * provider's error as the provider sent it, a usage or a rate limit, or null for any other error.
 * Shared by pi's screen detector and its channel. Pure.
 *
 * @module
 */
import type { DetectOptions, LimitHit } from "./adapter.ts";
import { limitRules } from "./limit_data.ts";
import { limitHit, matchRule } from "./screen_text.ts";

// Once pi's own retries are spent: `Retry failed after 3 attempts: 429 …`.
const _GAVE_UP = /^Retry failed after (\d+) attempts?: (.*)$/;
// The reset a raw provider error carries (OpenAI's `usage_limit_reached` body).
const _RESETS_AT = /"resets_at"\s*:\s*(\d{9,11})\b/;
const _RESETS_IN = /"resets_in_seconds"\s*:\s*(\d+)\b/;

/**
 * The limit pi's error `text` shows, or null. `Retry failed after N attempts: …` is final; a
 * retry's attempt and wait (from its countdown) apply only before that.
 */
export function piErrorHit(
  text: string,
  opts: Pick<DetectOptions, "now" | "timeZone">,
  retry: { attempt?: number; waitSeconds?: number } = {},
): LimitHit | null {
  const gaveUp = _GAVE_UP.exec(text);
  const message = gaveUp ? gaveUp[2] : text;
  const rule = matchRule(message, limitRules("pi", "error"));
  if (!rule) return null;
  const hit = limitHit(rule.kind, text, opts, gaveUp ? { final: true } : retry);
  if (hit.resetsAt === null) {
    const at = _RESETS_AT.exec(message);
    const within = _RESETS_IN.exec(message);
    if (at) hit.resetsAt = new Date(Number(at[1]) * 1000).toISOString();
    else if (within) {
      hit.resetsAt = new Date(opts.now.getTime() + Number(within[1]) * 1000).toISOString();
    }
  }
  return hit;
}
