/**
 * A decision record (src/detect/decision.ts) as one line of text, for `uuldana show --decisions`
 * and `uuldana debug detect --decisions`.
 *
 * @module
 */
import type { Decision } from "../detect/decision.ts";
// Recorded text is shown, never interpreted: no escape sequence from it reaches the terminal.
import { sanitize } from "../handoff/sanitize.ts";

/** One decision as a line (sanitised): time, offset, verdict, the limit or event, and why. */
export function describeDecision(d: Decision): string {
  const time = `${(d.atMs / 1000).toFixed(3).padStart(9)} s ${String(d.offset).padStart(9)} B`;
  const what = d.event
    ? `${d.event.type}${"message" in d.event ? `: ${d.event.message}` : ""}`
    : d.hit
    ? `${d.hit.kind}: ${d.hit.message}${d.hit.resetsAt ? ` (resets ${d.hit.resetsAt})` : ""}`
    : d.warning
    ? `near its limit: ${d.warning.message}${
      d.warning.resetsAt ? ` (resets ${d.warning.resetsAt})` : ""
    }`
    : "";
  const why = d.why
    ? ` — ${d.why}`
    : d.retryInMs !== undefined
    ? ` — confirming within ${d.retryInMs} ms`
    : "";
  return sanitize(`${time}  ${d.source} ${d.verdict.padEnd(8)} ${what}${why}`);
}
