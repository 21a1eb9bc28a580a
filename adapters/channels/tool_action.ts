/**
 * A tool call as uuldana keeps it: what kind of action it was (ran a command, edited a file…), its
 * target (the command, the path), and how it ended — made from any agent's own tool name and input,
 * bounded, so a handoff can say what was done. The agents' tool names are data
 * (`tool_kinds.json`). Pure.
 *
 * @module
 */
import TOOL_KINDS from "./tool_kinds.json" with { type: "json" };

/** What a tool call did, in the words a handoff uses. */
export type ActionKind =
  | "ran"
  | "edited"
  | "created"
  | "read"
  | "searched"
  | "fetched"
  | "delegated"
  | "used";

/** One completed tool call. */
export interface ToolAction {
  /** The agent's own name of the tool (`Bash`, `apply_patch`, `run_shell_command`). */
  tool: string;
  kind: ActionKind;
  /** The command, path, pattern or URL it worked on (one line, bounded), or null. */
  target: string | null;
  /** How it ended, as the agent reported it. */
  outcome: "ok" | "failed";
  /** A command's exit code, when the agent reports one. */
  exitCode?: number;
}

/** The longest target kept, in code points (a longer one keeps its start and an ellipsis). */
export const TARGET_MAX = 160;
/** The longest tool name kept. */
const _TOOL_MAX = 64;

const _KINDS: Record<string, ActionKind> = Object.fromEntries(
  Object.entries(TOOL_KINDS.kinds).flatMap(([kind, tools]) =>
    (tools as string[]).map((t) => [t.toLowerCase(), kind as ActionKind])
  ),
);

// Input keys that name a tool's target, by the kind of action (the first one present wins).
const _TARGET_KEYS: Record<ActionKind, readonly string[]> = {
  ran: ["command", "cmd", "script"],
  edited: ["file_path", "filePath", "path", "absolute_path", "file", "notebook_path"],
  created: ["file_path", "filePath", "path", "absolute_path", "file"],
  read: ["file_path", "filePath", "path", "absolute_path", "file", "paths"],
  searched: ["pattern", "query", "regex", "glob", "path"],
  fetched: ["url", "query"],
  delegated: ["description", "prompt"],
  used: ["file_path", "filePath", "path", "command", "url", "query", "description"],
};

function _oneLine(s: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what this takes out
  const line = s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  const cps = [...line];
  return cps.length <= TARGET_MAX ? line : cps.slice(0, TARGET_MAX - 1).join("") + "…";
}

function _targetOf(kind: ActionKind, input: unknown): string | null {
  if (typeof input === "string") return input.trim() ? _oneLine(input) : null;
  if (!input || typeof input !== "object") return null;
  const rec = input as Record<string, unknown>;
  for (const key of _TARGET_KEYS[kind]) {
    const v = rec[key];
    if (typeof v === "string" && v.trim()) return _oneLine(v);
    if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string")) {
      return _oneLine(v.join(" "));
    }
  }
  const files = _patchFiles(input);
  return files ? _oneLine(files.map((f) => f.path).join(", ")) : null;
}

/**
 * The files a Codex `apply_patch` patch adds, updates or deletes (`*** Add File: PATH`…), read from
 * its input (`input`, `patch`, or `command`: Codex 0.171.0's PostToolUse hook), or null.
 */
function _patchFiles(input: unknown): { op: string; path: string }[] | null {
  if (!input || typeof input !== "object") return null;
  const rec = input as Record<string, unknown>;
  const patch = [rec.input, rec.patch, rec.command].find((v): v is string =>
    typeof v === "string" && v.trimStart().startsWith("*** Begin Patch")
  );
  if (!patch) return null;
  // Bounded: a patch names its files in its headers; a huge one is read only so far.
  const files = [...patch.slice(0, 65_536).matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)]
    .map((m) => ({ op: m[1], path: m[2].trim() }));
  return files.length ? files : null;
}

/**
 * The action of a tool call: `tool` as the agent names it, its `input` (the agent's own JSON of
 * the call), whether it `failed`, and a command's `exitCode` when known.
 */
export function toolAction(
  tool: string,
  input: unknown,
  end: { failed: boolean; exitCode?: number | null },
): ToolAction {
  const name = _oneLine(tool).slice(0, _TOOL_MAX) || "tool";
  const named = _KINDS[name.toLowerCase()] ?? _KINDS[name.toLowerCase().replace(/^.*[.:]/, "")] ??
    "used";
  // A patch that only adds files created them.
  const kind = named === "edited" && _patchFiles(input)?.every((f) => f.op === "Add")
    ? "created"
    : named;
  const exit = end.exitCode;
  return {
    tool: name,
    kind,
    target: _targetOf(kind, input),
    outcome: end.failed || (typeof exit === "number" && exit !== 0) ? "failed" : "ok",
    ...(typeof exit === "number" && Number.isInteger(exit) ? { exitCode: exit } : {}),
  };
}

/**
 * The exit code a tool's error or output text states (Claude's and Qwen's `Exit code 1`, pi's
 * `Command exited with code 1` at its end, `exit status 2`), or null.
 */
export function statedExitCode(text: unknown): number | null {
  if (typeof text !== "string") return null;
  const m = /\bexit(?:ed with)? (?:code|status)[: ]+(-?\d{1,5})\b/i.exec(text.slice(-4096));
  return m ? Number(m[1]) : null;
}

/** How a handoff says one action: `ran \`npm test\` → exit 1`, `edited src/deploy.sh`. */
export function describeAction(a: ToolAction): string {
  const target = a.target ?? "";
  const ended = a.exitCode !== undefined && (a.kind === "ran" || a.exitCode !== 0)
    ? ` → exit ${a.exitCode}`
    : a.outcome === "failed"
    ? " → failed"
    : "";
  switch (a.kind) {
    case "ran":
      return `ran ${target ? `\`${target}\`` : a.tool}${ended}`;
    case "searched":
      return `searched${target ? ` for ${target}` : ` (${a.tool})`}${ended}`;
    case "delegated":
      return `delegated${target ? `: ${target}` : ` (${a.tool})`}${ended}`;
    case "used":
      return `used ${a.tool}${target ? ` on ${target}` : ""}${ended}`;
    default:
      return `${a.kind} ${target || `(${a.tool})`}${ended}`;
  }
}

/**
 * The action a Claude-style `PostToolUse` / `PostToolUseFailure` hook reports (`tool_name`,
 * `tool_input`, and `error` on a failure: Claude Code 2.1.332, and Qwen Code 0.24.4, which sends
 * Claude's fields), or null when the payload names no tool.
 */
export function postToolUseAction(
  event: string,
  d: Record<string, unknown>,
): ToolAction | null {
  if (typeof d.tool_name !== "string" || !d.tool_name) return null;
  const failed = event === "PostToolUseFailure";
  const exitCode = failed ? statedExitCode(d.error) : null;
  return toolAction(d.tool_name, d.tool_input, { failed, exitCode });
}
