/**
 * An agent running in its own pseudo-terminal made by the system `script`: bytes in, bytes out,
 * resize, and a stop that escalates from the agent's own quit keys to SIGTERM to SIGKILL and
 * leaves no process behind.
 *
 * The agent is script's only child and, inside the pty, a session leader: its pgid and sid equal
 * its pid. On Linux it is found through `/proc`, elsewhere through `pgrep`/`ps`.
 *
 * @module
 */
import { detectScriptFlavour, OUTER_SHELL_VAR, scriptArgv, type ScriptFlavour } from "./script.ts";
import { UsageError, UuldanaError } from "../errors.ts";
import {
  alive,
  childrenOf,
  cmdline,
  kill,
  sessionMembers,
  sweepSession,
  ttyOf,
} from "./process_table.ts";
import { SIGNAL_NUMBERS, signalName } from "./signals.ts";

/** How a pty process ended. */
export interface PtyExit {
  /** Exit code: the agent's (script `-e`), or 128 + signal number when a signal ended it. */
  code: number;
  /** The signal that ended it when uuldana sent one (or `script` itself died of one), else null. */
  signal: string | null;
  /** What ended it: the agent on its own, its quit keys, or the escalation signal. */
  stoppedBy: "exit" | "quit-keys" | "SIGTERM" | "SIGKILL";
}

/** A running agent inside a `script` pseudo-terminal. */
export interface PtyProcess {
  /** The pid of `script`. */
  readonly pid: number;
  /** The agent's pid (script's child; also its pgid and sid), or null once it is gone. */
  agentPid(): Promise<number | null>;
  /** Every byte the agent wrote to its terminal, in order, unchanged. Read it to the end. */
  readonly output: ReadableStream<Uint8Array>;
  /** Sends bytes to the agent as typed keys. A no-op once the process has exited. */
  write(data: Uint8Array): Promise<void>;
  /** Sets the pty's window size; the kernel sends the agent SIGWINCH. */
  resize(cols: number, rows: number): Promise<void>;
  /** Stops the agent: quit keys, then SIGTERM to its group, then SIGKILL to its whole session. */
  stop(opts?: StopOptions): Promise<PtyExit>;
  /** Resolves when `script` has exited. */
  readonly exited: Promise<PtyExit>;
  /** The last few KB `script` itself wrote to stderr (its own errors, never the agent's). */
  readonly scriptStderr: string;
}

/** Options for {@linkcode PtyProcess.stop}. */
export interface StopOptions {
  /** Keys the agent quits on (e.g. `"\x03"`, `"/quit\r"`), written in order. */
  quitKeys?: readonly string[];
  /** How long to wait after the quit keys (ms, default 3000). */
  graceMs?: number;
  /** How long to wait after SIGTERM before SIGKILL (ms, default 3000). */
  termMs?: number;
}

/** Options for {@linkcode spawnPty}. */
export interface SpawnPtyOptions {
  /** The agent's argv; argv[0] is the program. */
  argv: string[];
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** Initial window size, in effect before the agent starts. */
  cols: number;
  rows: number;
  /**
   * Hand out each output chunk as a view of the shim's read buffer, valid only until the next
   * chunk is read, instead of a copy. For a consumer that uses every chunk at once and keeps none
   * (the session): no allocation per chunk, so a burst does not pile up buffers awaiting GC.
   */
  borrowChunks?: boolean;
}

const _isLinux = Deno.build.os === "linux";
const _STDERR_TAIL = 4096;

/** Starts `argv` in a new pty of the given size through the system `script`. */
export async function spawnPty(opts: SpawnPtyOptions): Promise<PtyProcess> {
  const info = await detectScriptFlavour();
  const sc = scriptArgv(info.flavour, opts.argv, { cols: opts.cols, rows: opts.rows }, {
    watchPid: Deno.pid,
  });
  const base = { ...Deno.env.toObject(), ...(opts.env ?? {}) };
  const env = { ...base, ...sc.env, [OUTER_SHELL_VAR]: base.SHELL ?? "" };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(info.path, {
      args: sc.args,
      env,
      cwd: opts.cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new UuldanaError(`cannot start script: ${e instanceof Error ? e.message : e}`);
  }
  return new _ScriptPty(child, info.flavour, opts.borrowChunks ?? false);
}

class _ScriptPty implements PtyProcess {
  readonly pid: number;
  readonly output: ReadableStream<Uint8Array>;
  readonly exited: Promise<PtyExit>;
  #child: Deno.ChildProcess;
  #flavour: ScriptFlavour;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #writeChain: Promise<void> = Promise.resolve();
  #resizeChain: Promise<void> = Promise.resolve();
  #done = false;
  #exit: PtyExit | null = null;
  #phase: PtyExit["stoppedBy"] = "exit";
  #sentSignal: string | null = null;
  #agent: number | null = null;
  #agentLookup: Promise<number | null> | null = null;
  #stopping: Promise<PtyExit> | null = null;
  #stderrTail = "";

  constructor(child: Deno.ChildProcess, flavour: ScriptFlavour, borrowChunks: boolean) {
    this.#child = child;
    this.#flavour = flavour;
    this.pid = child.pid;
    this.output = _exactChunks(child.stdout, borrowChunks);
    this.#writer = child.stdin.getWriter();
    const stderrDone = this.#drainStderr();
    this.exited = child.status.then(async (status) => {
      this.#done = true;
      await this.#writer.close().catch(() => {});
      await stderrDone;
      this.#exit = this.#toExit(status);
      return this.#exit;
    });
    // Learn the agent's pid early so a later sweep can find its session even after a quick exit.
    this.agentPid().catch(() => {});
  }

  get scriptStderr(): string {
    return this.#stderrTail;
  }

  async #drainStderr(): Promise<void> {
    const dec = new TextDecoder();
    try {
      for await (const chunk of this.#child.stderr) {
        this.#stderrTail = (this.#stderrTail + dec.decode(chunk, { stream: true }))
          .slice(-_STDERR_TAIL);
      }
    } catch {
      // stream closed
    }
  }

  #toExit(status: Deno.CommandStatus): PtyExit {
    const stoppedBy = this.#phase;
    if (status.signal !== null) {
      return {
        code: 128 + (SIGNAL_NUMBERS[status.signal] ?? 0),
        signal: status.signal,
        stoppedBy,
      };
    }
    // script -e reports a signalled agent as 128 + n; after a signal we sent, name it.
    let signal: string | null = null;
    if (this.#sentSignal !== null && status.code > 128) {
      signal = signalName(status.code - 128);
    }
    return { code: status.code, signal, stoppedBy };
  }

  agentPid(): Promise<number | null> {
    if (this.#agent !== null) return Promise.resolve(this.#done ? null : this.#agent);
    this.#agentLookup ??= this.#findAgent();
    return this.#agentLookup.then((pid) => this.#done ? null : pid);
  }

  async #findAgent(): Promise<number | null> {
    const deadline = Date.now() + 5000;
    while (!this.#done && Date.now() < deadline) {
      const kids = await childrenOf(this.pid);
      if (kids.length > 0) {
        this.#agent = kids[0];
        return this.#agent;
      }
      await _sleep(_isLinux ? 5 : 25); // elsewhere each look is a pgrep process
    }
    this.#agentLookup = null;
    return null;
  }

  write(data: Uint8Array): Promise<void> {
    const next = this.#writeChain.then(async () => {
      if (this.#done) return;
      try {
        await this.#writer.write(data);
      } catch (e) {
        if (this.#done || e instanceof Deno.errors.BrokenPipe) return;
        throw e;
      }
    });
    this.#writeChain = next.catch(() => {});
    return next;
  }

  resize(cols: number, rows: number): Promise<void> {
    if (![cols, rows].every((n) => Number.isInteger(n) && n >= 1 && n <= 65_535)) {
      return Promise.reject(new UsageError(`invalid terminal size ${cols}x${rows}`));
    }
    const next = this.#resizeChain.then(() => this.#applySize(cols, rows));
    this.#resizeChain = next.catch(() => {});
    return next;
  }

  async #applySize(cols: number, rows: number): Promise<void> {
    const agent = await this.agentPid();
    if (agent === null) return;
    // The prelude sets the start size itself; a resize before it finishes would be overwritten.
    // So wait until the agent runs: past script's fork (the child still has script's own command
    // line until it execs the shell) and past the prelude (whose command line names
    // OUTER_SHELL_VAR). On a loaded machine that takes seconds (3 s was too short at load 12).
    const scripts = await cmdline(this.pid);
    const deadline = Date.now() + 15_000;
    while (!this.#done && Date.now() < deadline) {
      // An empty command line is a process between fork and exec (or gone: then no tty below).
      const line = await cmdline(agent);
      if (line !== "" && line !== scripts && !line.includes(OUTER_SHELL_VAR)) break;
      await _sleep(5);
    }
    let tty = await ttyOf(agent);
    // Its controlling terminal may be set a moment after the exec.
    while (tty === null && !this.#done && Date.now() < deadline && (await alive(agent))) {
      await _sleep(5);
      tty = await ttyOf(agent);
    }
    if (tty === null || this.#done) return;
    const flag = this.#flavour === "bsd" || !_isLinux ? "-f" : "-F";
    const r = await new Deno.Command("stty", {
      args: [flag, tty, "cols", String(cols), "rows", String(rows)],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output().catch(() => null);
    if (r !== null && !r.success && !this.#done && (await alive(agent))) {
      throw new UuldanaError(`cannot resize ${tty}: ${new TextDecoder().decode(r.stderr).trim()}`);
    }
  }

  stop(opts: StopOptions = {}): Promise<PtyExit> {
    if (this.#exit !== null) return Promise.resolve(this.#exit);
    this.#stopping ??= this.#stop(opts);
    return this.#stopping;
  }

  async #stop(opts: StopOptions): Promise<PtyExit> {
    const graceMs = opts.graceMs ?? 3000;
    const termMs = opts.termMs ?? 3000;
    const agent = this.#done ? this.#agent : await _race(this.agentPid(), this.exited, null);
    const sid = this.#agent ?? agent;
    try {
      const keys = opts.quitKeys ?? [];
      if (keys.length > 0 && !this.#done) {
        this.#phase = "quit-keys";
        const gap = Math.min(150, graceMs / (keys.length + 1));
        for (const [i, key] of keys.entries()) {
          if (this.#done) break;
          if (i > 0) await _race(_sleep(gap), this.exited, null);
          await this.write(new TextEncoder().encode(key));
        }
        if (await _settled(this.exited, graceMs)) return await this.exited;
      }
      if (!this.#done) {
        this.#phase = "SIGTERM";
        this.#sentSignal = "SIGTERM";
        kill(sid !== null ? -sid : this.pid, "SIGTERM");
        if (await _settled(this.exited, termMs)) return await this.exited;
      }
      if (!this.#done) {
        this.#phase = "SIGKILL";
        this.#sentSignal = "SIGKILL";
        if (sid !== null) {
          kill(-sid, "SIGKILL");
          for (const pid of await sessionMembers(sid)) kill(pid, "SIGKILL");
        }
        if (!(await _settled(this.exited, 1000))) kill(this.pid, "SIGKILL");
      }
      return await this.exited;
    } finally {
      // Whatever the agent started in its session and did not take down with it.
      if (sid !== null) await sweepSession(sid);
    }
  }
}

/**
 * Re-chunks script's stdout so each chunk owns a buffer of exactly its size. A pty read is a few
 * KB, but the default reader hands out views of a fresh 64 KiB buffer each time, which kept up to
 * ~16× the data alive until GC (RSS +50 MB on a 100 MB burst). Reading BYOB into one reused
 * buffer and copying out only what was read costs one small copy and keeps RSS flat.
 */
function _exactChunks(
  source: ReadableStream<Uint8Array>,
  borrow: boolean,
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = source.getReader({ mode: "byob" });
  } catch {
    return source; // not a byte stream: hand it out as it is
  }
  let buf = new Uint8Array(65_536);
  // Borrowed chunks alternate between two buffers, and nothing is read ahead (high-water mark 0):
  // the next read only starts once the consumer asked for the next chunk, so the one it holds is
  // never written under it.
  let spare = borrow ? new Uint8Array(65_536) : null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await reader.read(buf);
      if (done || value === undefined) {
        controller.close();
        return;
      }
      if (spare) {
        controller.enqueue(value);
        buf = spare;
        spare = new Uint8Array(value.buffer);
        return;
      }
      controller.enqueue(value.slice());
      buf = new Uint8Array(value.buffer);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: borrow ? 0 : 1 });
}

function _sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves `p` or, when `other` settles first, `fallback`. */
function _race<T, F>(p: Promise<T>, other: Promise<unknown>, fallback: F): Promise<T | F> {
  return Promise.race([p, other.then(() => fallback, () => fallback)]);
}

/** True when `p` settles within `ms`. */
async function _settled(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([p.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
