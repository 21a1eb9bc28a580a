/**
 * Looking processes up and ending them, for a pty's agent: its children, its terminal, its command
 * line, whether it lives, the members of its session. On Linux through `/proc` (no process
 * started), elsewhere through `pgrep` and `ps`. A process that is gone reads as nothing (no
 * children, no terminal, an empty command line), never as an error.
 *
 * @module
 */

const _isLinux = Deno.build.os === "linux";

/** Kills what is left of session `sid` (SIGKILL), looking again up to three times. */
export async function sweepSession(sid: number): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const left = await sessionMembers(sid);
    if (left.length === 0) return;
    for (const pid of left) kill(pid, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends `signal` to `pid` (a negative one: its process group); a process already gone is no error. */
export function kill(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function _run(cmd: string, args: string[]): Promise<string> {
  try {
    const r = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "null" })
      .output();
    return new TextDecoder().decode(r.stdout);
  } catch {
    return "";
  }
}

function _pids(text: string): number[] {
  return text.split(/\s+/).filter((s) => /^\d+$/.test(s)).map(Number);
}

/** The children of `pid`. */
export async function childrenOf(pid: number): Promise<number[]> {
  if (_isLinux) {
    try {
      return _pids(Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`));
    } catch {
      return [];
    }
  }
  return _pids(await _run("pgrep", ["-P", String(pid)]));
}

/** The terminal on `pid`'s stdin, stdout or stderr (`/dev/pts/N`), or null. */
export async function ttyOf(pid: number): Promise<string | null> {
  if (_isLinux) {
    for (const fd of [0, 1, 2]) {
      try {
        const target = Deno.readLinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")) return target;
      } catch {
        // gone or not ours
      }
    }
    return null;
  }
  const tty = (await _run("ps", ["-o", "tty=", "-p", String(pid)])).trim();
  return tty === "" || tty.startsWith("?") ? null : `/dev/${tty}`;
}

/** `pid`'s command line (NUL-separated on Linux), or "" when it is gone. */
export async function cmdline(pid: number): Promise<string> {
  if (_isLinux) {
    try {
      return Deno.readTextFileSync(`/proc/${pid}/cmdline`);
    } catch {
      return "";
    }
  }
  return await _run("ps", ["-o", "command=", "-p", String(pid)]);
}

/** Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, session… */
function _statFields(pid: number | string): string[] | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Whether `pid` lives (a zombie does not). */
export async function alive(pid: number): Promise<boolean> {
  if (_isLinux) {
    const f = _statFields(pid);
    return f !== null && f[0] !== "Z";
  }
  return (await _run("ps", ["-o", "stat=", "-p", String(pid)])).trim() !== "";
}

/** Live processes whose session id is `sid`. */
export async function sessionMembers(sid: number): Promise<number[]> {
  if (!_isLinux) return _pids(await _run("pgrep", ["-s", String(sid)]));
  const out: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const f = _statFields(entry.name);
    if (f !== null && f[0] !== "Z" && Number(f[3]) === sid) out.push(Number(entry.name));
  }
  return out;
}
