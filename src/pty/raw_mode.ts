/**
 * The user's terminal in fully raw mode, and its exact restoration.
 *
 * `stty raw -echo` rather than `Deno.stdin.setRaw(true)`: setRaw leaves output post-processing
 * (OPOST/ONLCR) on, which would turn the agent's `\n` into `\r\n` a second time. The settings are
 * saved with `stty -g` and put back verbatim with `stty <saved>`, synchronously, so a restore
 * works from signal handlers, `unload`, error events and `finally` blocks alike.
 *
 * @module
 */

/** A terminal in raw mode. */
export interface RawMode {
  /** Puts the saved settings back. Synchronous and idempotent; never throws. */
  restore(): void;
}

function _stty(args: string[]): { ok: boolean; out: string } {
  try {
    const r = new Deno.Command("stty", {
      args,
      stdin: "inherit",
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    return { ok: r.success, out: new TextDecoder().decode(r.stdout).trim() };
  } catch {
    return { ok: false, out: "" };
  }
}

/**
 * Switches the terminal on stdin to fully raw mode (no echo, no signals from keys, no output
 * processing). Returns null when stdin is not a terminal or stty fails. The returned restore also
 * runs on `unload`, an uncaught error and an unhandled rejection; a SIGTERM/SIGHUP handler is the
 * caller's (adding one changes how the process dies), and it should call `restore()`.
 */
export function enterRawMode(): RawMode | null {
  if (!Deno.stdin.isTerminal()) return null;
  const saved = _stty(["-g"]);
  if (!saved.ok || saved.out === "") return null;
  if (!_stty(["raw", "-echo"]).ok) {
    _stty([saved.out]);
    return null;
  }
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    globalThis.removeEventListener("unload", restore);
    globalThis.removeEventListener("error", restore);
    globalThis.removeEventListener("unhandledrejection", restore);
    _stty([saved.out]);
  };
  globalThis.addEventListener("unload", restore);
  globalThis.addEventListener("error", restore);
  globalThis.addEventListener("unhandledrejection", restore);
  return { restore };
}

/** The size of the user's terminal (stdout, else stderr or stdin), or null without a TTY. */
export function terminalSize(): { cols: number; rows: number } | null {
  if (!Deno.stdout.isTerminal() && !Deno.stderr.isTerminal() && !Deno.stdin.isTerminal()) {
    return null;
  }
  try {
    const { columns, rows } = Deno.consoleSize();
    if (columns > 0 && rows > 0) return { cols: columns, rows };
  } catch {
    // no console
  }
  return null;
}
