/**
 * Tells the user about a switch, a wait for a reset or a return: the bell and a desktop
 * notification written to the user's terminal (never into an agent's pty), and the configured
 * `notify` command, run with the event as JSON on stdin. Never blocks and never throws: the command
 * runs in the background, is stopped after 5 s, and its first failure is reported once.
 *
 * @module
 */
import type { NotifyConfig } from "../config/config.ts";
import { type NotifyEvent, notifyText, takesOsc777, terminalNotification } from "./event.ts";

/** How long the `notify` command may run. */
export const NOTIFY_TIMEOUT_MS = 5_000;

/** What a notifier writes to and reports through. */
export interface NotifierOptions {
  config: NotifyConfig;
  /** Writes to the user's terminal; null when stdout is not a terminal (then it stays quiet). */
  terminal: ((text: string) => void) | null;
  /** One status line for the user (the command's first failure). */
  status(line: string): void;
  env?: (name: string) => string | undefined;
  /** How long the command may run (default {@link NOTIFY_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Sends notifications; see the module doc. */
export class Notifier {
  readonly #opts: NotifierOptions;
  readonly #osc777: boolean;
  #failed = false;
  readonly #running = new Set<Promise<void>>();

  constructor(opts: NotifierOptions) {
    this.#opts = opts;
    this.#osc777 = takesOsc777(opts.env ?? ((n) => Deno.env.get(n)));
  }

  /** Notifies of `event` (returns at once). */
  notify(event: NotifyEvent): void {
    const { config, terminal } = this.#opts;
    if (terminal && (config.bell || config.desktop)) {
      try {
        terminal(terminalNotification(event, {
          bell: config.bell,
          desktop: config.desktop,
          osc777: this.#osc777,
        }));
      } catch {
        // the terminal is gone: nobody to tell
      }
    }
    if (config.command) {
      const run = this.#run(config.command, event).finally(() => this.#running.delete(run));
      this.#running.add(run);
    }
  }

  /** Resolves when every command started so far has ended (tests, and a clean exit). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }

  async #run(argv: string[], event: NotifyEvent): Promise<void> {
    const json = JSON.stringify({
      ...event,
      text: notifyText(event),
      at: new Date().toISOString(),
    });
    let problem: string | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const timeoutMs = this.#opts.timeoutMs ?? NOTIFY_TIMEOUT_MS;
      timer = setTimeout(() => {
        problem = `it ran longer than ${timeoutMs / 1000} s and was stopped`;
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
      }, timeoutMs);
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(json + "\n")).catch(() => {});
      await writer.close().catch(() => {});
      const status = await child.status;
      if (problem === null && !status.success) problem = `it exited with code ${status.code}`;
    } catch (e) {
      problem = (e as Error)?.message ?? String(e);
    } finally {
      clearTimeout(timer);
    }
    if (problem !== null && !this.#failed) {
      this.#failed = true;
      this.#opts.status(
        `the notify command ${JSON.stringify(argv[0])} failed (${problem}); ` +
          "later failures are not reported",
      );
    }
  }
}
