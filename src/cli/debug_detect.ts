/**
 * `uuldana debug detect FILE|RUN…`: replay a recording through an agent's detector the way the
 * live run fed it, and report the limit it acts on (and, for a run of the journal, whether that
 * is what the run decided live).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { existsSync } from "node:fs";
import { UsageError, UuldanaError } from "../errors.ts";
import { unknownAgentError } from "../chain/member.ts";
import { Terminal } from "../vt/mod.ts";
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import { adapterByName, adapterNames } from "../../adapters/registry.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { LIMIT_QUIET_MS, LIMIT_SETTLE_MS, LimitConfirmation } from "../detect/confirm.ts";
import type { Decision } from "../detect/decision.ts";
import { replay, type ReplayResult } from "../detect/replay.ts";
import { timingInputs } from "../detect/script_timing.ts";
import type { TimedInput } from "../detect/timed_input.ts";
import { readRecording, type Recording } from "../session/recording_read.ts";
import {
  compareDecisions,
  type DecisionComparison,
  type RunRecording,
  runRecording,
} from "../session/replay_run.ts";
import { openContext } from "../context.ts";
import type { Journal } from "../journal/journal.ts";
import { looksLikeRun, runFromArgument } from "./run_arg.ts";
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
): DetectReport {
  return reportReplay(replay(inputs, {
    adapter,
    cols: opts.cols,
    rows: opts.rows,
    startedAt: opts.now.getTime(),
    delivered: opts.delivered,
    timeZone: opts.timeZone,
    stallSeconds: opts.stallSeconds,
  }));
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

/** A recording to replay: from a file, or a run of the journal. */
interface _Source {
  label: string;
  recording: Recording;
  agent: string | null;
  /** Wall-clock start, when known. */
  startedAt: number | null;
  delivered?: string[];
  /** For a run of the journal. */
  run?: RunRecording;
}

/** `uuldana debug detect`: replay a recording through an agent's limit detector. */
export function debugDetectCommand() {
  return new Command("detect")
    .description(
      "replay a recording (a run of the journal, a recording file, raw pty output) through an " +
        "agent's limit detector, as the live run fed it; prints the limit it acts on",
    )
    .argument(
      "<recordings...>",
      "run ids (or 'last'), or files: a run's recording (.cast.gz, .cast), raw output (.raw, .gz)",
    )
    .option(
      "--agent <name>",
      `agent whose detector to use (${adapterNames().join(", ")}); default: the recording's`,
    )
    .option("--cols <n>", "terminal columns of raw output (default 120; a recording says its own)")
    .option("--rows <n>", "terminal rows of raw output (default 40; a recording says its own)")
    .option(
      "--now <iso>",
      "wall-clock time of the recording's start, for reset times; default: the recording's, " +
        "else the `recorded`/`timestamp` field of FILE's sibling .json, else the current time",
    )
    .option(
      "--time-zone <zone>",
      "IANA zone for reset times shown without one (default: the recording's, else $TZ)",
    )
    .option("--delivered <file>", "text uuldana delivered (a limit quoted in it never counts)")
    .option("--decisions", "print every decision of the replay (seen, waiting, acted, rejected)")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      `
Several recordings: one report each (--json: an array).

A run's recording keeps when each piece of output came, to the microsecond: the replay reads the
same pieces at the same times, so it decides what the live run decided, at the same byte offset.
For a run of the journal, the report says whether the replay's decisions are the ones the run
kept (a difference is a bug: send the run with \`uuldana debug bundle\`).

A limit counts once the agent was quiet for ${LIMIT_QUIET_MS} ms after it (or it stayed the same for ${LIMIT_SETTLE_MS} ms while
the agent kept drawing), in recorded time. Raw output without times (no sibling \`<name>.timing\`,
script's classic timing) is fed in ${DETECT_CHUNK}-byte pieces: an approximation only.

Examples:
  uuldana debug detect last                      the newest run, replayed and compared with what it decided
  uuldana debug detect 12 --decisions            every decision of run 12's replay
  uuldana debug detect run-12.cast.gz            a recording someone sent (its agent is in it)
  uuldana debug detect session.raw --agent claude --now 2026-03-10T02:00:00Z`,
    )
    .action(async (sources, opts) => {
      const cols = opts.cols === undefined ? null : _positiveInt(opts.cols, "--cols");
      const rows = opts.rows === undefined ? null : _positiveInt(opts.rows, "--rows");
      let fixedNow: Date | undefined;
      if (opts.now !== undefined) {
        fixedNow = new Date(opts.now);
        if (Number.isNaN(fixedNow.getTime())) {
          throw new UsageError(`--now must be an ISO-8601 time, got '${opts.now}'`);
        }
      }
      if (opts.timeZone !== undefined) _checkZone(opts.timeZone);
      const delivered = opts.delivered === undefined
        ? undefined
        : [new TextDecoder().decode(await _read(opts.delivered))];
      let journal: Journal | null = null;
      const reports: DetectReport[] = [];
      const labels: string[] = [];
      try {
        for (const value of sources) {
          let source: _Source;
          if (!existsSync(value) && looksLikeRun(value)) {
            journal ??= openContext().journal;
            source = _runSource(journal, value);
          } else source = await _fileSource(value, cols ?? 120, rows ?? 40);
          const name = opts.agent ?? source.agent;
          if (!name) {
            throw new UsageError(
              `${source.label} does not say which agent it recorded: give --agent NAME`,
            );
          }
          const adapter = adapterByName(name);
          if (!adapter) throw unknownAgentError(name, `known agents: ${adapterNames().join(", ")}`);
          const rec = source.recording;
          const meta = rec.header?.uuldana;
          const now = fixedNow ??
            (source.startedAt !== null ? new Date(source.startedAt) : new Date());
          const replayOpts: ReplayOptions = {
            cols: rec.cols,
            rows: rec.rows,
            now,
            delivered: delivered ?? source.delivered,
            timeZone: opts.timeZone ?? meta?.timeZone,
            stallSeconds: meta?.stallSeconds,
          };
          const report = rec.inputs
            ? replayInputs(adapter, rec.inputs, replayOpts)
            : untimedReport(adapter, rec.bytes, replayOpts);
          if (rec.truncated) report.truncated = true;
          // Compared with what the run decided, when it kept a decision log and replays as it ran.
          if (
            source.run && rec.format === "cast" && !opts.agent && !opts.now && !opts.timeZone &&
            !delivered
          ) {
            const live = source.run.live;
            const cut = report.ending === "cut" || rec.truncated;
            report.live = {
              decisions: live,
              ...compareDecisions(report.decisions ?? [], live, cut),
            };
          }
          if (!opts.decisions && !opts.json) delete report.decisions;
          reports.push(report);
          labels.push(`${source.label}, ${adapter.name}`);
        }
      } finally {
        journal?.close();
      }
      if (opts.json) {
        console.log(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
        return;
      }
      reports.forEach((report, i) => console.log(renderReport(report, labels[i])));
    });
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
  if (report.ending === "cut") {
    out.push(
      "  ends:      without the end of the output (the run was killed, or is still running)",
    );
  }
  for (const d of report.decisions ?? []) out.push(`  ${describeDecision(d)}`);
  const live = report.live;
  if (live?.match === "same") {
    out.push(`  live:      the same ${live.decisions.length} decisions as the run made`);
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

function _runSource(journal: Journal, value: string): _Source {
  const run = runFromArgument(value, journal);
  const rec = runRecording(journal, run);
  if (!rec) {
    throw new UuldanaError(
      `run ${run.id} has no recording (only terminal runs record their output)`,
    );
  }
  return {
    label: `run ${run.id}`,
    recording: rec.recording,
    agent: run.agent,
    startedAt: rec.startedAt,
    delivered: rec.delivered,
    run: rec,
  };
}

async function _fileSource(file: string, cols: number, rows: number): Promise<_Source> {
  const bytes = await _read(file);
  const base = file.replace(/\.(raw|gz)$/, "");
  const timing = await Deno.readTextFile(`${base}.timing`).catch(() => undefined);
  let recording: Recording;
  try {
    recording = readRecording(bytes, { cols, rows, timing });
  } catch (e) {
    throw new UuldanaError(`${file}: ${(e as Error).message}`);
  }
  const meta = recording.header?.uuldana;
  const startedAt = meta?.startedAt ??
    (recording.header?.timestamp !== undefined ? recording.header.timestamp * 1000 : null) ??
    (await _recordedAt(`${base}.json`))?.getTime() ?? null;
  return { label: file, recording, agent: meta?.agent ?? null, startedAt };
}

async function _recordedAt(jsonFile: string): Promise<Date | null> {
  try {
    const meta = JSON.parse(await Deno.readTextFile(jsonFile));
    for (const key of ["recorded", "recordedAt", "timestamp"]) {
      const value = meta?.[key];
      if (typeof value !== "string" && typeof value !== "number") continue;
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return d;
    }
  } catch {
    // no sibling metadata
  }
  return null;
}

function _checkZone(zone: string): void {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new UsageError(`--time-zone: unknown zone '${zone}'`, "an IANA zone, e.g. Europe/Berlin");
  }
}

function _positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n === 0) {
    throw new UsageError(`${flag} must be a positive integer`);
  }
  return n;
}

async function _read(file: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new UuldanaError(`no such file: ${file}`);
    throw new UuldanaError(`cannot read ${file}: ${(e as Error).message}`);
  }
}
