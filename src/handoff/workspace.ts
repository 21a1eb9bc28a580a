/**
 * Describing the workspace for a handoff: its absolute path and, when it is a git repository, the
 * branch and a bounded short status. Runs `git`; everything else in `src/handoff/` is pure.
 *
 * @module
 */
import { resolve } from "node:path";
import { type GitState, STATUS_LINES } from "./package.ts";

const _TIMEOUT_MS = 5_000;

/** The workspace as a handoff describes it. */
export interface WorkspaceDescription {
  /** Absolute path. */
  path: string;
  /** Branch and short status, or null when not a repository (or git is missing). */
  git: GitState | null;
}

async function _git(dir: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const res = await new Deno.Command("git", {
      args: ["-C", dir, ...args],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      // Never take the index lock: the agent may be running git right now.
      env: { GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
      signal: AbortSignal.timeout(_TIMEOUT_MS),
    }).output();
    return { ok: res.success, out: new TextDecoder().decode(res.stdout) };
  } catch {
    return { ok: false, out: "" }; // git missing, or timed out
  }
}

/**
 * Describes `dir`: absolute path, and for a git work tree the branch (`git symbolic-ref`, null
 * when detached; works before the first commit too) and `git status --short` bounded to the first
 * STATUS_LINES lines plus a "… and N more" line.
 */
export async function describeWorkspace(dir: string): Promise<WorkspaceDescription> {
  const path = resolve(dir);
  const inside = await _git(path, ["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok || inside.out.trim() !== "true") return { path, git: null };
  const [head, status] = await Promise.all([
    _git(path, ["symbolic-ref", "--short", "-q", "HEAD"]),
    _git(path, ["-c", "core.quotepath=false", "status", "--short"]),
  ]);
  const branch = head.ok && head.out.trim() ? head.out.trim() : null;
  const lines = status.out.split("\n").filter((l) => l.trim() !== "");
  const shown = lines.slice(0, STATUS_LINES);
  if (lines.length > STATUS_LINES) shown.push(`… and ${lines.length - STATUS_LINES} more`);
  return { path, git: { branch, status: status.ok ? shown.join("\n") : "(git status failed)" } };
}
