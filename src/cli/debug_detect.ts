/**
 * `uuldana debug detect FILE --agent NAME`: feed a recording through the VT interpreter the way a
 * live run would and report the first limit the agent's detector sees.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError, UuldanaError } from "../errors.ts";
import { Terminal } from "../vt/mod.ts";
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import { adapterByName, adapterNames } from "../../adapters/registry.ts";
import { shouldHandOff } from "../../adapters/policy.ts";

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
}

/**
 * Splits a recording into the chunks a live run would have read: the `script` timing file's
 * chunks when given (`<delay> <nbytes>` lines), else fixed pieces; never more than `DETECT_CHUNK`.
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

/**
 * Feeds `bytes` to a fresh terminal chunk by chunk, running the detector after each chunk, and
 * returns the FIRST detection (Codex, for one, clears its message from the final screen).
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
  let offset = 0;
  for (const size of chunkSizes(bytes.length, opts.timing)) {
    term.write(bytes.subarray(offset, offset + size));
    offset += size;
    const hit = adapter.detectLimit(term.logicalScreenLines(), {
      now: opts.now,
      cols: opts.cols,
      delivered: opts.delivered,
      timeZone: opts.timeZone,
    });
    if (hit) {
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
      };
    }
  }
  return {
    detected: false,
    kind: null,
    message: null,
    resetsAt: null,
    atOffset: null,
    handOff: null,
  };
}

/** `uuldana debug detect`: feed a recording to an agent's limit detector. */
export function debugDetectCommand() {
  return new Command("detect")
    .description(
      "feed a recording (raw pty output) through the VT interpreter and an agent's limit " +
        "detector, checking after every chunk; prints the first limit seen",
    )
    .argument("<file>", "file with the raw bytes the agent wrote to its terminal")
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
      "\nChunks: the sibling `<name>.timing` file (script's classic timing) when present, else " +
        `${DETECT_CHUNK}-byte pieces.\nTimes shown without a zone are read in $TZ (this process's zone).` +
        "\n\nExamples:\n  uuldana debug detect claude-limit.raw --agent claude\n" +
        "  uuldana debug detect codex-limit.raw --agent codex --now 2026-01-01T02:00:00Z --json",
    )
    .action(async (file, opts) => {
      const adapter = adapterByName(opts.agent);
      if (!adapter) {
        throw new UsageError(
          `unknown agent '${opts.agent}'`,
          `known agents: ${adapterNames().join(", ")}`,
        );
      }
      const cols = _positiveInt(opts.cols, "--cols");
      const rows = _positiveInt(opts.rows, "--rows");
      const bytes = await _read(file);
      const base = file.replace(/\.raw$/, "");
      const timing = await Deno.readTextFile(`${base}.timing`).catch(() => undefined);
      let now: Date;
      if (opts.now !== undefined) {
        now = new Date(opts.now);
        if (Number.isNaN(now.getTime())) {
          throw new UsageError(`--now must be an ISO-8601 time, got '${opts.now}'`);
        }
      } else now = (await _recordedAt(`${base}.json`)) ?? new Date();
      const delivered = opts.delivered === undefined
        ? undefined
        : [new TextDecoder().decode(await _read(opts.delivered))];
      const report = detectInRecording(adapter, bytes, { cols, rows, now, delivered, timing });
      if (opts.json) console.log(JSON.stringify(report, null, 2));
      else if (!report.detected) console.log(`no limit detected (${adapter.name}, ${file})`);
      else {
        console.log(`${report.kind} limit detected after ${report.atOffset} bytes`);
        console.log(`  message:   ${report.message}`);
        console.log(`  resets at: ${report.resetsAt ?? "not shown"}`);
        console.log(`  hand off:  ${report.handOff ? "yes" : "not yet (transient rate limit)"}`);
      }
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
