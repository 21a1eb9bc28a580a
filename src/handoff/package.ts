/**
 * The handoff package: what a run recorded, in the shape the composer turns into text. Pure.
 *
 * @module
 */
import { UsageError } from "../errors.ts";
import { hasVisibleText } from "./sanitize.ts";
import { CERTAINTIES, type Certainty } from "../capture/reconcile.ts";
import type { ToolAction } from "../../adapters/channels/tool_action.ts";

export type { Certainty };

/**
 * How an entry was captured: `keystrokes` (what the user typed and submitted), `screen` (the last
 * lines with text from our VT interpreter, interface text included), `event` (message events from
 * a structured transport). Kept in the package and the journal; the prompt shows only the role.
 */
export type Fidelity = "keystrokes" | "screen" | "event";

/** One transcript entry. */
export interface TranscriptEntry {
  /** Who said it. */
  role: "user" | "agent";
  /** What was said, as recorded (sanitised and redacted only when composed). */
  text: string;
  /** How it was captured. */
  fidelity: Fidelity;
  /** When it was recorded (ISO-8601), when known. Not shown in the prompt. */
  at?: string;
  /**
   * For a typed user turn: how sure uuldana is of the text (exact, reconstructed from the agent's
   * input box, best effort). Not shown in the prompt.
   */
  certainty?: Certainty;
}

/**
 * Why the handoff happens: the agent hit a limit; it stalled (busy with no answer past the stall
 * rule, which is not a limit it showed); the first agent of the chain is available again and the
 * work goes back to it; or the user switched by hand.
 */
export type HandoffReason =
  | { kind: "limit"; message: string; resetsAt: string | null }
  /** Handed off early at a turn boundary after the agent's usage warning (`handoffEarly`). */
  | { kind: "warning"; message: string; resetsAt: string | null }
  | { kind: "stall"; message: string }
  | { kind: "return" }
  | { kind: "manual" };

/** At most this many `git status --short` lines are kept (a line says how many more there were). */
export const STATUS_LINES = 20;

/** Git facts about the workspace, when it is a repository. */
export interface GitState {
  /** The current branch, or null when detached or unknown. */
  branch: string | null;
  /** `git status --short`, bounded (the first {@linkcode STATUS_LINES} lines). Empty when clean. */
  status: string;
  /**
   * What changed since the work started: `git diff --stat` against the commit the first run
   * started from (bounded like `status`), with that commit; absent when it is not known.
   */
  changes?: { base: string; stat: string };
}

/** A tool call one of the runs made, as its channel reported it. */
export interface PackageAction extends ToolAction {
  /** The agent (or profile) whose run made it. */
  agent: string;
  /** When it was reported (ISO-8601), when known. */
  at?: string;
}

/** Everything one handoff carries. */
export interface HandoffPackage {
  /** Absolute path of the workspace. */
  workspace: string;
  /** Git branch and short status, or null when the workspace is not a repository. */
  git: GitState | null;
  /** The agent handing off. */
  from: string;
  /** The agent receiving. */
  to: string;
  /** Why. */
  reason: HandoffReason;
  /** When (ISO-8601). */
  time: string;
  /** The conversation, oldest first. */
  entries: TranscriptEntry[];
  /** What the agents did (their tool calls, from their channels), oldest first. */
  actions?: PackageAction[];
}

/** Roles an entry may have. */
export const ROLES: readonly TranscriptEntry["role"][] = ["user", "agent"];
/** Fidelity labels an entry may have. */
export const FIDELITIES: readonly Fidelity[] = ["keystrokes", "screen", "event"];

const _TOP_KEYS = ["workspace", "git", "from", "to", "reason", "time", "entries"];

function _typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function _isIsoTime(v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) &&
    !Number.isNaN(Date.parse(v));
}

/**
 * Validates a parsed package (e.g. the JSON of `uuldana debug compose`) and fills defaults: `git`
 * null, `reason.resetsAt` null, `time` = `now`. Throws a one-line UsageError naming `source` and
 * the bad field; unknown keys are errors too, so a typo never passes silently.
 */
export function parsePackage(raw: unknown, source: string, now: Date = new Date()): HandoffPackage {
  const bad = (field: string, expected: string, got: unknown) =>
    new UsageError(
      `invalid package ${source}: "${field}" must be ${expected}, got ${_typeOf(got)}`,
    );
  const unknown = (field: string, known: string[]) =>
    new UsageError(
      `invalid package ${source}: unknown field "${field}" (known: ${known.join(", ")})`,
    );
  if (_typeOf(raw) !== "object") throw bad("(top level)", "an object", raw);
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) if (!_TOP_KEYS.includes(key)) throw unknown(key, _TOP_KEYS);

  const str = (field: string, v: unknown): string => {
    if (typeof v !== "string" || v.trim() === "") throw bad(field, "a non-empty string", v);
    return v;
  };
  const workspace = str("workspace", obj.workspace);
  if (!workspace.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(workspace)) {
    throw new UsageError(
      `invalid package ${source}: "workspace" must be an absolute path, got "${workspace}"`,
    );
  }
  const from = str("from", obj.from);
  const to = str("to", obj.to);

  let git: GitState | null = null;
  if (obj.git !== undefined && obj.git !== null) {
    if (_typeOf(obj.git) !== "object") throw bad("git", "an object or null", obj.git);
    const g = obj.git as Record<string, unknown>;
    for (const key of Object.keys(g)) {
      if (key !== "branch" && key !== "status") throw unknown(`git.${key}`, ["branch", "status"]);
    }
    if (g.branch !== undefined && g.branch !== null && typeof g.branch !== "string") {
      throw bad("git.branch", "a string or null", g.branch);
    }
    if (g.status !== undefined && typeof g.status !== "string") {
      throw bad("git.status", "a string", g.status);
    }
    git = { branch: (g.branch as string | null | undefined) ?? null, status: g.status ?? "" };
  }

  if (_typeOf(obj.reason) !== "object") throw bad("reason", "an object", obj.reason);
  const r = obj.reason as Record<string, unknown>;
  let reason: HandoffReason;
  if (r.kind === "manual" || r.kind === "return") {
    for (const key of Object.keys(r)) if (key !== "kind") throw unknown(`reason.${key}`, ["kind"]);
    reason = { kind: r.kind };
  } else if (r.kind === "stall") {
    for (const key of Object.keys(r)) {
      if (key !== "kind" && key !== "message") throw unknown(`reason.${key}`, ["kind", "message"]);
    }
    reason = { kind: "stall", message: str("reason.message", r.message) };
  } else if (r.kind === "limit" || r.kind === "warning") {
    const known = ["kind", "message", "resetsAt"];
    for (const key of Object.keys(r)) {
      if (!known.includes(key)) throw unknown(`reason.${key}`, known);
    }
    const message = str("reason.message", r.message);
    let resetsAt: string | null = null;
    if (r.resetsAt !== undefined && r.resetsAt !== null) {
      if (typeof r.resetsAt !== "string" || !_isIsoTime(r.resetsAt)) {
        throw bad("reason.resetsAt", "an ISO-8601 time or null", r.resetsAt);
      }
      resetsAt = r.resetsAt;
    }
    reason = { kind: r.kind, message, resetsAt };
  } else {
    throw new UsageError(
      `invalid package ${source}: "reason.kind" must be "limit", "warning", "stall", "return" or "manual", got ${
        JSON.stringify(r.kind) ?? "nothing"
      }`,
    );
  }

  let time = now.toISOString();
  if (obj.time !== undefined) {
    if (typeof obj.time !== "string" || !_isIsoTime(obj.time)) {
      throw bad("time", "an ISO-8601 time", obj.time);
    }
    time = obj.time;
  }

  if (!Array.isArray(obj.entries)) throw bad("entries", "an array", obj.entries);
  const entries = obj.entries.map((e, i) => _parseEntry(e, `entries[${i}]`, bad, unknown));
  return { workspace, git, from, to, reason, time, entries };
}

function _parseEntry(
  e: unknown,
  at: string,
  bad: (field: string, expected: string, got: unknown) => UsageError,
  unknown: (field: string, known: string[]) => UsageError,
): TranscriptEntry {
  if (_typeOf(e) !== "object") throw bad(at, "an object", e);
  const o = e as Record<string, unknown>;
  const known = ["role", "text", "fidelity", "at", "certainty"];
  for (const key of Object.keys(o)) if (!known.includes(key)) throw unknown(`${at}.${key}`, known);
  if (typeof o.role !== "string" || !(ROLES as string[]).includes(o.role)) {
    throw bad(`${at}.role`, `"user" or "agent"`, o.role);
  }
  if (typeof o.text !== "string") throw bad(`${at}.text`, "a string", o.text);
  if (typeof o.fidelity !== "string" || !(FIDELITIES as string[]).includes(o.fidelity)) {
    throw bad(`${at}.fidelity`, `"keystrokes", "screen" or "event"`, o.fidelity);
  }
  const entry: TranscriptEntry = {
    role: o.role as TranscriptEntry["role"],
    text: o.text,
    fidelity: o.fidelity as Fidelity,
  };
  if (o.at !== undefined) {
    if (typeof o.at !== "string" || !_isIsoTime(o.at)) {
      throw bad(`${at}.at`, "an ISO-8601 time", o.at);
    }
    entry.at = o.at;
  }
  if (o.certainty !== undefined) {
    if (typeof o.certainty !== "string" || !(CERTAINTIES as string[]).includes(o.certainty)) {
      throw bad(`${at}.certainty`, `"exact", "reconstructed" or "best-effort"`, o.certainty);
    }
    entry.certainty = o.certainty as Certainty;
  }
  return entry;
}

/** Whether the user said anything that is not blank once sanitised. */
function _spoke(entry: TranscriptEntry): boolean {
  return entry.role === "user" && hasVisibleText(entry.text);
}

/**
 * Whether anybody spoke to the agent: at least one user entry with text. When false there is no
 * handoff at all and the next agent starts clean, with no prompt.
 */
export function hasConversation(pkg: Pick<HandoffPackage, "entries">): boolean {
  return pkg.entries.some(_spoke);
}

/**
 * The "original request": the first user entry with text that uuldana is sure of (exact or read
 * from the agent's input box); only when there is none, the first best-effort one. Null when
 * nobody spoke.
 */
export function firstUserEntry(pkg: Pick<HandoffPackage, "entries">): TranscriptEntry | null {
  return pkg.entries.find((e) => _spoke(e) && e.certainty !== "best-effort") ??
    pkg.entries.find(_spoke) ?? null;
}
