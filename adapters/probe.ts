/**
 * Running an agent's binary briefly to ask it something (`--version`, `--help`, `opencode
 * import`): bounded in time and output, given a second, longer limit when the first one passes,
 * and sharing one time budget and a few slots with the other probes of a command, so seven agents
 * probed at once neither overrun it nor starve each other of the CPU. I/O.
 *
 * @module
 */

import { watchedArgv } from "../src/pty/watched_child.ts";
import { concatBytes } from "../src/bytes.ts";

/** How long a `--version` or `--help` probe may take before it counts as slow. */
export const PROBE_TIMEOUT_MS = 3000;

/**
 * How long a slow probe may take in all: a slow start (Gemini CLI relaunching itself, a first run
 * unpacking, a busy machine) is not a refusal.
 */
export const PROBE_RETRY_TIMEOUT_MS = 15_000;

/** The most a probe reads from each of stdout and stderr; past it the program is killed. */
export const PROBE_OUTPUT_CAP = 1024 * 1024;

/**
 * How long all the probes of one command may take together: `uuldana agents` answers within it,
 * whatever the agents do (a probe still running then is stopped and said to be unfinished).
 */
export const PROBE_BUDGET_MS = 20_000;

/** The output of a short probe run. */
export interface ProbeOutput {
  /** Exit code, or null when it was killed on timeout. */
  code: number | null;
  /** stdout and stderr, decoded. */
  stdout: string;
  stderr: string;
  /** It did not finish in time and was killed. */
  timedOut: boolean;
  /** It printed more than the cap: the output is cut there and the program was killed. */
  truncated: boolean;
  /** How long it ran, in milliseconds. */
  ms: number;
}

/**
 * Runs `path args` without a terminal (stdin null), collecting output, killed after `timeoutMs`
 * or once it printed more than `maxBytes` on one stream (memory stays bounded whatever it prints).
 * Grandchildren that keep the pipes open do not make it hang.
 */
export async function runProbe(
  path: string,
  args: string[],
  opts: {
    timeoutMs?: number;
    cwd?: string;
    env?: Record<string, string>;
    maxBytes?: number;
    /** At this time, a run whose output so far is `enough` is stopped there (`timedOut`). */
    checkAtMs?: number;
    enough?: (stdout: string, stderr: string) => boolean;
  } = {},
): Promise<ProbeOutput> {
  const started = performance.now();
  const cap = opts.maxBytes ?? PROBE_OUTPUT_CAP;
  let truncated = false;
  let overflow: () => void = () => {};
  const overflowed = new Promise<"overflow">((r) => overflow = () => r("overflow"));
  const child = new Deno.Command(path, {
    args,
    cwd: opts.cwd,
    env: { NO_COLOR: "1", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const chunks = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
  const readers = [
    child.stdout.getReader(),
    child.stderr.getReader(),
  ] as const;
  const drain = async (r: ReadableStreamDefaultReader<Uint8Array>, into: Uint8Array[]) => {
    let kept = 0;
    try {
      for (;;) {
        const { done, value } = await r.read();
        if (done) return;
        if (kept + value.length > cap) {
          into.push(value.subarray(0, cap - kept));
          truncated = true;
          overflow();
          return;
        }
        into.push(value);
        kept += value.length;
      }
    } catch {
      // cancelled on timeout
    }
  };
  const drained = Promise.all([
    drain(readers[0], chunks.stdout),
    drain(readers[1], chunks.stderr),
  ]);
  const dec = (parts: Uint8Array[]) => new TextDecoder().decode(concatBytes(parts));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let check: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), opts.timeoutMs ?? PROBE_TIMEOUT_MS);
    const { checkAtMs, enough } = opts;
    if (checkAtMs === undefined || !enough) return;
    check = setTimeout(() => {
      if (enough(dec(chunks.stdout), dec(chunks.stderr))) r("timeout");
    }, checkAtMs);
  });
  const outcome = await Promise.race([child.status.then((s) => s), timeout, overflowed]);
  clearTimeout(check);
  let code: number | null = null;
  let timedOut = false;
  if (outcome === "timeout" || outcome === "overflow") {
    timedOut = outcome === "timeout";
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  } else {
    code = outcome.code;
  }
  // Output still held open by a grandchild gets a short grace period, then is cut.
  const grace = new Promise<void>((r) => setTimeout(r, timedOut || truncated ? 0 : 200));
  await Promise.race([drained, grace]);
  clearTimeout(timer);
  for (const r of readers) r.cancel().catch(() => {});
  await drained;
  return {
    code,
    stdout: dec(chunks.stdout),
    stderr: dec(chunks.stderr),
    timedOut,
    truncated,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The time and the processes the probes of one command share. Probes wait for one of `slots`
 * before they start (their own time limit runs only once they do), and none runs past the
 * deadline: on two cores, fourteen agents starting at once would each take many times its own
 * start-up and time out together.
 *
 * @example
 * ```ts
 * const budget = new ProbeBudget({ totalMs: 20_000, slots: 3 });
 * const out = await probeTwice("/usr/bin/codex", ["--version"], { budget });
 * ```
 */
export class ProbeBudget {
  /** When every probe must have ended, in `performance.now()` milliseconds. */
  readonly deadline: number;
  /** The whole budget, for messages. */
  readonly totalMs: number;
  readonly #slots: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(opts: { totalMs?: number; slots?: number } = {}) {
    this.totalMs = opts.totalMs ?? PROBE_BUDGET_MS;
    this.deadline = performance.now() + this.totalMs;
    this.#slots = Math.max(1, opts.slots ?? defaultProbeSlots());
  }

  /** Milliseconds left before the deadline (0 when it passed). */
  remainingMs(): number {
    return Math.max(0, Math.round(this.deadline - performance.now()));
  }

  /** Runs `fn` once a slot is free, freeing it after. */
  async inSlot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#slots) await new Promise<void>((r) => this.#waiting.push(r));
    this.#running++;
    try {
      return await fn();
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }
}

/**
 * How many probes run at once: one more than the cores, since an agent's start also waits on its
 * disk, but no more, since most of it is JavaScript compiling on a core (measured: on two cores,
 * Gemini CLI's `--version` takes 2.2 s of CPU; fourteen probes at once took 40 s together).
 */
export function defaultProbeSlots(): number {
  return (navigator.hardwareConcurrency || 2) + 1;
}

/** What {@link patientProbe} found, and how. */
export interface PatientProbe {
  /** The run's output. */
  out: ProbeOutput;
  /** It had not answered within the first limit, so it was given the longer one. */
  slow: boolean;
  /** The first and the longer limit it had, in milliseconds (0: it never started). */
  limitsMs: [number, number];
  /** The budget ran out before it could have its full limits: it was cut short. */
  outOfBudget: boolean;
}

/**
 * Runs `path args` in a slot of `budget`. A run that has not answered within `timeoutMs` is not
 * killed and started again (that would throw away a slow start's work: Gemini CLI's `--version`
 * alone takes 2.3–4.8 s on a two-core machine): it is given up to `retryTimeoutMs` in all, unless
 * its output so far is already `enough` (the help line shown); never past the budget's deadline.
 * A budget already spent runs nothing: `out.timedOut` with no output, `outOfBudget` set.
 */
export async function patientProbe(
  path: string,
  args: string[],
  opts: {
    env?: Record<string, string>;
    budget?: ProbeBudget;
    timeoutMs?: number;
    retryTimeoutMs?: number;
    enough?: (stdout: string, stderr: string) => boolean;
  } = {},
): Promise<PatientProbe> {
  const budget = opts.budget ?? new ProbeBudget({ slots: 1 });
  const first = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const longer = Math.max(first, opts.retryTimeoutMs ?? PROBE_RETRY_TIMEOUT_MS);
  return await budget.inSlot(async () => {
    const room = budget.remainingMs();
    const limitsMs: [number, number] = [Math.min(first, room), Math.min(longer, room)];
    if (room <= 0) {
      const none = { code: null, stdout: "", stderr: "", timedOut: true, truncated: false, ms: 0 };
      return { out: none, slow: false, limitsMs, outOfBudget: true };
    }
    // In a process group of its own, watched: a probe stopped at its limit takes what it started
    // with it (a Node launcher's real binary), and so does a uuldana that dies.
    const [bin, ...rest] = watchedArgv([path, ...args], Deno.pid);
    const out = await runProbe(bin, rest, {
      env: opts.env,
      timeoutMs: limitsMs[1],
      checkAtMs: limitsMs[0],
      enough: opts.enough,
    });
    return { out, slow: out.ms >= limitsMs[0], limitsMs, outOfBudget: limitsMs[1] < longer };
  });
}
