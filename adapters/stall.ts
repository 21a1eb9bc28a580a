/**
 * The stall rule's screen side: how long an agent that retries silently has been busy. The session
 * owns the timer and the (configurable, off by default) threshold. Pure.
 *
 * @module
 */
import type { Adapter } from "./adapter.ts";
import { parseDuration } from "./reset_time.ts";

/** The spinner line Gemini CLI and Qwen Code show while a turn runs: `(esc to cancel, 26s)`. */
export const ESC_TO_CANCEL_SPINNER: RegExp = /\(esc to cancel, ((?:\d+h\s*)?(?:\d+m\s*)?\d+s)\)/;

/**
 * Seconds the agent shows it has been busy (from its `busyPattern`), 0 when busy without a shown
 * time, or null when the screen shows no busy line (or the adapter has no pattern).
 */
export function busySeconds(adapter: Adapter, lines: readonly string[]): number | null {
  const re = adapter.busyPattern;
  if (!re) return null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = re.exec(lines[i]);
    if (!m) continue;
    return m[1] ? parseDuration(m[1]) ?? 0 : 0;
  }
  return null;
}
