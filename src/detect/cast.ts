/**
 * A run's recording as asciicast v2 (asciinema's format: a JSON header line, then one
 * `[seconds, code, data]` line per event), written as the run goes and read back for a replay.
 * Every `o` event is one input the run's detector read, at the time it read it (to the
 * microsecond), so a replay reads exactly what the live run read. uuldana's own events use codes
 * a player ignores (the v2 spec asks players to skip codes they do not know):
 *
 * - `b`: the exact bytes (base64) of the `o` event just before it, when its text cannot carry them
 *   (output that is not UTF-8: a player shows the text with U+FFFD, a replay reads the bytes);
 * - `c`: an event of the agent's structured channel (a JSON object, see adapters/channel.ts);
 * - `h`: the run was decided elsewhere (data: why: `switch`, `stopped`, `return`);
 * - `e`: the agent's output ended;
 * - `t`: the recording stops here (its size bound): what came after was not recorded;
 * - `g`: a gap: what came after was not recorded up to the next `x` (a long run's recording keeps
 *   its start and its most recent part, src/session/recording.ts);
 * - `x`: the run's detector state at that moment (a JSON object, `DetectorState`): a replay may
 *   begin here, with a detector resumed from it, and read the events that follow.
 *
 * Standard `r` events (`"COLSxROWS"`) carry resizes. The header's `uuldana` object says what a
 * replay needs besides the events (agent, wall-clock start, time zone, stall rule). Pure.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";
import { microseconds, type TimedInput } from "./timed_input.ts";
import type { DetectorState } from "./detector.ts";

/** What a replay needs besides the events, kept in the header. */
export interface RecordingMeta {
  /** The agent (adapter name) that ran. */
  agent: string;
  /** Wall-clock time (epoch ms) of time 0. */
  startedAt: number;
  /** The IANA zone reset times without a zone were read in. */
  timeZone?: string;
  /** The stall rule's threshold, when on. */
  stallSeconds?: number;
  /** The retry-loop rule's threshold, when configured (its default otherwise). */
  retryLoopSeconds?: number;
  /** The uuldana that recorded it. */
  version?: string;
}

/** An asciicast v2 header, with uuldana's part. */
export interface CastHeader {
  version: 2;
  width: number;
  height: number;
  /** Unix time (s) of the start. */
  timestamp?: number;
  title?: string;
  env?: Record<string, string>;
  /** Absent in an asciicast uuldana did not record. */
  uuldana?: RecordingMeta;
}

/** A recording read back. */
export interface ParsedCast {
  header: CastHeader;
  inputs: TimedInput[];
  /** The time (ms) of the `t` event: the recording was cut there (its size bound). */
  truncatedAt: number | null;
  /** Lines that were not events (a damaged file); they are skipped. */
  damaged: number;
  /**
   * The saved detector states (`x`), each with the index in `inputs` of the input after it and the
   * number of gaps before it.
   */
  states: { index: number; state: DetectorState; afterGaps: number }[];
  /** Indices in `inputs` where a gap (`g`) is: the inputs before and after it are not adjacent. */
  gaps: number[];
}

const _enc = new TextEncoder();

/** The header line (no newline) of a recording of `meta.agent` at `cols`x`rows`. */
export function castHeaderLine(
  cols: number,
  rows: number,
  meta: RecordingMeta,
  term: string,
): string {
  const header: CastHeader = {
    version: 2,
    width: cols,
    height: rows,
    timestamp: Math.floor(meta.startedAt / 1000),
    title: `uuldana: ${meta.agent}`,
    env: { TERM: term },
    uuldana: meta,
  };
  return JSON.stringify(header);
}

/** `us` microseconds as the seconds of an event, exactly (no float rounding). */
export function castTime(us: number): string {
  const whole = Math.floor(us / 1_000_000);
  return `${whole}.${String(us - whole * 1_000_000).padStart(6, "0")}`;
}

/**
 * The event line(s) of one input in pieces: their concatenation is the lines, each ending in a
 * newline. A writer encodes the pieces one after another, so a long line (a whole read) is never
 * copied into one string first. `decoder` is a plain (not streaming) UTF-8 decoder; an output whose
 * text does not give back its bytes is followed by a `b` line.
 */
export function castLines(input: TimedInput, decoder: TextDecoder): string[] {
  const t = castTime(microseconds(input.atMs));
  switch (input.type) {
    case "output": {
      const text = decoder.decode(input.bytes);
      const line = [`[${t},"o",`, JSON.stringify(text), "]\n"];
      // U+FFFD stands for bytes that are not UTF-8, unless the agent printed U+FFFD itself.
      if (!text.includes("\uFFFD") || _decodesExactly(input.bytes, decoder)) return line;
      // Base64 has no character JSON escapes.
      return [...line, `[${t},"b","`, input.bytes.toBase64(), `"]\n`];
    }
    case "resize":
      return [`[${t},"r","${input.cols}x${input.rows}"]\n`];
    case "channel":
      return [`[${t},"c",${JSON.stringify(input.event)}]\n`];
    case "halt":
      return [`[${t},"h",${JSON.stringify(input.reason)}]\n`];
    case "end":
      return [`[${t},"e",""]\n`];
  }
}

/** The line that marks where a recording was cut (at `atMs`). */
export function castTruncatedLine(atMs: number): string {
  return `[${castTime(microseconds(atMs))},"t",""]\n`;
}

/** The line that marks a gap (at `atMs`): what follows was not recorded up to the next state. */
export function castGapLine(atMs: number): string {
  return `[${castTime(microseconds(atMs))},"g",""]\n`;
}

/** The line that keeps a detector's saved state (at its own time). */
export function castStateLine(state: DetectorState): string {
  return `[${castTime(state.nowUs)},"x",${JSON.stringify(state)}]\n`;
}

/**
 * True when `text` starts like an asciicast v2 file (its header line), so a reader can tell it
 * from raw terminal output.
 */
export function looksLikeCast(text: string): boolean {
  return /^\{\s*"version"\s*:\s*2\s*[,}]/.test(text);
}

/**
 * Reads a recording: the header and, in order, the inputs a replay feeds the detector. Events a
 * replay has no use for (`i`, `m`, unknown codes) are skipped; a damaged line is counted and
 * skipped; reading stops at a `t` event. Throws when the first line is not an asciicast v2 header.
 */
export function parseCast(text: string): ParsedCast {
  const lines = text.split("\n");
  let header: CastHeader;
  try {
    header = JSON.parse(lines[0]);
  } catch {
    throw new Error("not an asciicast v2 recording (its first line is not a JSON header)");
  }
  if (header?.version !== 2 || !(header.width > 0) || !(header.height > 0)) {
    throw new Error("not an asciicast v2 recording (no version 2 header with a width and height)");
  }
  const inputs: TimedInput[] = [];
  const states: ParsedCast["states"] = [];
  const gaps: number[] = [];
  let damaged = 0;
  let truncatedAt: number | null = null;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const event = _event(lines[i]);
    if (!event) {
      damaged++;
      continue;
    }
    const [seconds, code, data] = event;
    const atMs = Math.round(seconds * 1_000_000) / 1000;
    if (code === "o" && typeof data === "string") {
      const next = lines[i + 1]?.includes(',"b",') ? _event(lines[i + 1]) : null;
      const exact = next?.[1] === "b" && next[0] === seconds && typeof next[2] === "string";
      inputs.push({
        type: "output",
        atMs,
        bytes: exact ? _unbase64(next[2] as string) : _enc.encode(data),
      });
      if (exact) i++;
    } else if (code === "r" && typeof data === "string") {
      const m = /^(\d+)x(\d+)$/.exec(data);
      if (m) inputs.push({ type: "resize", atMs, cols: Number(m[1]), rows: Number(m[2]) });
      else damaged++;
    } else if (code === "c" && data && typeof data === "object") {
      inputs.push({ type: "channel", atMs, event: data as ChannelEvent });
    } else if (code === "h") {
      inputs.push({ type: "halt", atMs, reason: String(data) });
    } else if (code === "e") {
      inputs.push({ type: "end", atMs });
    } else if (code === "x" && data && typeof data === "object") {
      states.push({ index: inputs.length, state: data as DetectorState, afterGaps: gaps.length });
    } else if (code === "g") {
      gaps.push(inputs.length);
    } else if (code === "t") {
      truncatedAt = atMs;
      break;
    }
  }
  return { header, inputs, truncatedAt, damaged, states, gaps };
}

function _event(line: string): [number, string, unknown] | null {
  try {
    const e = JSON.parse(line);
    if (Array.isArray(e) && typeof e[0] === "number" && e[0] >= 0 && typeof e[1] === "string") {
      return e as [number, string, unknown];
    }
  } catch { /* damaged */ }
  return null;
}

const _strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
function _isUtf8(bytes: Uint8Array): boolean {
  try {
    _strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// True when `decoder`'s text gives back `bytes` exactly: they are UTF-8 and no BOM was dropped.
// (Checked without encoding the text again, a copy 3x the read in a flood of invalid bytes.)
function _decodesExactly(bytes: Uint8Array, decoder: TextDecoder): boolean {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return _isUtf8(bytes) && (decoder.ignoreBOM || !bom);
}

function _unbase64(text: string): Uint8Array {
  try {
    return Uint8Array.fromBase64(text);
  } catch {
    return new Uint8Array(0);
  }
}
