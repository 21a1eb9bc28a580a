/**
 * Reset instants given as epoch numbers (Claude's `rate_limit_event.resetsAt`).
 *
 * @module
 */

/** An ISO-8601 instant from epoch seconds (or milliseconds, when that large), else null. */
export function isoFromEpoch(value: unknown): string | null {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) return null;
  const d = new Date(n > 1e12 ? n : n * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
