/**
 * A run of the journal replayed: its recording read back and fed through a fresh detector with
 * what the live run had (the text uuldana delivered to it, its clock, zone and stall rule), and
 * the replay's decision log compared with the one the run kept. `uuldana debug detect RUN` and the
 * end-to-end tests' world helper both use it: a difference is a bug in the replay or the live run.
 *
 * @module
 */
import type { Decision } from "../detect/decision.ts";
import type { DetectorOptions } from "../detect/detector.ts";
import { replay, type ReplayResult } from "../detect/replay.ts";
import type { Journal, RunRow } from "../journal/journal.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { type Recording, spanInputs, storedRecording } from "./recording_read.ts";

/** A run's recording with what its replay needs. */
export interface RunRecording {
  run: RunRow;
  recording: Recording;
  /** What uuldana delivered to the run. */
  delivered: string[];
  /** Wall-clock time of the recording's start (epoch ms). */
  startedAt: number;
  /** The decision log the run kept (empty before schema 7). */
  live: Decision[];
}

/** How a replay's decision log compares with the live one. */
export interface DecisionComparison {
  /**
   * `same`; `prefix`: the recording stops early (the run was killed, or the size bound) and the
   * replay's decisions are the first of the live ones; `different`.
   */
  match: "same" | "prefix" | "different";
  /** Index of the first record that differs, or null. */
  firstDifference: number | null;
}

/** A run's recording from the journal, or null when it recorded none. */
export function runRecording(journal: Journal, run: RunRow): RunRecording | null {
  const stored = journal.output(run.id);
  if (!stored) return null;
  const recording = storedRecording(stored);
  return {
    run,
    recording,
    delivered: stored.delivered,
    startedAt: recording.header?.uuldana?.startedAt ?? Date.parse(run.startedAt),
    live: journal.decisions(run.id),
  };
}

/** The detector options a replay of `rec` uses (`agent` overrides the recorded one). */
export function replayOptions(
  rec: RunRecording,
  overrides: { agent?: string; startedAt?: number; timeZone?: string; delivered?: string[] } = {},
): DetectorOptions | null {
  const adapter = adapterByName(overrides.agent ?? rec.run.agent);
  if (!adapter) return null;
  const meta = rec.recording.header?.uuldana;
  return {
    adapter,
    cols: rec.recording.cols,
    rows: rec.recording.rows,
    startedAt: overrides.startedAt ?? rec.startedAt,
    timeZone: overrides.timeZone ?? meta?.timeZone,
    stallSeconds: meta?.stallSeconds,
    retryLoopSeconds: meta?.retryLoopSeconds,
    delivered: overrides.delivered ?? rec.delivered,
  };
}

/**
 * Replays a timed recording of the journal (a long run's from the state saved at its most recent
 * part: see `Recording.span`); null when it has no times (raw, before schema 7).
 */
export function replayRunRecording(rec: RunRecording): ReplayResult | null {
  const opts = replayOptions(rec);
  const inputs = spanInputs(rec.recording);
  if (!opts || !inputs) return null;
  return replay(inputs, opts, rec.recording.span.from ?? undefined);
}

/**
 * Compares the decisions of a replay of `rec` (`replayRunRecording`, or `debug detect`'s) with
 * those the run kept from where the replay began: all of them, or those after the state it was
 * resumed from.
 */
export function compareRunReplay(
  rec: RunRecording,
  replayed: readonly Decision[],
  ending: ReplayResult["ending"],
): DecisionComparison & { live: Decision[] } {
  const { span, truncated } = rec.recording;
  const live = span.from ? rec.live.slice(span.from.recorded) : rec.live;
  const cut = ending === "cut" || truncated || span.cut;
  return { live, ...compareDecisions(replayed, live, cut) };
}

/** Compares a replay's decision log with the live one (see {@link DecisionComparison}). */
export function compareDecisions(
  replayed: readonly Decision[],
  live: readonly Decision[],
  cut: boolean,
): DecisionComparison {
  const n = Math.max(replayed.length, live.length);
  for (let i = 0; i < n; i++) {
    if (i >= replayed.length && cut) return { match: "prefix", firstDifference: null };
    if (_canonical(replayed[i]) !== _canonical(live[i])) {
      return { match: "different", firstDifference: i };
    }
  }
  return { match: "same", firstDifference: null };
}

// JSON with sorted keys: the same decision compares equal however it was built.
function _canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
        : v,
  );
}
