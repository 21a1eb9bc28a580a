/**
 * A real outer terminal for integration tests: a private tmux server running one command.
 *
 * @module
 */

/** One tmux server with one window, killed by `close()`. */
export class TmuxTerminal {
  readonly socket = `uuldana-test-${crypto.randomUUID().slice(0, 8)}`;

  async #tmux(...args: string[]): Promise<string> {
    const out = await new Deno.Command("tmux", {
      args: ["-L", this.socket, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    if (!out.success) {
      throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout);
  }

  /** Starts `argv` in a detached window of `cols`×`rows` with `env` added. */
  async start(
    argv: readonly string[],
    opts: { cols: number; rows: number; env?: Record<string, string>; cwd?: string },
  ): Promise<void> {
    const env = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${_quote(v)}`).join(" ");
    const cmd = `${env ? `env ${env} ` : ""}${
      argv.map(_quote).join(" ")
    }; echo "[exit $?]"; sleep 600`;
    await this.#tmux(
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(opts.cols),
      "-y",
      String(opts.rows),
      ...(opts.cwd ? ["-c", opts.cwd] : []),
      cmd,
    );
    await this.#tmux("set-option", "-g", "status", "off").catch(() => {});
  }

  /**
   * Appends every byte the window's program writes (before tmux interprets it) to `file`: what
   * reached the outer terminal, control sequences included.
   */
  async recordOutput(file: string): Promise<void> {
    await this.#tmux("pipe-pane", "-O", `cat >> ${_quote(file)}`);
  }

  /** Types keys (tmux key names or literal text with `literal`). */
  async send(keys: string, literal = false): Promise<void> {
    await this.#tmux("send-keys", ...(literal ? ["-l"] : []), keys);
  }

  /** Pastes `text` as the terminal would (bracketed when the program asked for it). */
  async paste(text: string): Promise<void> {
    await this.#tmux("set-buffer", "-b", "uuldana-test", "--", text);
    await this.#tmux("paste-buffer", "-p", "-d", "-b", "uuldana-test");
  }

  /**
   * Pastes the contents of `file` (via `load-buffer`, for texts too big for a command line), as
   * {@linkcode paste} does: bracketed when the program asked for it, each LF sent as CR.
   */
  async pasteFile(file: string): Promise<void> {
    await this.#tmux("load-buffer", "-b", "uuldana-test", file);
    await this.#tmux("paste-buffer", "-p", "-d", "-b", "uuldana-test");
  }

  /** The visible screen as text. */
  capture(): Promise<string> {
    return this.#tmux("capture-pane", "-p");
  }

  /** The scrollback and the visible screen as text, oldest line first, wrapped lines joined. */
  history(): Promise<string> {
    return this.#tmux("capture-pane", "-p", "-J", "-S", "-");
  }

  /** Appends everything the window's program writes from now on to `file` (raw bytes). */
  async record(file: string): Promise<void> {
    await this.#tmux("pipe-pane", "-o", `cat >> ${_quote(file)}`);
  }

  /** Resizes the window. */
  async resize(cols: number, rows: number): Promise<void> {
    await this.#tmux("resize-window", "-x", String(cols), "-y", String(rows));
  }

  /** Waits until the screen matches; throws with the screen on timeout. */
  async waitFor(pattern: string | RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.capture();
      if (typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen)) {
        return screen;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${pattern}; screen:\n${screen}`);
  }

  /** Kills the server and everything in it. */
  async close(): Promise<void> {
    await this.#tmux("kill-server").catch(() => {});
  }
}

function _quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
