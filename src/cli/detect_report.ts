/**
 * What `uuldana debug detect` reports of one replay: a recording replayed through an agent's
 * detector (timed: exactly as the live run fed it; untimed raw output: in pieces, an
 * approximation), the verdict or the first limit seen, and the text it prints. Pure: the command
 * (debug_detect.ts) reads the recordings and the journal.
 *
 * @module
 */
import { Terminal } from "../vt/mod.ts";
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { LimitConfirmation } from "../detect/confirm.ts";
import type { Decision } from "../detect/decision.ts";
import { replay, type ReplayResult } from "../detect/replay.ts";
import { timingInputs } from "../detect/script_timing.ts";
import type { TimedInput } from "../detect/timed_input.ts";
import type { DetectorState } from "../detect/detector.ts";
import type { DecisionComparison } from "../session/replay_run.ts";
import { describeDecision } from "./decision_text.ts";

/** Largest chunk fed between two checks of an untimed recording (raw bytes without times). */
export const DETECT_CHUNK = 4096;

/** What `debug detect` reports for one recording. */
export interface DetectReport {
  /** Whether a limit was seen at any point. */
  detected: boolean;
  /** `usage` or `rate`, or null. */
  kind: LimitHit["kind"] | null;
  /** The message, or null. */
  message: string | null;
  /** ISO-8601 reset time, or null. */
  resetsAt: string | null;
  /** Bytes read when it was acted on (or, when not acted on, first seen), or null. */
  atOffset: number | null;
  /** When (ms since the run started, recorded time), or null (untimed). */
  atMs?: number | null;
  /** Whether the run acts on it (hands off), or null. */
  handOff: boolean | null;
  /** Retry attempt / wait / gave-up flags when shown. */
  attempt?: number;
  waitSeconds?: number;
  final?: boolean;
  /** A caveat about the reset time (an unknown zone read as the local one). */
  note?: string;
  /** Whether the recording keeps time (an exact replay) or not (4096-byte pieces, no times). */
  timed?: boolean;
  /** The stall rule ended the run: its message. */
  stall?: string;
  /** How the recording ends (see `ReplayResult.ending`). */
  ending?: ReplayResult["ending"];
  /** The recording stops before the run's end (its size bound). */
  truncated?: boolean;
  /**
   * A long run's recording: the replay began at this time (ms), from the detector's state saved
   * at the start of the recording's most recent part (what came before it is partly not kept).
   */
  fromMs?: number;
  /** The decision log of the replay. */
  decisions?: Decision[];
  /** For a run of the journal: the decision log the live run kept, and how the replay's compares. */
  live?: { decisions: Decision[] } & DecisionComparison;
}

/**
 * Splits a recording into the chunks an untimed replay feeds: the `script` timing file's chunks
 * when given (`<delay> <nbytes>` lines), else fixed pieces; never more than `DETECT_CHUNK`.
 */
export function chunkSizes(total: number, timing?: string): number[] {
  const sizes: number[] = [];
  let fed = 0;
  const push = (n: number) => {
    while (n > 0 && fed < total) {
      const take = Math.min(n, DETECT_CHUNK, total - fed);
      sizes.push(take);
      fed += take;
      n -= take;
    }
  };
  for (const line of timing?.split("\n") ?? []) {
    const m = /^\s*[\d.]+\s+(\d+)\s*$/.exec(line);
    if (m) push(Number(m[1]));
  }
  push(total - fed);
  return sizes;
}

/** What a replay needs besides the inputs. */
export interface ReplayOptions {
  cols: number;
  rows: number;
  /** Wall-clock time of the recording's start. */
  now: Date;
  delivered?: string[];
  timeZone?: string;
  stallSeconds?: number;
  retryLoopSeconds?: number;
}

/**
 * The limit a live run acts on in raw output `bytes`: timed by `timing` (classic `script` timing)
 * when given, an exact replay; else the untimed approximation (see {@link untimedReport}).
 */
export function detectInRecording(
  adapter: Adapter,
  bytes: Uint8Array,
  opts: ReplayOptions & { timing?: string },
): DetectReport {
  const inputs = opts.timing ? timingInputs(bytes, opts.timing) : null;
  return inputs ? replayInputs(adapter, inputs, opts) : untimedReport(adapter, bytes, opts);
}

/** Replays timed `inputs` through `adapter`'s detector and reports what it concluded. */
export function replayInputs(
  adapter: Adapter,
  inputs: TimedInput[],
  opts: ReplayOptions,
  from?: DetectorState,
): DetectReport {
  return reportReplay(replay(inputs, {
    adapter,
    cols: opts.cols,
    rows: opts.rows,
    startedAt: opts.now.getTime(),
    delivered: opts.delivered,
    timeZone: opts.timeZone,
    stallSeconds: opts.stallSeconds,
    retryLoopSeconds: opts.retryLoopSeconds,
  }, from));
}

/** What a replay concluded, as a report: the verdict, else the first limit seen. */
export function reportReplay(result: ReplayResult): DetectReport {
  const base = { timed: true, ending: result.ending, decisions: result.decisions };
  const v = result.verdict;
  if (v?.kind === "limit") return { ..._report(v.hit, v.offset), atMs: v.atMs, ...base };
  if (v?.kind === "stall") {
    return { ..._none(), stall: v.message, atOffset: v.offset, atMs: v.atMs, ...base };
  }
  // Not acted on: the first limit seen (a transient rate limit the agent was retrying).
  const seen = result.decisions.find((d) => d.verdict === "seen" && d.hit);
  if (seen) return { ..._report(seen.hit!, seen.offset), atMs: seen.atMs, ...base };
  return { ..._none(), atMs: null, ...base };
}

/**
 * Untimed raw output (times unknown): fed to a fresh terminal in {@link DETECT_CHUNK} pieces, the
 * detector run after each; a limit counts once the next piece would come late, or when it stayed
 * for the settle time, or when it is still pending at the end. Only an approximation of what the
 * live run decided: record with uuldana (or with times) for an exact replay.
 */
export function untimedReport(
  adapter: Adapter,
  bytes: Uint8Array,
  opts: ReplayOptions,
): DetectReport {
  const term = new Terminal({ cols: opts.cols, rows: opts.rows });
  const confirm = new LimitConfirmation();
  let offset = 0;
  let firstRate: { hit: LimitHit; offset: number } | null = null;
  let pendingAt = 0;
  for (const size of chunkSizes(bytes.length)) {
    term.write(bytes.subarray(offset, offset + size));
    offset += size;
    const hit = adapter.detectLimit(term.logicalScreenLines(), {
      now: opts.now,
      cols: opts.cols,
      delivered: opts.delivered,
      timeZone: opts.timeZone,
    });
    if (hit && !shouldHandOff(hit)) firstRate ??= { hit, offset };
    const before = confirm.pending;
    // Every piece arrives at once: a hit is never confirmed on the way, only pending at the end.
    const verdict = confirm.observe(hit && shouldHandOff(hit) ? hit : null, 0, 0);
    if (verdict.action === "act") return { ..._report(verdict.hit, offset), timed: false };
    if (verdict.action === "wait" && before === null) pendingAt = offset;
  }
  if (confirm.pending) return { ..._report(confirm.pending, pendingAt), timed: false };
  if (firstRate) return { ..._report(firstRate.hit, firstRate.offset), timed: false };
  return { ..._none(), timed: false };
}

function _none(): DetectReport {
  return {
    detected: false,
    kind: null,
    message: null,
    resetsAt: null,
    atOffset: null,
    handOff: null,
  };
}

function _report(hit: LimitHit, offset: number): DetectReport {
  return {
    detected: true,
    kind: hit.kind,
    message: hit.message,
    resetsAt: hit.resetsAt,
    atOffset: offset,
    handOff: shouldHandOff(hit),
    ...(hit.attempt !== undefined ? { attempt: hit.attempt } : {}),
    ...(hit.waitSeconds !== undefined ? { waitSeconds: hit.waitSeconds } : {}),
    ...(hit.final ? { final: true } : {}),
    ...(hit.note ? { note: hit.note } : {}),
  };
}

/** The text report of one replay. */
export function renderReport(report: DetectReport, label: string): string {
  const out: string[] = [];
  const at = report.atMs != null ? ` at ${(report.atMs / 1000).toFixed(3)} s,` : "";
  const acted = report.decisions?.some((d) => d.verdict === "acted") ?? report.handOff;
  if (report.stall) {
    out.push(`stall acted on${at} after ${report.atOffset} bytes (${label})`);
    out.push(`  message:   ${report.stall}`);
  } else if (!report.detected) out.push(`no limit detected (${label})`);
  else {
    const what = report.timed === false ? "detected" : acted ? "acted on" : "seen, not acted on";
    out.push(`${report.kind} limit ${what}${at} after ${report.atOffset} bytes (${label})`);
    out.push(`  message:   ${report.message}`);
    out.push(`  resets at: ${report.resetsAt ?? "not shown"}`);
    if (report.note) out.push(`  note:      ${report.note}`);
    out.push(`  hand off:  ${report.handOff ? "yes" : "not yet (transient rate limit)"}`);
  }
  if (report.timed === false) {
    out.push("  untimed:   raw output without times, read in 4096-byte pieces: an approximation");
  }
  if (report.truncated) {
    out.push("  truncated: the recording stops before the run's end (its size bound)");
  }
  if (report.fromMs !== undefined) {
    out.push(
      `  from:      ${(report.fromMs / 1000).toFixed(3)} s, the state saved at the start of the ` +
        "recording's most recent part (a long run keeps its start and its latest part)",
    );
  }
  if (report.ending === "cut") {
    out.push(
      "  ends:      without the end of the output (the run was killed, or is still running)",
    );
  }
  for (const d of report.decisions ?? []) out.push(`  ${describeDecision(d)}`);
  const live = report.live;
  if (live?.match === "same") {
    const since = report.fromMs !== undefined ? " from there" : "";
    out.push(`  live:      the same ${live.decisions.length} decisions as the run made${since}`);
  } else if (live?.match === "prefix") {
    out.push(
      `  live:      the run's first ${report.decisions?.length ?? 0} of ${live.decisions.length} ` +
        "decisions (the recording stops early)",
    );
  } else if (live) {
    out.push(
      `  live:      DIFFERENT from the run's own decision log (from record ${
        live.firstDifference! + 1
      }; compare --decisions with \`uuldana show RUN --decisions\`, and send \`uuldana debug bundle RUN\`)`,
    );
  }
  return out.join("\n");
}
