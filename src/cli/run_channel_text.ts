/**
 * What `uuldana show` says about a run's channel: on, silent or off and why, and what it dropped
 * or refused. The lines said once on the status line (after the run) are kept here for later.
 * Pure.
 *
 * @module
 */
import type { RunChannelRecord } from "../journal/records.ts";

/** One line for a run's channel: `silent (why); 0 records`, `on; 12 records, 1 dropped (…)`. */
export function describeRunChannel(rec: RunChannelRecord): string {
  const parts = [`${rec.records} record${rec.records === 1 ? "" : "s"}`];
  const dropped = _counts(rec.dropped);
  if (dropped) parts.push(`dropped ${dropped}`);
  if (rec.ignored) parts.push(`${rec.ignored} ignored`);
  if (rec.differs) parts.push(`${rec.differs} other than typed (the typed kept)`);
  const t = rec.telemetry;
  if (t) {
    const kept = t.records !== undefined ? `, ${t.records} records` : "";
    const lost = _counts(t.dropped ?? {});
    parts.push(
      `telemetry ${t.state}${t.why ? ` (${t.why})` : ""}${kept}${lost ? `, dropped ${lost}` : ""}`,
    );
  }
  return `${rec.state}${rec.why ? ` (${rec.why})` : ""}; ${parts.join(", ")}`;
}

function _counts(counts: Partial<Record<string, number>>): string {
  return Object.entries(counts).filter(([, n]) => n).map(([why, n]) => `${n} ${why}`).join(", ");
}
