/**
 * The limit ledger's decisions: what a limit seen now means for when its agent may run again, and
 * how that is said. Pure: the journal stores the entries (`limits` table), the chain decides here.
 *
 * A limit belongs to the account, not to the run: every uuldana on this machine reads the same
 * ledger. A reset time is a hint. An agent that shows its limit again right after its reset, with no
 * new time ahead, is backed off (5 min, doubling, at most 2 h) instead of being restarted in a loop.
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
}

const _MINUTE = 60_000;
const _DAY = 24 * 60 * _MINUTE;

/** How long an agent counts as limited when no reset time is known, by kind. */
export const HOLD_MS: Readonly<Record<LimitKind, number>> = {
  usage: 60 * _MINUTE,
  rate: 5 * _MINUTE,
  stall: 15 * _MINUTE,
};
/** A limit seen this soon after the agent became available again counts as "right after its reset". */
export const AGAIN_WINDOW_MS = 15 * _MINUTE;
/** The first back-off after a stale reset; it doubles with each strike, up to the maximum. */
export const BACKOFF_FIRST_MS = 5 * _MINUTE;
/** The longest back-off. */
export const BACKOFF_MAX_MS = 120 * _MINUTE;

/** When the agent of `entry` may run again: its reset time, else the hold for its kind. */
export function availableAt(entry: LimitEntry): Date {
  if (entry.until !== null) return new Date(entry.until);
  return new Date(Date.parse(entry.seenAt) + HOLD_MS[entry.kind]);
}

/** Whether `entry` (an agent's latest) still holds at `now`. */
export function isLimited(entry: LimitEntry | null | undefined, now: Date): boolean {
  return !!entry && availableAt(entry).getTime() > now.getTime();
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
  const prev = seen.previous;
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

/** The ledger state of an agent's latest entry at `now`. */
export function limitState(entry: LimitEntry, now: Date): LimitState {
  const limited = isLimited(entry, now);
  const at = availableAt(entry);
  return {
    limited,
    availableAt: at.toISOString(),
    shownReset: entry.until !== null && entry.strikes === 0,
    kind: entry.kind,
    message: entry.message,
    seenAt: entry.seenAt,
    runId: entry.runId,
    strikes: entry.strikes,
    line: limited
      ? limitedLine(entry, now)
      : `${entry.agent} is available again (limit seen ${clock(new Date(entry.seenAt), now)}${
        entry.runId === null ? "" : ` in run ${entry.runId}`
      }, over at ${clock(at, now)})`,
  };
}
