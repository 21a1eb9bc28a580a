/**
 * The user's terminal around a chain: fully raw while agents run, resizes followed, signals
 * handled, and the terminal restored exactly on every exit path.
 *
 * @module
 */
import { enterRawMode, type RawMode, terminalSize } from "../pty/raw_mode.ts";
import type { AgentRun, UserTerminal } from "./agent_run.ts";
import type { ChainOptions } from "./chain.ts";
import { type Keyboard, NoKeyboard, StdinKeyboard } from "./keyboard.ts";
import type { NotifyConfig } from "../config/config.ts";
import { Notifier } from "../notify/notifier.ts";
import { HeldLines } from "./held_lines.ts";

const _encoder = new TextEncoder();
/** How many times (20 ms apart) a notification waits for the agent's output to be between sequences. */
const _BETWEEN_TRIES = 50;

/** The terminal side of `uuldana run`. */
export class TerminalSession {
  /** Bytes to the user's screen. */
  readonly user: UserTerminal = { write: (bytes) => this.#writeStdout(bytes) };
  /** The user's keys. */
  readonly keyboard: Keyboard;
  /** Aborted when the user asks uuldana to stop (signal). */
  readonly abort = new AbortController();
  readonly #raw: RawMode | null;
  readonly #fallback: { cols: number; rows: number };
  readonly #signals: [Deno.Signal, () => void][] = [];
  #run: AgentRun | null = null;
  /** Status lines said while an agent is on the screen: shown once the screen is ours again. */
  readonly #held = new HeldLines();
  /**
   * The agents draw on a terminal (stdout is one): a line said while one runs would land in its
   * screen. Into a pipe or a file (CI) nothing is drawn, and lines are said as they come.
   */
  readonly #screen = Deno.stdout.isTerminal();
  readonly #notifiers: Notifier[] = [];
  /** stdout failed (the terminal hung up, the pipe closed): later output is dropped. */
  #stdoutGone = false;

  constructor(opts: { cols?: number; rows?: number; readKeys?: boolean }) {
    this.#fallback = { cols: opts.cols ?? 120, rows: opts.rows ?? 40 };
    this.#raw = enterRawMode();
    this.keyboard = opts.readKeys === false ? new NoKeyboard() : new StdinKeyboard().start();
    this.#listen("SIGWINCH", () => {
      const size = this.size();
      this.#run?.resize(size.cols, size.rows);
    });
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      this.#listen(sig, () => {
        this.abort.abort(sig);
        if (this.#run) this.#run.stop(sig);
        else this.close();
      });
    }
    // Last resort for paths that skip `finally` (Deno.exit from elsewhere).
    globalThis.addEventListener("unload", () => this.close());
  }

  #listen(sig: Deno.Signal, fn: () => void): void {
    try {
      Deno.addSignalListener(sig, fn);
      this.#signals.push([sig, fn]);
    } catch {
      // SIGWINCH and friends do not exist on every platform.
    }
  }

  /**
   * Writes all of `bytes` to stdout (a partial write is continued, never dropped). Never throws:
   * it runs inside the output loop and the signal handlers, which must go on to stop and record
   * the agent when the terminal is gone.
   */
  #writeStdout(bytes: Uint8Array): void {
    if (this.#stdoutGone) return;
    try {
      let at = 0;
      while (at < bytes.length) at += Deno.stdout.writeSync(bytes.subarray(at));
    } catch {
      this.#stdoutGone = true;
    }
  }

  /**
   * Writes notification bytes (bell, OSC 9) to the user's terminal, beside the agent's output and
   * never into its pty; null when stdout is not a terminal, so a pipe or a log stays clean.
   */
  notificationWriter(): ((text: string) => void) | null {
    if (!Deno.stdout.isTerminal()) return null;
    return (text) => this.#writeBetween(_encoder.encode(text));
  }

  /**
   * Writes `bytes` once the running agent's output is between sequences: a notification inserted
   * inside one of its sequences (a pty read may end mid-sequence) would break both. Looked at
   * every 20 ms, at most a second: an agent stuck mid-sequence that long gets it all the same.
   */
  #writeBetween(bytes: Uint8Array, tries = _BETWEEN_TRIES): void {
    const run = this.#run;
    if (!run || run.betweenSequences || tries <= 0) return this.#writeStdout(bytes);
    setTimeout(() => this.#writeBetween(bytes, tries - 1), 20);
  }

  /** Whether the user's terminal is a TTY in raw mode. */
  get raw(): boolean {
    return this.#raw !== null;
  }

  /** The size agents get: the user's terminal, else the fallback (--cols/--rows or 120x40). */
  size(): { cols: number; rows: number } {
    return terminalSize() ?? this.#fallback;
  }

  /**
   * Tracks the current run (for resizes and signals). While one is set its agent owns the screen
   * and status lines are held; once it is cleared (the agent stopped for a switch, or gone) the
   * screen is uuldana's again and what was held is said, in order.
   */
  setRun(run: AgentRun | null): void {
    this.#run = run;
    if (!run) this.#sayHeld();
  }

  /**
   * One status line for the user, on stderr, reading well in raw mode too. Said at once while the
   * screen is uuldana's (before an agent starts, at a switch, after exit), the rest of the screen
   * below cleared (what is there belongs to the agent that just stopped). While an agent runs
   * nothing is written into its screen: the line is held until it is gone (held_lines.ts says why);
   * what must reach the user at once goes out as a notification too (its callers send one). With
   * no screen (stdout not a terminal) every line is said at once.
   */
  status = (line: string): void => {
    if (this.#run && this.#screen) this.#held.keep(line);
    else this.#say(line);
  };

  #say(line: string): void {
    const text = this.#raw ? `\r\x1b[Juuldana: ${line}\r\n` : `uuldana: ${line}\n`;
    try {
      Deno.stderr.writeSync(_encoder.encode(text));
    } catch {
      // stderr gone: the journal still has everything.
    }
  }

  #sayHeld(): void {
    for (const line of this.#held.take()) this.#say(line);
  }

  /**
   * What a chain takes from this terminal: screen, keys, size, status lines, runs, signals, and
   * notifications as `notify` configures them.
   */
  chainIO(
    notify: NotifyConfig,
  ): Pick<ChainOptions, "user" | "keyboard" | "size" | "status" | "onRun" | "abort" | "notify"> {
    const notifier = new Notifier({
      config: notify,
      terminal: this.notificationWriter(),
      status: this.status,
    });
    this.#notifiers.push(notifier);
    return {
      notify: (event) => notifier.notify(event),
      user: this.user,
      keyboard: this.keyboard,
      size: () => this.size(),
      status: this.status,
      onRun: (run) => this.setRun(run),
      abort: this.abort.signal,
    };
  }

  /** Resolves once every notify command started has ended (each is bounded by its timeout). */
  async notificationsSent(): Promise<void> {
    await Promise.all(this.#notifiers.map((n) => n.settled()));
  }

  /** Says what is still held, restores the terminal and stops listening. Idempotent. */
  close(): void {
    // A chain that threw mid-run never cleared its run: its lines are said before the terminal
    // is given back (signals and exits clear it first).
    this.#run = null;
    this.#sayHeld();
    this.#raw?.restore();
    this.keyboard.close();
    for (const [sig, fn] of this.#signals.splice(0)) {
      try {
        Deno.removeSignalListener(sig, fn);
      } catch {
        // already gone
      }
    }
  }
}
