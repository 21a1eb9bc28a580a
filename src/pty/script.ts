/**
 * The system `script` command: which flavour is installed, and the exact argv that runs an agent
 * inside a fresh pseudo-terminal of a given size.
 *
 * Two flavours exist. util-linux `script -c CMD` hands CMD to `$SHELL -c`, so `SHELL=/bin/sh` is
 * forced (a fish or zsh login shell would read the prelude differently). BSD/macOS
 * `script file CMD ARGS…` executes its arguments directly.
 *
 * Either way a tiny `/bin/sh` prelude runs inside the pty first: it sets the window size (script
 * cannot read it, because its stdin is our pipe, not a terminal), puts back the user's `SHELL`,
 * then `exec`s the agent, so the agent keeps the prelude's pid and is the pty's session leader.
 *
 * The agent's arguments never appear in `script`'s own argv (nor in the prelude shell's): any
 * local user can read a process's arguments from `/proc/PID/cmdline`, and on the prompt road one
 * of them is the whole handoff. They travel in environment variables (`UULDANA_ARGV_0…`), which
 * only the same user and root can read (`/proc/PID/environ` is mode 0400); the prelude turns them
 * back into `"$@"` and unsets them before the `exec`, so the agent's environment does not carry
 * them either. The agent's own argv is what its road makes it (see `uuldana agents`).
 *
 * @module
 */
import { MAX_ARG_BYTES } from "../arg_limit.ts";
import { NotFoundError, UsageError } from "../errors.ts";

/** Which `script` implementation is installed. */
export type ScriptFlavour = "util-linux" | "bsd";

/** What {@linkcode detectScriptFlavour} found. */
export interface ScriptInfo {
  flavour: ScriptFlavour;
  /** Version reported by `script --version` (util-linux only), e.g. `2.38.1`. */
  version: string | null;
  /** Absolute path of the `script` binary. */
  path: string;
}

/** A command line ready for `Deno.Command`. */
export interface ScriptCommand {
  cmd: string;
  args: string[];
  /** Variables to set on top of the inherited environment. */
  env: Record<string, string>;
}

/**
 * Environment variable carrying the user's own `SHELL` across the forced `SHELL=/bin/sh`; the
 * prelude restores it (or unsets `SHELL` when it was empty) and removes this variable.
 */
export const OUTER_SHELL_VAR = "UULDANA_OUTER_SHELL";

/** Prefix of the environment variables carrying the agent's argv into the pty (see the module doc). */
export const ARGV_VAR_PREFIX = "UULDANA_ARGV_";

/**
 * Runs inside the pty before the agent. `iutf8` makes the line discipline erase whole UTF-8
 * characters, as on a normal terminal; older BSD stty lacks it, hence the fallback.
 */
function _prelude(cols: number, rows: number, watchPid: number | undefined): string {
  const size = `cols ${cols} rows ${rows}`;
  return `stty ${size} iutf8 2>/dev/null || stty ${size} 2>/dev/null; ` +
    `if [ -n "\${${OUTER_SHELL_VAR}+x}" ]; then ` +
    `if [ -n "$${OUTER_SHELL_VAR}" ]; then SHELL=$${OUTER_SHELL_VAR}; export SHELL; ` +
    `else unset SHELL; fi; unset ${OUTER_SHELL_VAR}; fi; ` +
    (watchPid === undefined ? "" : _watchdog(watchPid));
}

/**
 * A background guard started before the agent: if uuldana (`watchPid`) dies without stopping the
 * agent (SIGKILL), `script` would keep an idle agent alive; the guard hangs up the agent's process
 * group (the prelude's pid, which the agent keeps through `exec`), then kills it. It ends by
 * itself as soon as the agent is gone, so it never signals a recycled group.
 */
function _watchdog(watchPid: number): string {
  if (!Number.isInteger(watchPid) || watchPid <= 0) throw new UsageError(`invalid pid ${watchPid}`);
  return `( trap '' HUP; a=$$; while kill -0 ${watchPid} 2>/dev/null && kill -0 $a 2>/dev/null; ` +
    `do sleep 1; done; kill -0 $a 2>/dev/null || exit 0; kill -HUP -$a 2>/dev/null; sleep 3; ` +
    `kill -KILL -$a 2>/dev/null ) </dev/null >/dev/null 2>&1 & `;
}

/**
 * Quotes one argument for a POSIX shell so it arrives byte-identical: single quotes, with each
 * embedded `'` written as `'\''`. Newlines, tabs, `$`, backticks and non-ASCII need nothing else.
 */
export function shellQuote(arg: string): string {
  if (arg.includes("\0")) throw new UsageError("an argument contains a NUL character");
  if (arg !== "" && /^[A-Za-z0-9_\/.,:=+@%-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

function _checkSize(size: { cols: number; rows: number }): void {
  for (const n of [size.cols, size.rows]) {
    if (!Number.isInteger(n) || n < 1 || n > 65_535) {
      throw new UsageError(`invalid terminal size ${size.cols}x${size.rows}`);
    }
  }
}

/**
 * Builds the command that runs `argv` (argv[0] is the program) in a new pty of `size` through
 * `script`; with `watchPid`, the agent is stopped if that process dies first. The agent's
 * arguments go in `env`, never in `args` (see the module doc). Pure. Throws `UsageError` for an
 * empty argv, a NUL in an argument, or an argument longer than one argv string may be on Linux.
 */
export function scriptArgv(
  flavour: ScriptFlavour,
  argv: string[],
  size: { cols: number; rows: number },
  opts: { watchPid?: number } = {},
): ScriptCommand {
  if (argv.length === 0) throw new UsageError("no command to run");
  _checkSize(size);
  const env: Record<string, string> = {};
  const names = argv.map((a, i) => {
    if (a.includes("\0")) throw new UsageError("an argument contains a NUL character");
    const name = `${ARGV_VAR_PREFIX}${i}`;
    // The variable is one `NAME=value` string of the agent's environment: same limit as argv.
    const bytes = name.length + 1 + new TextEncoder().encode(a).length;
    if (bytes > MAX_ARG_BYTES) {
      throw new UsageError(
        `an argument of the agent's command is too long (${bytes} bytes; at most ${MAX_ARG_BYTES})`,
        "put a long prompt in a file and pass a short prompt that points to it",
      );
    }
    env[name] = a;
    return name;
  });
  // `exec -x` would be read as an option of exec; a program path never starts with "-".
  if (argv[0].startsWith("-")) throw new UsageError(`invalid program name: ${argv[0]}`);
  // The variables go first, so not even stty or the watchdog inherits them.
  const command = `set -- ${names.map((n) => `"$${n}"`).join(" ")}; unset ${names.join(" ")}; ` +
    `${_prelude(size.cols, size.rows, opts.watchPid)}exec "$@"`;
  if (flavour === "util-linux") {
    return {
      cmd: "script",
      args: ["-q", "-f", "-e", "-c", command, "/dev/null"],
      env: { ...env, SHELL: "/bin/sh" },
    };
  }
  return { cmd: "script", args: ["-q", "/dev/null", "/bin/sh", "-c", command], env };
}

let _detected: Promise<ScriptInfo> | null = null;

/**
 * Finds `script` on PATH and tells its flavour: util-linux answers `--version`, BSD has no such
 * option. Cached for the life of the process. Rejects with `NotFoundError` when there is none.
 */
export function detectScriptFlavour(): Promise<ScriptInfo> {
  _detected ??= _detect();
  _detected.catch(() => _detected = null);
  return _detected;
}

async function _detect(): Promise<ScriptInfo> {
  const path = _which("script");
  if (path === null) {
    throw new NotFoundError(
      "the `script` command was not found on PATH",
      "install util-linux (Linux) or use the system script (macOS/BSD)",
    );
  }
  let text = "";
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  } catch {
    // Not runnable for --version: treat as BSD; spawning will report the real error.
  }
  return parseScriptVersion(text, path);
}

/** Reads the output of `script --version` (pure). */
export function parseScriptVersion(text: string, path: string): ScriptInfo {
  if (/util-linux/i.test(text)) {
    const m = /util-linux\D*?(\d+(?:\.\d+)+)/i.exec(text);
    return { flavour: "util-linux", version: m?.[1] ?? null, path };
  }
  return { flavour: "bsd", version: null, path };
}

function _which(name: string): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    if (dir === "") continue;
    const candidate = `${dir}/${name}`;
    try {
      const st = Deno.statSync(candidate);
      if (st.isFile && st.mode !== null && (st.mode & 0o111) !== 0) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
