/**
 * Reset times as agents print them ("resets 3:01am (UTC)", "try again at 3:02 AM",
 * "Access resets at 3:06 AM UTC", "Dec 2nd, 2026 7:52 PM", "try again in 5 days 22 hours",
 * "reset after 1h2m3s", "Try again in ~142 min.", "resets in 12m") resolved to an instant against
 * a clock. A retry's countdown ("retrying in 13s") is not a reset. Pure.
 *
 * @module
 */

const _MONTHS = [
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
];

// Common abbreviations agents print; anything else is taken as the local zone (the agent formats
// in the machine's zone, which is ours).
const _ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
};

/** A zone: a fixed offset in minutes east of UTC, or an IANA name; `unknown` names a shown zone
 * this system does not know (the local zone stands in for it). */
type _Zone = ({ offset: number } | { iana: string }) & { unknown?: string };

/** A reset time found in a message, and how its zone was read. */
export interface ResetTime {
  /** ISO-8601 (UTC), or null when the text shows none. */
  at: string | null;
  /**
   * Set when the text names a zone this system does not know (`Europe/Barcelona` was reported
   * from Claude): the time was read in the local zone instead, and this says so.
   */
  zoneNote?: string;
}

const _TIME = String.raw`(\d{1,2})(?::(\d{2}))?\s?([AaPp])\.?[Mm]\.?`;
const _DATE = String
  .raw`([A-Z][a-z]{2,8})\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?:,|\s+at)?\s+`;
const _ZONE = String
  .raw`(?:\s*\(([^)\n]{1,40})\)|\s+((?:UTC|GMT)(?:[+-]\d{1,2}(?::?\d{2})?)?|[A-Z]{2,5}(?![a-z])))?`;
const _ABSOLUTE = new RegExp(
  String
    .raw`\b(?:resets?(?:\s+(?:at|on))?|try again (?:at|after|on)|reset at)\s+(?:${_DATE})?${_TIME}${_ZONE}`,
  "i",
);
const _UNIT = String
  .raw`\d+(?:\.\d+)?\s*(?:days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])`;
const _RELATIVE = new RegExp(
  String
    .raw`\b(?:resets?|reset|try again|retry|Please retry|will reset)\s+(?:in|after)\s+(?:~\s?|about\s+|approximately\s+|around\s+)?((?:${_UNIT}(?:,?\s*(?:and\s+)?)?)+)`,
  "i",
);
// "will reset at 2026-12-02T00:52:26.000Z" (a provider's quota error, as Qwen Code shows it).
const _ISO =
  /\breset(?:s)?\s+(?:at\s+)?(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d))/i;
const _EPOCH = /usage limit reached\|(\d{9,11})\b/;

/**
 * Finds a reset time in `text` and resolves it against `now`. A time of day earlier than now means
 * tomorrow; a month and day earlier than today mean next year. `localZone` (IANA) is used when the
 * text names no zone; default: this process's zone. Returns ISO-8601 (UTC) or null.
 */
export function parseResetTime(text: string, now: Date, localZone?: string): string | null {
  return readResetTime(text, now, localZone).at;
}

/**
 * Like {@linkcode parseResetTime}, and says when the shown zone is unknown on the user's machine and the local zone
 * was used in its place.
 */
export function readResetTime(text: string, now: Date, localZone?: string): ResetTime {
  const epoch = _EPOCH.exec(text);
  if (epoch) return { at: new Date(Number(epoch[1]) * 1000).toISOString() };
  const iso = _ISO.exec(text);
  if (iso && !Number.isNaN(Date.parse(iso[1]))) return { at: new Date(iso[1]).toISOString() };
  const abs = _ABSOLUTE.exec(text);
  if (abs) {
    const resolved = _resolveAbsolute(abs, now, localZone);
    if (resolved) return resolved;
  }
  const rel = _RELATIVE.exec(text);
  if (rel) {
    const seconds = parseDuration(rel[1]);
    if (seconds !== null) return { at: new Date(now.getTime() + seconds * 1000).toISOString() };
  }
  return { at: null };
}

/** Seconds in a duration like "5 days 22 hours 11 minutes", "13s", "1h2m3.5s"; null if none. */
export function parseDuration(text: string): number | null {
  const re =
    /(\d+(?:\.\d+)?)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])/gi;
  let total = 0;
  let any = false;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2].toLowerCase();
    const factor = unit.startsWith("d")
      ? 86400
      : unit.startsWith("h")
      ? 3600
      : unit.startsWith("m")
      ? 60
      : 1;
    total += n * factor;
    any = true;
  }
  // Compact forms ("1h2m3s") have no word boundary between parts.
  if (!any) {
    const compact = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(text.trim());
    if (compact && compact[0]) {
      total = Number(compact[1] ?? 0) * 3600 + Number(compact[2] ?? 0) * 60 +
        Number(compact[3] ?? 0);
      any = true;
    }
  }
  return any ? Math.round(total) : null;
}

function _resolveAbsolute(
  m: RegExpExecArray,
  now: Date,
  localZone: string | undefined,
): ResetTime | null {
  const [, monthName, dayText, yearText, hourText, minuteText, ampm, parenZone, bareZone] = m;
  let hour = Number(hourText);
  const minute = Number(minuteText ?? 0);
  if (hour < 1 || hour > 12 || minute > 59) return null;
  if (hour === 12) hour = 0;
  if (ampm.toLowerCase() === "p") hour += 12;
  const zone = _zone(parenZone ?? bareZone, localZone);
  const note = zone.unknown !== undefined
    ? {
      zoneNote:
        `the zone "${zone.unknown}" is unknown on your machine; the reset time was read in the ` +
        `local zone (${"iana" in zone ? zone.iana : "UTC"})`,
    }
    : {};
  const today = _calendarIn(now, zone);
  if (monthName) {
    const month = _MONTHS.indexOf(monthName.slice(0, 3).toLowerCase());
    if (month < 0) return null;
    const day = Number(dayText);
    let year = yearText ? Number(yearText) : today.year;
    let at = _zonedToUtc(year, month, day, hour, minute, zone);
    // No year shown and the date already passed (by more than a day): it means next year.
    if (!yearText && at < now.getTime() - 86_400_000) {
      year += 1;
      at = _zonedToUtc(year, month, day, hour, minute, zone);
    }
    return { at: new Date(at).toISOString(), ...note };
  }
  let at = _zonedToUtc(today.year, today.month, today.day, hour, minute, zone);
  if (at < now.getTime()) {
    at = _zonedToUtc(today.year, today.month, today.day + 1, hour, minute, zone);
  }
  return { at: new Date(at).toISOString(), ...note };
}

function _zone(name: string | undefined, localZone: string | undefined): _Zone {
  const local: _Zone = { iana: localZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone };
  if (!name) return local;
  const n = name.trim();
  const fixed = /^(?:UTC|GMT)([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(n);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3] ?? 0);
    return { offset: fixed[1] === "-" ? -minutes : minutes };
  }
  const upper = n.toUpperCase();
  if (upper in _ABBREVIATIONS) return { offset: _ABBREVIATIONS[upper] };
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: n });
    return { iana: n };
  } catch {
    return { ...local, unknown: n };
  }
}

function _offsetAt(ms: number, zone: _Zone): number {
  if ("offset" in zone) return zone.offset;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone.iana,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

function _calendarIn(now: Date, zone: _Zone): { year: number; month: number; day: number } {
  const shifted = new Date(now.getTime() + _offsetAt(now.getTime(), zone) * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth(),
    day: shifted.getUTCDate(),
  };
}

// Wall-clock time in `zone` → epoch ms; two passes settle DST transitions.
function _zonedToUtc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: _Zone,
): number {
  const wall = Date.UTC(year, month, day, hour, minute);
  let guess = wall - _offsetAt(wall, zone) * 60_000;
  guess = wall - _offsetAt(guess, zone) * 60_000;
  return guess;
}
