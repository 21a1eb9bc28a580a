/**
 * `uuldana debug detect FILE… --agent NAME`: feed recordings through the VT interpreter the way a
 * live run would and report the first limit the agent's detector sees.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError, UuldanaError } from "../errors.ts";
import { unknownAgentError } from "../chain/member.ts";
import { Terminal } from "../vt/mod.ts";
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import { adapterByName, adapterNames } from "../../adapters/registry.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { LIMIT_QUIET_MS, LIMIT_SETTLE_MS, LimitConfirmation } from "../detect/confirm.ts";

/** Largest chunk fed between two checks (a live run reads at most this much at once). */
export const DETECT_CHUNK = 4096;

/** What `debug detect` reports. */
export interface DetectReport {
  /** Whether a limit was seen at any point while feeding. */
  detected: boolean;
  /** `usage` or `rate`, or null. */
  kind: LimitHit["kind"] | null;
  /** The message, or null. */
  message: string | null;
  /** ISO-8601 reset time, or null. */
  resetsAt: string | null;
  /** Bytes fed when it was first seen, or null. */
  atOffset: number | null;
  /** Whether the default policy hands off on it (`shouldHandOff`), or null. */
  handOff: boolean | null;
  /** Retry attempt / wait / gave-up flags when shown. */
  attempt?: number;
  waitSeconds?: number;
  final?: boolean;
  /** A caveat about the reset time (an unknown zone read as the local one). */
  note?: string;
}

/**
 * Splits a recording into the chunks a live run would have read: the `script` timing file's
 * chunks when given (`<delay> <nbytes>` lines), else fixed pieces; never more than `DETECT_CHUNK`.
 */
export function chunkSizes(total: number, timing?: string): number[] {
  return timedChunks(total, timing).map((c) => c.size);
}

/**
 * The chunks of {@linkcode chunkSizes} with the recorded time (ms since the start) each arrived
 * at; without a timing file every chunk arrives at 0.
 */
export function timedChunks(total: number, timing?: string): { size: number; atMs: number }[] {
  const chunks: { size: number; atMs: number }[] = [];
  let fed = 0;
  let atMs = 0;
  const push = (n: number) => {
    while (n > 0 && fed < total) {
      const take = Math.min(n, DETECT_CHUNK, total - fed);
      chunks.push({ size: take, atMs });
      fed += take;
      n -= take;
    }
  };
  for (const line of timing?.split("\n") ?? []) {
    const m = /^\s*([\d.]+)\s+(\d+)\s*$/.exec(line);
    if (!m) continue;
    atMs += Number(m[1]) * 1000;
    push(Number(m[2]));
  }
  push(total - fed);
  return chunks;
}

/**
 * Feeds `bytes` to a fresh terminal chunk by chunk, running the detector after each chunk, and
 * returns the first limit a live run would act on, in recorded time (the timing file's): one shown
 * before the agent went quiet, or that stayed the same for the settle time, or the one still
 * pending when the recording ends (Codex, for one, clears its message from the final screen). A
 * limit the run would not hand off on yet (a transient rate limit) is reported as first seen.
 */
export function detectInRecording(
  adapter: Adapter,
  bytes: Uint8Array,
  opts: {
    cols: number;
    rows: number;
    now: Date;
    delivered?: string[];
    timing?: string;
    timeZone?: string;
  },
): DetectReport {
  const term = new Terminal({ cols: opts.cols, rows: opts.rows });
  const confirm = new LimitConfirmation();
  let offset = 0;
  let firstRate: { hit: LimitHit; offset: number } | null = null;
  let pendingAt = 0;
  const chunks = timedChunks(bytes.length, opts.timing);
  for (const [i, { size, atMs }] of chunks.entries()) {
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
    // A live run looks again once the agent has been quiet: here, when the next chunk is late.
    const quietFor = i + 1 < chunks.length ? chunks[i + 1].atMs - atMs : 0;
    const verdict = confirm.observe(hit && shouldHandOff(hit) ? hit : null, atMs, quietFor);
    if (verdict.action === "act") return _report(verdict.hit, offset);
    if (verdict.action === "wait" && before === null) pendingAt = offset;
  }
  if (confirm.pending) return _report(confirm.pending, pendingAt);
  if (firstRate) return _report(firstRate.hit, firstRate.offset);
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

/** `uuldana debug detect`: feed a recording to an agent's limit detector. */
export function debugDetectCommand() {
  return new Command("detect")
    .description(
      "feed a recording (raw pty output) through the VT interpreter and an agent's limit " +
        "detector, checking after every chunk; prints the first limit seen",
    )
    .argument("<files...>", "files with the raw bytes the agent wrote to its terminal")
    .requiredOption("--agent <name>", `agent whose detector to use (${adapterNames().join(", ")})`)
    .option("--cols <n>", "terminal columns", "120")
    .option("--rows <n>", "terminal rows", "40")
    .option(
      "--now <iso>",
      "clock for reset times; default: the `recorded`/`timestamp` field of FILE's sibling .json, " +
        "else the current time",
    )
    .option("--delivered <file>", "text uuldana delivered (a limit quoted in it never counts)")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nSeveral files: one report each (--json: an array).\n" +
        `A limit counts, as in a live run, once the agent was quiet for ${LIMIT_QUIET_MS} ms after ` +
        `it (or it stayed the same for ${LIMIT_SETTLE_MS} ms), in recorded time.\n` +
        "\nChunks: the sibling `<name>.timing` file (script's classic timing) when present, else " +
        `${DETECT_CHUNK}-byte pieces.\nTimes shown without a zone are read in $TZ (this process's zone).` +
        "\n\nExamples:\n  uuldana debug detect session.raw --agent claude --now 2026-03-10T02:00:00Z\n" +
        "  uuldana debug detect a.raw b.raw --agent codex --json   one report each, as an array",
    )
    .action(async (files, opts) => {
      const adapter = adapterByName(opts.agent);
      if (!adapter) {
        throw unknownAgentError(opts.agent, `known agents: ${adapterNames().join(", ")}`);
      }
      const cols = _positiveInt(opts.cols, "--cols");
      const rows = _positiveInt(opts.rows, "--rows");
      let fixedNow: Date | undefined;
      if (opts.now !== undefined) {
        fixedNow = new Date(opts.now);
        if (Number.isNaN(fixedNow.getTime())) {
          throw new UsageError(`--now must be an ISO-8601 time, got '${opts.now}'`);
        }
      }
      const delivered = opts.delivered === undefined
        ? undefined
        : [new TextDecoder().decode(await _read(opts.delivered))];
      const reports: DetectReport[] = [];
      for (const file of files) {
        const bytes = await _read(file);
        const base = file.replace(/\.raw$/, "");
        const timing = await Deno.readTextFile(`${base}.timing`).catch(() => undefined);
        const now = fixedNow ?? (await _recordedAt(`${base}.json`)) ?? new Date();
        reports.push(detectInRecording(adapter, bytes, { cols, rows, now, delivered, timing }));
      }
      if (opts.json) {
        console.log(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2));
        return;
      }
      reports.forEach((report, i) => {
        const file = files[i];
        if (!report.detected) console.log(`no limit detected (${adapter.name}, ${file})`);
        else {
          console.log(`${report.kind} limit detected after ${report.atOffset} bytes (${file})`);
          console.log(`  message:   ${report.message}`);
          console.log(`  resets at: ${report.resetsAt ?? "not shown"}`);
          if (report.note) console.log(`  note:      ${report.note}`);
          console.log(`  hand off:  ${report.handOff ? "yes" : "not yet (transient rate limit)"}`);
        }
      });
    });
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
