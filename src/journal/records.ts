/**
 * The journal's records: what a run, a transcript entry, a handoff, a cached probe and a stored
 * recording are as journal.ts writes and reads them (its rows and the shapes it takes).
 *
 * @module
 */
import type { Certainty } from "../capture/reconcile.ts";
import type { ToolAction } from "../../adapters/channels/tool_action.ts";

/** Who said a transcript entry. */
export type Role = "user" | "agent";
/** How an entry was captured: typed keys, the rendered screen, or a structured event. */
export type Fidelity = "keystrokes" | "screen" | "event";
export type { Certainty };
/** Why a run ended. */
export type EndReason =
  | "exit"
  | "limit"
  | "switch"
  | "return"
  /** Handed off early at a turn boundary after a usage warning (`handoffEarly`). */
  | "early"
  | "signal"
  | "interrupted"
  | "error"
  | "stall";
/** Where a handoff stands. */
export type HandoffStatus =
  | "pending"
  | "delivered"
  | "pasted"
  | "saved"
  | "refused"
  /** Its uuldana was killed before delivering it (set by the next start). */
  | "interrupted";

/** What a new run is recorded with. */
export interface NewRun {
  agent: string;
  /** The chain member it runs as, when that is a profile (not the agent itself). */
  profile?: string | null;
  bin?: string | null;
  workspace: string;
  transport: "pty" | "headless";
}

/** What a run's structured channel did, as kept with the run. */
export interface RunChannelRecord {
  /** `on`: it spoke; `silent`: it said nothing when it should have; `off`: it was never on. */
  state: "on" | "silent" | "off";
  /** Why it is silent or off. */
  why?: string;
  /** Records read. */
  records: number;
  /** Records dropped, by reason (malformed, oversized, missing). */
  dropped: Partial<Record<string, number>>;
  /** Prompt and reply events refused (no submit seen, no open turn). */
  ignored: number;
  /** Prompt events the exact keys contradicted (the keys were kept). */
  differs: number;
  /**
   * The channel's telemetry road (an agent's OpenTelemetry logs to a loopback receiver), when
   * the agent has one: on or off and why, records kept, requests and records dropped by why.
   */
  telemetry?: {
    state: "on" | "off";
    why?: string;
    records?: number;
    dropped?: Partial<Record<string, number>>;
  };
}

/** A tool call a run's channel reported (see adapters/channels/tool_action.ts). */
export type NewAction = ToolAction;

/** A tool call as stored. */
export interface ActionRow extends ToolAction {
  seq: number;
  /** When it was reported (ISO-8601). */
  at: string;
}

/** How a run ended, as recorded. */
export interface RunEnd {
  reason: EndReason;
  exitCode?: number | null;
  limitMessage?: string | null;
  resetsAt?: string | null;
  /** What its channel did, for agents that have one. */
  channel?: RunChannelRecord | null;
}

/**
 * One build of an agent's binary, as the probe cache tells builds apart: when any field changes,
 * the binary is probed again.
 */
export interface BinaryStamp {
  /** The path uuldana found (the config's `bin`, or the PATH lookup). */
  path: string;
  /** Where it resolves to, symlinks followed (an npm bin link, a native installer's link). */
  realPath: string;
  /** Its size in bytes. */
  size: number;
  /** Its modification time, in milliseconds since the epoch. */
  mtimeMs: number;
  /** A digest of the environment it is probed with (a configured env can change its `--help`). */
  envKey: string;
}

/** What the probes of one binary found, as cached. */
export interface CachedProbe {
  /** The version `--version` printed, or null: it printed none, or (versionKnown false) timed out. */
  version: string | null;
  /** False when `--version` did not finish: the version is asked again next time. */
  versionKnown: boolean;
  /** The opening-prompt proof from `--help`; null when it proved nothing either way yet. */
  proof: { accepted: boolean; line: string | null } | null;
  /** When this binary was last probed (ISO). */
  checkedAt: string;
}

/** What a probe stores about a binary. */
export type NewProbe = Omit<CachedProbe, "checkedAt">;

/** A transcript entry to record. */
export interface NewEntry {
  role: Role;
  text: string;
  fidelity: Fidelity;
  /** How sure uuldana is of a user turn (typed turns only). */
  certainty?: Certainty;
}

/** A handoff to record (before any delivery is tried). */
export type NewHandoff = Omit<HandoffRow, "toRun" | "receipt" | "createdAt" | "error"> & {
  error?: string | null;
};

/** A change to a handoff's delivery outcome. */
export interface HandoffChange {
  status?: HandoffStatus;
  toRun?: number | null;
  error?: string | null;
  receipt?: string | null;
  road?: string;
}

/** A terminal size. */
export interface ScreenSize {
  cols: number;
  rows: number;
}

/** A run as stored. */
export interface RunRow {
  id: number;
  agent: string;
  /** The profile it ran as (`claude-api`), or null: the agent itself. */
  profile: string | null;
  /** The commit its workspace was at when it started, when known. */
  baseCommit: string | null;
  bin: string | null;
  workspace: string;
  transport: "pty" | "headless";
  startedAt: string;
  endedAt: string | null;
  endReason: EndReason | null;
  exitCode: number | null;
  limitMessage: string | null;
  resetsAt: string | null;
}

/** A transcript entry as stored. */
export interface EntryRow {
  seq: number;
  role: Role;
  text: string;
  fidelity: Fidelity;
  /** How sure uuldana is of a user turn; null for agent entries and older journals. */
  certainty: Certainty | null;
  at: string;
}

/** A handoff as stored. */
export interface HandoffRow {
  id: string;
  fromRun: number | null;
  toAgent: string;
  toRun: number | null;
  mode: "auto" | "manual";
  road: string;
  characters: number;
  omitted: number;
  redactions: number;
  status: HandoffStatus;
  filePath: string | null;
  error: string | null;
  receipt: string | null;
  createdAt: string;
}

/** A run's recording as the journal stores it (see {@link Journal.output}). */
export interface StoredOutput {
  cols: number;
  rows: number;
  /** The classic timing of a raw recording (empty for an asciicast, or a run interrupted). */
  timing: string;
  /** The gzip stream (all members). */
  data: Uint8Array;
  truncated: boolean;
  /** `cast`: timed asciicast (schema 7 on); `raw`: output bytes (recorded before). */
  format: "cast" | "raw";
  /** The recording's file, or null (kept in the journal before schema 3). */
  path: string | null;
  /** The text uuldana delivered to the run (a replay needs it); empty before schema 7. */
  delivered: string[];
}
