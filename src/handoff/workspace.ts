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

function _bounded(out: string): string {
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  const shown = lines.slice(0, STATUS_LINES);
  if (lines.length > STATUS_LINES) shown.push(`… and ${lines.length - STATUS_LINES} more`);
  return shown.join("\n");
}

// `git diff --stat`, bounded like the status, keeping its closing "N files changed" line.
function _boundedStat(out: string): string {
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  if (lines.length <= STATUS_LINES + 1) return lines.join("\n");
  const total = lines[lines.length - 1];
  const files = lines.slice(0, -1);
  return [...files.slice(0, STATUS_LINES), `… and ${files.length - STATUS_LINES} more`, total]
    .join("\n");
}

/**
 * Describes `dir`: absolute path, and for a git work tree the branch (`git symbolic-ref`, null
 * when detached; works before the first commit too) and `git status --short` bounded to the first
 * STATUS_LINES lines plus a "… and N more" line; with `base` (the commit the work started from),
 * what changed since (`git diff --stat BASE`, working tree included, bounded the same way). The
 * git commands run at once, each stopped after 5 s.
 */
export async function describeWorkspace(
  dir: string,
  base?: string | null,
): Promise<WorkspaceDescription> {
  const path = resolve(dir);
  const inside = await _git(path, ["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok || inside.out.trim() !== "true") return { path, git: null };
  const commit = base && /^[0-9a-f]{7,64}$/.test(base) ? base : null;
  const [head, status, diff] = await Promise.all([
    _git(path, ["symbolic-ref", "--short", "-q", "HEAD"]),
    _git(path, ["-c", "core.quotepath=false", "status", "--short"]),
    commit
      ? _git(path, ["-c", "core.quotepath=false", "diff", "--stat=120", commit, "--"])
      : Promise.resolve(null),
  ]);
  const branch = head.ok && head.out.trim() ? head.out.trim() : null;
  const git: GitState = {
    branch,
    status: status.ok ? _bounded(status.out) : "(git status failed)",
  };
  if (commit && diff?.ok) git.changes = { base: commit.slice(0, 12), stat: _boundedStat(diff.out) };
  return { path, git };
}

/** The commit `dir`'s work tree is at (`git rev-parse HEAD`), or null (not a repository, none yet). */
export async function headCommit(dir: string): Promise<string | null> {
  const head = await _git(resolve(dir), ["rev-parse", "--verify", "-q", "HEAD"]);
  const sha = head.out.trim();
  return head.ok && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}
