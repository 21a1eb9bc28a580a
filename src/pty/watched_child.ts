/**
 * A helper command (e.g. `opencode import`) that dies with uuldana. A process started by uuldana
 * outlives a uuldana killed with SIGKILL; the pty's agent has the watchdog of `script.ts`, and a
 * helper gets the same guard: a small `/bin/sh` wrapper starts a watcher and then becomes the
 * helper, and the watcher kills it and its process group (SIGKILL) as soon as uuldana is gone. The helper keeps the
 * wrapper's pid, stdout, stderr and exit status, so a timeout that kills it kills the helper.
 * Pure.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

// $1 is uuldana's pid; the helper's argv follows. The watcher is started before the helper
// replaces the shell (`exec`, same pid), so no moment exists when the helper runs unwatched. Where
// `setsid` exists (util-linux) the helper leads a process group of its own, so what it starts
// (a launcher's real binary) goes with it; elsewhere only the helper itself is killed. The watcher
// polls once a second and, once the helper is gone, takes its group's leftovers with it (the
// helper's own pid is signalled only while it is known to exist: a pid is reused once reaped).
// The watcher is a `sh` of its own whose command line holds only the two pids (a subshell would
// carry the helper's whole argv in /proc/PID/cmdline while it watches, and be taken for it); its
// script is in single quotes in the wrapper, so the wrapper passes it on unexpanded.
const _WATCHER = 'trap "" HUP; while kill -0 $1; do ' +
  "kill -0 $2 || { kill -KILL -$1 || kill -KILL $1; exit 0; }; sleep 1; done; kill -KILL -$1";
const _WRAPPER = `w=$1; shift; sh -c '${_WATCHER}' uuldana-watcher $$ $w ` +
  '</dev/null >/dev/null 2>&1 & if command -v setsid >/dev/null 2>&1; then exec setsid -w "$@"; ' +
  'fi; exec "$@"';

/** The argv that runs `argv` so that it is killed when process `watchPid` dies. */
export function watchedArgv(argv: readonly string[], watchPid: number): string[] {
  if (!Number.isInteger(watchPid) || watchPid <= 0) throw new UsageError(`invalid pid ${watchPid}`);
  if (argv.length === 0) throw new UsageError("no command to run");
  return ["/bin/sh", "-c", _WRAPPER, "sh", String(watchPid), ...argv];
}
