/**
 * Durations on the command line: `90s`, `10m`, `1h30m`, `500ms`, or a bare number of seconds.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

const _UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a duration into milliseconds; throws UsageError naming `option` when invalid. */
export function parseDuration(text: string, option: string): number {
  const t = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(t)) return _positive(Number(t) * 1000, text, option);
  if (!/^(?:\d+(?:\.\d+)?(?:ms|h|m|s))+$/.test(t)) {
    throw new UsageError(
      `${option}: "${text}" is not a duration`,
      "use e.g. 90s, 10m, 1h30m or 500ms (a bare number means seconds)",
    );
  }
  let ms = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) ms += Number(m[1]) * _UNIT_MS[m[2]];
  return _positive(ms, text, option);
}

function _positive(ms: number, text: string, option: string): number {
  if (!(ms > 0) || !Number.isFinite(ms)) {
    throw new UsageError(`${option}: "${text}" must be longer than zero`);
  }
  return Math.round(ms);
}

/** A short human rendering of milliseconds: `90s`, `10m`, `1h5m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return [h ? `${h}h` : "", m ? `${m}m` : "", s || (!h && !m) ? `${s}s` : ""].join("");
}
