/**
 * The limit ledger's decisions: what a limit seen now means for when its agent may run again, and
 * how that is said. Pure: the journal stores the entries (`limits` table), the chain decides here.
 *
 * A limit belongs to the account, not to the run: every uuldana on this machine reads the same
 * ledger. A reset time is a hint. An agent that shows its limit again right after its reset, with no
 * new time ahead, is backed off (5 min, doubling, at most 2 h) instead of being restarted in a loop.
 *
 * A usage warning the agent showed ("You've used 90% of your 5-hour limit · resets 3pm") is kept
 * too, as *near its limit* (`near`): it never makes the agent limited, and it lasts until the
 * reset it states (or, with none, {@link NEAR_HOLD_MS}); a later real limit replaces it, and it
 * never replaces a real limit that still holds.
 *
 * @module
 */

/** What kind of limit was seen (a stall is kept for the run only, never in the ledger). */
export type LimitKind = "usage" | "rate" | "stall";

/** One limit as the ledger keeps it. */
export interface LimitEntry {
  agent: string;
  kind: LimitKind;
  /** The limit message as shown. */
  message: string;
  /** When it was seen (ISO-8601). */
  seenAt: string;
  /** When the agent may run again (ISO-8601), or null when no reset time is known. */
  until: string | null;
  /** The run that saw it, when one did. */
  runId: number | null;
  /** How many times in a row it came back right after its reset (0: the first time). */
  strikes: number;
  /**
   * A usage warning, not a limit: the agent is near its limit (never limited by it); `until` is
   * the reset the warning states. Absent on a real limit.
   */
  near?: true;
}

const _MINUTE = 60_000;
const _DAY = 24 * 60 * _MINUTE;

/** How long an agent counts as limited when no reset time is known, by kind. */
export const HOLD_MS: Readonly<Record<LimitKind, number>> = {
  usage: 60 * _MINUTE,
  rate: 5 * _MINUTE,
  stall: 15 * _MINUTE,
};
/** How long a warning that states no reset counts as *near its limit*. */
export const NEAR_HOLD_MS = 60 * _MINUTE;
/** A limit seen this soon after the agent became available again counts as "right after its reset". */
export const AGAIN_WINDOW_MS = 15 * _MINUTE;
/** The first back-off after a stale reset; it doubles with each strike, up to the maximum. */
export const BACKOFF_FIRST_MS = 5 * _MINUTE;
/** The longest back-off. */
export const BACKOFF_MAX_MS = 120 * _MINUTE;

/**
 * When the agent of `entry` may run again: its reset time, else the hold for its kind. For a
 * warning (`near`): when it stops counting (its reset, else {@link NEAR_HOLD_MS}).
 */
export function availableAt(entry: LimitEntry): Date {
  if (entry.until !== null) return new Date(entry.until);
  return new Date(Date.parse(entry.seenAt) + (entry.near ? NEAR_HOLD_MS : HOLD_MS[entry.kind]));
}

/** Whether `entry` (an agent's latest) still holds at `now`. A warning never does. */
export function isLimited(entry: LimitEntry | null | undefined, now: Date): boolean {
  return !!entry && !entry.near && availableAt(entry).getTime() > now.getTime();
}

/** Whether `entry` (an agent's latest) is a warning that still counts at `now`: near its limit. */
export function isNear(entry: LimitEntry | null | undefined, now: Date): boolean {
  return !!entry?.near && availableAt(entry).getTime() > now.getTime();
}

/**
 * What a usage warning seen now is recorded as, given the agent's previous entry: *near its
 * limit* until the reset it states (a reset not ahead is not kept). Null when the previous entry
 * is a real limit that still holds (a warning never replaces it) or the same warning already kept.
 */
export function newNearEntry(
  warning: { message: string; resetsAt: string | null },
  seen: { agent: string; runId: number | null; now: Date; previous: LimitEntry | null },
): LimitEntry | null {
  const prev = seen.previous;
  if (isLimited(prev, seen.now)) return null;
  const resets = warning.resetsAt === null ? NaN : Date.parse(warning.resetsAt);
  const until = resets > seen.now.getTime() ? new Date(resets).toISOString() : null;
  if (
    prev?.near && prev.message === warning.message && prev.until === until &&
    isNear(prev, seen.now)
  ) return null;
  return {
    agent: seen.agent,
    kind: "usage",
    message: warning.message,
    seenAt: seen.now.toISOString(),
    until,
    runId: seen.runId,
    strikes: 0,
    near: true,
  };
}

/** What a limit seen now is recorded as, given the agent's previous entry. */
export function newLimitEntry(
  hit: { kind: LimitKind; message: string; resetsAt: string | null },
  seen: { agent: string; runId: number | null; now: Date; previous: LimitEntry | null },
): LimitEntry {
  const now = seen.now.getTime();
  const resets = hit.resetsAt === null ? NaN : Date.parse(hit.resetsAt);
  const base = {
    agent: seen.agent,
    kind: hit.kind,
    message: hit.message,
    seenAt: seen.now.toISOString(),
    runId: seen.runId,
  };
  // A warning is no limit to come back after: only a real one counts for the back-off.
  const prev = seen.previous?.near ? null : seen.previous;
  const freedAt = prev ? availableAt(prev).getTime() : NaN;
  const again = prev !== null && freedAt <= now && now - freedAt <= AGAIN_WINDOW_MS;
  // Stale: a time not ahead, or, right after the reset, the same time of day again (read as
  // tomorrow's): the agent is showing its old message, not a new limit.
  const sameClock = again && Math.abs(resets - freedAt - _DAY) < _MINUTE;
  if (resets > now && !sameClock) {
    return { ...base, until: new Date(resets).toISOString(), strikes: 0 };
  }
  if (!again) return { ...base, until: null, strikes: 0 };
  const strikes = prev!.strikes + 1;
  const backoff = Math.min(BACKOFF_FIRST_MS * 2 ** (strikes - 1), BACKOFF_MAX_MS);
  return { ...base, until: new Date(now + backoff).toISOString(), strikes };
}

/** A local wall-clock time for a status line: "03:01", or "Dec 2 03:01" on another day. */
export function clock(at: Date, now: Date): string {
  const hm = `${String(at.getHours()).padStart(2, "0")}:${
    String(at.getMinutes()).padStart(2, "0")
  }`;
  if (at.toDateString() === now.toDateString()) return hm;
  return `${at.toLocaleString("en-US", { month: "short" })} ${at.getDate()} ${hm}`;
}

/** "claude is limited until 03:01 (seen 01:12 in run 42)". */
export function limitedLine(entry: LimitEntry, now: Date): string {
  return `${entry.agent} is ${limitedReason(entry, now)}`;
}

/** "limited until 03:01 (seen 01:12 in run 42)": why an agent is passed over. */
export function limitedReason(entry: LimitEntry, now: Date): string {
  const at = clock(availableAt(entry), now);
  const until = entry.until === null
    ? `until about ${at} (no reset time was shown)`
    : entry.strikes > 0
    ? `until ${at} (backing off: its limit came back right after its reset)`
    : `until ${at}`;
  const run = entry.runId === null ? "" : ` in run ${entry.runId}`;
  return `limited ${until} (seen ${clock(new Date(entry.seenAt), now)}${run})`;
}

/** An agent's ledger state, as `uuldana agents --json` and `uuldana limits --json` show it. */
export interface LimitState {
  /** Whether the agent counts as limited now. */
  limited: boolean;
  /** Whether the agent is near its limit now (a usage warning it showed; never limited). */
  near: boolean;
  /** Whether the entry is a warning (near now, or over since its reset passed). */
  warning: boolean;
  /** When it may run again (ISO-8601): its reset time, a back-off, or the hold when none is known. */
  availableAt: string;
  /** Whether `availableAt` is a reset time the agent showed (else a hold or a back-off). */
  shownReset: boolean;
  kind: LimitKind;
  message: string;
  seenAt: string;
  runId: number | null;
  strikes: number;
  /** One line for people. */
  line: string;
}

/** "claude is near its limit until 15:00 (seen 13:12 in run 4)", or that it no longer is. */
export function nearLine(entry: LimitEntry, now: Date): string {
  const at = clock(availableAt(entry), now);
  const seen = `seen ${clock(new Date(entry.seenAt), now)}${
    entry.runId === null ? "" : ` in run ${entry.runId}`
  }`;
  if (!isNear(entry, now)) return `${entry.agent} was near its limit (${seen}, over at ${at})`;
  const until = entry.until === null ? `for now (no reset time was shown)` : `until ${at}`;
  return `${entry.agent} is near its limit ${until} (${seen}); it still works`;
}

/** The ledger state of an agent's latest entry at `now`. */
export function limitState(entry: LimitEntry, now: Date): LimitState {
  const limited = isLimited(entry, now);
  const at = availableAt(entry);
  return {
    limited,
    near: isNear(entry, now),
    warning: !!entry.near,
    availableAt: at.toISOString(),
    shownReset: entry.until !== null && entry.strikes === 0,
    kind: entry.kind,
    message: entry.message,
    seenAt: entry.seenAt,
    runId: entry.runId,
    strikes: entry.strikes,
    line: entry.near
      ? nearLine(entry, now)
      : limited
      ? limitedLine(entry, now)
      : `${entry.agent} is available again (limit seen ${clock(new Date(entry.seenAt), now)}${
        entry.runId === null ? "" : ` in run ${entry.runId}`
      }, over at ${clock(at, now)})`,
  };
}
