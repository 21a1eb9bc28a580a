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
import { adapterByName, adapterNames } from "../../adapters/registry.ts";
import { LIMIT_QUIET_MS, LIMIT_SETTLE_MS } from "../detect/confirm.ts";
import { readRecording, type Recording, spanInputs } from "../session/recording_read.ts";
import { readRecordingFiles, recordingPartPaths } from "../journal/recording_file.ts";
import { compareRunReplay, type RunRecording, runRecording } from "../session/replay_run.ts";
import { openContext } from "../context.ts";
import type { Journal } from "../journal/journal.ts";
import { looksLikeRun, runFromArgument } from "./run_arg.ts";
import {
  DETECT_CHUNK,
  type DetectReport,
  renderReport,
  replayInputs,
  type ReplayOptions,
  untimedReport,
} from "./detect_report.ts";

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
            retryLoopSeconds: meta?.retryLoopSeconds,
          };
          // A long run's recording replays from the state saved at its most recent part.
          const inputs = spanInputs(rec);
          const report = inputs
            ? replayInputs(adapter, inputs, replayOpts, rec.span.from ?? undefined)
            : untimedReport(adapter, rec.bytes, replayOpts);
          if (rec.span.from) report.fromMs = rec.span.from.nowUs / 1000;
          if (rec.truncated) report.truncated = true;
          // Compared with what the run decided, when it kept a decision log and replays as it ran.
          if (
            source.run && rec.format === "cast" && !opts.agent && !opts.now && !opts.timeZone &&
            !delivered
          ) {
            const { live, ...comparison } = compareRunReplay(
              source.run,
              report.decisions ?? [],
              report.ending ?? "cut",
            );
            report.live = { decisions: live, ...comparison };
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
  let bytes = await _read(file);
  // A long run's recording file: its recent parts beside it are read after it.
  if (recordingPartPaths(file).some((p) => existsSync(p))) bytes = readRecordingFiles(file);
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
