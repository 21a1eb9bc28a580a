/**
 * Runs one headless agent process: spawns it in its own process group, parses its stdout as JSON
 * lines and reads its stderr line by line, both as they arrive (each line bounded, a bounded tail of
 * stderr kept), and stops it (the whole group) on the task deadline, on a stall, when aborted, or
 * when it reports that it waits to retry a quota (nothing comes of that wait).
 *
 * @module
 */
import type {
  HeadlessEvent,
  HeadlessLaunch,
  HeadlessParser,
  LimitEvent,
} from "../../adapters/headless/event.ts";
import { LineSplitter } from "../../adapters/headless/lines.ts";
import { classifyLimit } from "../../adapters/headless/limit_text.ts";

/** Longest stderr tail kept, in bytes. */
export const STDERR_TAIL_BYTES = 64 * 1024;
/** Longest stderr line read, in UTF-16 code units (a longer one is cut). */
export const STDERR_LINE_MAX = 16 * 1024;
/** Longest stderr line read as a possible limit message (longer: a dump or a stack, not one). */
const _LIMIT_LINE_MAX = 4096;
/** How long a stopped agent gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 3000;
/** How long stdout may stay open after the agent exited (grandchildren holding it). */
const _DRAIN_MS = 2000;

/** Input to `runAgent`. */
export interface HeadlessRunOptions {
  /** The agent's name (whose limit rules read its stderr). */
  agent: string;
  /** What to run. */
  launch: HeadlessLaunch;
  /** Working directory. */
  cwd: string;
  /** Extra environment. */
  env?: Record<string, string>;
  /** A fresh parser for this run. */
  parser: HeadlessParser;
  /** Stop the agent after this long without stdout output (ms); null: never. */
  stallMs: number | null;
  /** Stop the agent at this instant (epoch ms); null: no deadline. */
  deadline: number | null;
  /** Called for every event, in order, as it arrives. */
  onEvent(event: HeadlessEvent): void;
  /** Aborting stops the agent (e.g. on SIGINT). */
  signal?: AbortSignal;
  /**
   * A second source of events while the agent runs (its channel: a plugin, hooks, telemetry),
   * looked at every {@link CHANNEL_LOOK_MS}, its events handled like the stream's.
   */
  channel?: () => HeadlessEvent[];
}

/** How often a run's channel is looked at, in ms (as `uuldana run` looks at its folder). */
export const CHANNEL_LOOK_MS = 25;

/** How one agent process ended and what it said. */
export interface HeadlessRunOutcome {
  /** Exit code, or null when killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Why uuldana stopped it, if it did (`limit`: it waited to retry a quota). */
  stoppedFor: "stall" | "timeout" | "abort" | "limit" | null;
  /** The first limit reported (its reset time filled from later reports). */
  limit: LimitEvent | null;
  /** The final answer: the last successful result text, else the last agent message. */
  finalText: string;
  /** Whether the last result event was marked as an error (null: no result event). */
  resultIsError: boolean | null;
  /** The last error (non-limit) the agent reported. */
  lastError: string | null;
  /** Malformed lines skipped. */
  malformed: number;
  /** The end of stderr (bounded). */
  stderrTail: string;
  /** Set when the process could not be started. */
  spawnError: string | null;
}

/** Runs one agent to its end (or until stopped) and reports what happened. */
export async function runAgent(opts: HeadlessRunOptions): Promise<HeadlessRunOutcome> {
  const outcome: HeadlessRunOutcome = {
    exitCode: null,
    signal: null,
    stoppedFor: null,
    limit: null,
    finalText: "",
    resultIsError: null,
    lastError: null,
    malformed: 0,
    stderrTail: "",
    spawnError: null,
  };
  let lastAgentText = "";
  let resultText = "";
  const handle = (ev: HeadlessEvent) => {
    switch (ev.kind) {
      case "message":
        if (ev.role === "agent") lastAgentText = ev.text;
        break;
      case "limit":
        outcome.limit = _mergeLimit(outcome.limit, ev);
        // The agent waits to retry a quota: the work stands still until it is stopped.
        if (ev.retrying) stop("limit");
        break;
      case "error":
        outcome.lastError = ev.message;
        break;
      case "result":
        outcome.resultIsError = ev.isError;
        resultText = ev.isError ? "" : ev.text;
        break;
      case "malformed":
        outcome.malformed++;
        break;
    }
    opts.onEvent(ev);
  };

  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(opts.launch.argv[0], {
      args: opts.launch.argv.slice(1),
      cwd: opts.cwd,
      env: opts.env,
      stdin: opts.launch.stdin === null ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // Own session and process group, so a stop reaches the agent's children too.
      detached: true,
    }).spawn();
  } catch (e) {
    outcome.spawnError = (e as Error).message;
    return outcome;
  }

  const stopper = new _GroupStopper(child.pid);
  let stallTimer: _Timer | undefined;
  const armStall = () => {
    if (opts.stallMs === null) return;
    stallTimer?.cancel();
    stallTimer = _after(opts.stallMs, () => stop("stall"));
  };
  const stop = (why: "stall" | "timeout" | "abort" | "limit") => {
    if (outcome.stoppedFor !== null || exited) return;
    outcome.stoppedFor = why;
    stopper.stop();
  };
  let exited = false;
  const deadlineTimer = opts.deadline === null
    ? undefined
    : _after(opts.deadline - Date.now(), () => stop("timeout"));
  const onAbort = () => stop("abort");
  opts.signal?.addEventListener("abort", onAbort);
  if (opts.signal?.aborted) stop("abort");
  armStall();
  const channelTimer = opts.channel === undefined ? undefined : setInterval(() => {
    try {
      for (const ev of opts.channel!()) handle(ev);
    } catch {
      // A channel that fails is only quiet: the stream goes on.
    }
  }, CHANNEL_LOOK_MS);

  const stdinDone = opts.launch.stdin === null
    ? Promise.resolve()
    : _writeStdin(child.stdin, opts.launch.stdin);
  // The last stderr line that reads as a limit: used when the agent fails without a structured one.
  let stderrLimit: LimitEvent | null = null;
  const stderrLines = new LineSplitter(STDERR_LINE_MAX);
  const onStderrLine = (line: string) => {
    for (const ev of opts.parser.parseStderr?.(line) ?? []) handle(ev);
    const found = line.length <= _LIMIT_LINE_MAX ? classifyLimit(opts.agent, line) : null;
    if (found) stderrLimit = { kind: "limit", message: found.message, resetsAt: found.resetsAt };
  };
  const stderrDone = _tail(child.stderr, STDERR_TAIL_BYTES, (chunk) => {
    for (const line of stderrLines.push(chunk)) onStderrLine(line);
  }).then((t) => {
    for (const line of stderrLines.end()) onStderrLine(line);
    outcome.stderrTail = t;
  });
  const splitter = new LineSplitter();
  const reader = child.stdout.getReader();
  const stdoutDone = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        armStall();
        for (const line of splitter.push(value)) {
          for (const ev of opts.parser.parse(line)) handle(ev);
        }
      }
    } catch {
      // Cancelled after the drain period; what was read is kept.
    }
    for (const line of splitter.end()) for (const ev of opts.parser.parse(line)) handle(ev);
    for (const ev of opts.parser.finish()) handle(ev);
  })();

  const status = await child.status;
  exited = true;
  clearInterval(channelTimer);
  stallTimer?.cancel();
  deadlineTimer?.cancel();
  opts.signal?.removeEventListener("abort", onAbort);
  // Grandchildren may still hold stdout/stderr open: drain briefly, then stop the group.
  if (!await _within(Promise.all([stdoutDone, stderrDone]), _DRAIN_MS)) {
    stopper.signalGroup("SIGKILL");
    await reader.cancel().catch(() => {});
    await Promise.all([stdoutDone, stderrDone]);
  }
  // A stopped agent's leader may exit on SIGTERM while children that ignore it (and hold no pipe)
  // live on: the group was told to stop, so nothing of it may outlive the run.
  if (outcome.stoppedFor !== null) stopper.signalGroup("SIGKILL");
  stopper.dispose();
  await stdinDone;

  outcome.exitCode = status.signal ? null : status.code;
  outcome.signal = status.signal ?? null;
  outcome.finalText = resultText || lastAgentText;
  // Some CLIs print the limit only as plain text before a non-zero exit.
  if (outcome.limit === null && outcome.exitCode !== 0 && outcome.stoppedFor === null) {
    if (stderrLimit) handle(stderrLimit);
  }
  return outcome;
}

// The first limit wins; later ones fill in what it lacks (a reset time, the agent's own words).
function _mergeLimit(cur: LimitEvent | null, next: LimitEvent): LimitEvent {
  if (cur === null) return { ...next };
  return {
    kind: "limit",
    message: cur.synthetic && !next.synthetic ? next.message : cur.message,
    resetsAt: cur.resetsAt ?? next.resetsAt,
    synthetic: cur.synthetic && next.synthetic,
  };
}

/** A cancellable timer. */
interface _Timer {
  cancel(): void;
}

// setTimeout fires at once for delays past 2^31 - 1 ms (~24.8 days): longer waits are chained.
const _MAX_DELAY_MS = 2 ** 31 - 1;

function _after(ms: number, fn: () => void): _Timer {
  const due = Date.now() + ms;
  let timer: ReturnType<typeof setTimeout>;
  const arm = () => {
    const left = due - Date.now();
    timer = setTimeout(left > _MAX_DELAY_MS ? arm : fn, Math.max(0, Math.min(left, _MAX_DELAY_MS)));
  };
  arm();
  return { cancel: () => clearTimeout(timer) };
}

async function _within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function _writeStdin(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch {
    // The agent closed its stdin early (or exited): nothing more to deliver.
  }
}

// Keeps the last `max` bytes of a stream, handing each chunk to `each` as it arrives.
async function _tail(
  stream: ReadableStream<Uint8Array>,
  max: number,
  each: (chunk: Uint8Array) => void,
): Promise<string> {
  let chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      each(chunk);
      chunks.push(chunk);
      size += chunk.length;
      while (size - chunks[0].length >= max) size -= chunks.shift()!.length;
    }
  } catch {
    // Cancelled or broken pipe: keep what arrived.
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  chunks = [];
  return new TextDecoder().decode(all.subarray(Math.max(0, size - max)));
}

// Stops a process group: SIGTERM, then SIGKILL after a grace period.
class _GroupStopper {
  readonly #pgid: number;
  #killTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(pgid: number) {
    this.#pgid = pgid;
  }

  stop(): void {
    this.signalGroup("SIGTERM");
    this.#killTimer = setTimeout(() => this.signalGroup("SIGKILL"), KILL_GRACE_MS);
  }

  signalGroup(signal: Deno.Signal): void {
    try {
      Deno.kill(-this.#pgid, signal);
    } catch {
      // Already gone.
    }
  }

  dispose(): void {
    clearTimeout(this.#killTimer);
  }
}
