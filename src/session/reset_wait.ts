/**
 * Waiting for a usage limit to reset, with a countdown on stderr; Ctrl-C (a key in raw mode, or
 * the abort signal) stops the wait.
 *
 * @module
 */
import type { Keyboard } from "./keyboard.ts";

function _format(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h ? `${h}h` : ""}${String(m).padStart(h ? 2 : 1, "0")}m${
    String(s % 60).padStart(2, "0")
  }s`;
}

/** How a wait ended: the reset time came, or the user stopped it (Ctrl-C key or a signal). */
export type WaitResult = "reset" | "stopped";

/** Waits until `at`. */
export function waitForReset(
  at: Date,
  opts: {
    keyboard: Keyboard;
    status: (line: string) => void;
    abort?: AbortSignal;
    tickMs?: number;
  },
): Promise<WaitResult> {
  // A signal that came before the wait began (during the switch) must not be missed.
  if (opts.abort?.aborted) return Promise.resolve("stopped");
  return new Promise((resolve) => {
    const encoder = new TextEncoder();
    const tty = Deno.stderr.isTerminal();
    const done = (result: WaitResult) => {
      clearInterval(timer);
      opts.keyboard.setSink(null);
      opts.abort?.removeEventListener("abort", onAbort);
      if (tty) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
      resolve(result);
    };
    const onAbort = () => done("stopped");
    opts.abort?.addEventListener("abort", onAbort);
    opts.keyboard.setSink((bytes) => {
      if (bytes.includes(0x03)) {
        opts.status("stopped waiting (Ctrl-C)");
        done("stopped");
      }
    });
    let lastMinute = -1;
    const tick = () => {
      const left = at.getTime() - Date.now();
      if (left <= 0) return done("reset");
      if (tty) {
        Deno.stderr.writeSync(
          encoder.encode(`\r\x1b[Kuuldana: resuming in ${_format(left)} (Ctrl-C to stop)`),
        );
      } else if (Math.floor(left / 60_000) !== lastMinute) {
        lastMinute = Math.floor(left / 60_000);
        opts.status(`resuming in ${_format(left)}`);
      }
    };
    const timer = setInterval(tick, opts.tickMs ?? 1000);
    tick();
  });
}
