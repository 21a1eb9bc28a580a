/**
 * What every part of a simulated agent reads from its process: the `SIM_*` knobs (documented in
 * agent.ts), the terminal's size, whole writes to a file descriptor, and the few knobs that
 * decide when a turn hits the limit and what reset it shows.
 *
 * @module
 */
import { join } from "node:path";
import { simStateDir } from "./opencode_store.ts";

const _enc = new TextEncoder();

/** Writes all of `s` to `fd` (a partial write goes on where it stopped). */
export function write(fd: { writeSync(p: Uint8Array): number }, s: string): void {
  const bytes = _enc.encode(s);
  let off = 0;
  while (off < bytes.length) off += fd.writeSync(bytes.subarray(off));
}

/** The variable `name`, or undefined when unset or empty. */
export function env(name: string): string | undefined {
  return Deno.env.get(name) || undefined;
}

/** The variable `name` as a number ≥ 0, or `fallback`. */
export function envInt(name: string, fallback: number): number {
  const n = Number(env(name));
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** The terminal's size (80x24 when stdout is not one). */
export function termSize(): { cols: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    if (columns > 0 && rows > 0) return { cols: columns, rows };
  } catch { /* not a terminal */ }
  return { cols: 80, rows: 24 };
}

/** Resolves after `ms` (at once when 0). */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/** This process's interactive session number for its persona (1: the first), when counted. */
let _session = 1;

/**
 * `SIM_LIMIT_SESSIONS=N`: only the first N interactive sessions of a persona (counted in
 * `$SIM_STATE_DIR`) hit the limit, as an account whose limit reset meanwhile. Counts this one.
 */
export function countSession(persona: string): void {
  if (env("SIM_LIMIT_SESSIONS") === undefined) return;
  const file = join(simStateDir(), `${persona}.sessions`);
  let n = 0;
  try {
    n = Number(Deno.readTextFileSync(file)) || 0;
  } catch {
    // the first session
  }
  _session = n + 1;
  Deno.writeTextFileSync(file, String(_session));
}

/**
 * `SIM_RESET_IN=S`: the reset Claude shows is the first whole minute at least S seconds after the
 * limit (its `h:mmam` form, UTC), so a test waits for a real reset no longer than it must.
 */
export function resetIn(): string | undefined {
  const seconds = envInt("SIM_RESET_IN", -1);
  if (seconds < 0) return undefined;
  const at = new Date(Math.ceil((Date.now() + seconds * 1000) / 60_000) * 60_000);
  const h = at.getUTCHours();
  return `${h % 12 || 12}:${String(at.getUTCMinutes()).padStart(2, "0")}${h < 12 ? "am" : "pm"}`;
}

/** The turn that hits the limit (`SIM_LIMIT_AFTER`; 0: none, also past `SIM_LIMIT_SESSIONS`). */
export function limitAfter(): number {
  const sessions = envInt("SIM_LIMIT_SESSIONS", 0);
  if (sessions > 0 && _session > sessions) return 0;
  return envInt("SIM_LIMIT_AFTER", 0);
}

/** One tool call a simulated agent reports on its channel (`SIM_TOOL_CALLS`). */
export interface SimToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Set: the call failed with this error text (Claude: `Exit code 1\n…`). */
  error?: string;
}

/**
 * `SIM_TOOL_CALLS=JSON`: the tool calls each turn makes before it answers, as a JSON array of
 * {@link SimToolCall}; `{turn}` in a string of an input becomes the turn's number. None when unset
 * or not such an array.
 */
export function toolCalls(turn: number): SimToolCall[] {
  try {
    const calls = JSON.parse(env("SIM_TOOL_CALLS") ?? "[]");
    if (!Array.isArray(calls)) return [];
    return JSON.parse(JSON.stringify(calls).replaceAll("{turn}", String(turn)));
  } catch {
    return [];
  }
}

/** The Claude persona's usage warning, as 2.1.332 words it (`SIM_WARN_TEXT` replaces it). */
export const SIM_WARNING = "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)";

/**
 * `SIM_WARN_AFTER=N`: the N-th turn shows a usage warning (`SIM_WARN_TEXT`, else
 * {@link SIM_WARNING}) as soon as it starts, the way the provider's warning headers come with the
 * model's answer while the turn goes on; 0: none.
 */
export function warnAfter(): { turn: number; text: string } {
  return { turn: envInt("SIM_WARN_AFTER", 0), text: env("SIM_WARN_TEXT") ?? SIM_WARNING };
}
