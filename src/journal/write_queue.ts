/**
 * Journal writes that could not be made yet, kept in order in memory until the file takes them
 * again. Bounded: past the bound the oldest decision records go first, then screen snapshots (a later one of the same run
 * replaces an earlier one anyway), then cached prompt proofs, and only then the oldest typed turns.
 * Runs and handoffs are never dropped (a few hundred bytes each). Runs that could not be inserted
 * get provisional ids (negative) that are mapped to real ones when their row is written. Pure.
 *
 * @module
 */
import type {
  BinaryStamp,
  HandoffChange,
  NewAction,
  NewEntry,
  NewHandoff,
  NewProbe,
  NewRun,
  RunEnd,
  ScreenSize,
} from "./journal.ts";
import type { Decision } from "../detect/decision.ts";

/** One write waiting for the journal, as data. */
export type PendingWrite =
  | { kind: "startRun"; provisional: number; run: NewRun; at: string }
  | { kind: "endRun"; runId: number; end: RunEnd; at: string }
  | { kind: "addEntry"; runId: number; entry: NewEntry; at: string }
  | { kind: "addAction"; runId: number; action: NewAction; at: string }
  | { kind: "saveScreen"; runId: number; lines: string[]; size?: ScreenSize; at: string }
  | { kind: "addHandoff"; handoff: NewHandoff; at: string }
  | { kind: "updateHandoff"; id: string; change: HandoffChange }
  | {
    kind: "startOutput";
    runId: number;
    size: ScreenSize;
    file: string;
    delivered: readonly string[];
  }
  | { kind: "addDecisions"; runId: number; decisions: readonly Decision[] }
  | { kind: "finishOutput"; runId: number; summary: { timing: string; truncated: boolean } }
  | { kind: "saveProbe"; stamp: BinaryStamp; probe: NewProbe; at: string };

/** What the bound made the queue give up, by kind. */
export interface Dropped {
  decisions: number;
  screens: number;
  proofs: number;
  actions: number;
  turns: number;
}

/** Default bound on the text kept (UTF-16 code units, roughly bytes of memory / 2). */
export const DEFAULT_QUEUE_CHARS = 4 * 1024 * 1024;

// The order in which kinds give way when the bound is reached.
const _DROP_ORDER = ["addDecisions", "saveScreen", "saveProbe", "addAction", "addEntry"] as const;

/** The writes waiting for the journal, oldest first. */
export class WriteQueue {
  readonly #items: PendingWrite[] = [];
  readonly #maxChars: number;
  #chars = 0;
  #nextProvisional = -1;
  readonly #real = new Map<number, number>();
  /** What the bound dropped since the last {@link takeDropped}. */
  #dropped: Dropped = { decisions: 0, screens: 0, proofs: 0, actions: 0, turns: 0 };

  constructor(maxChars = DEFAULT_QUEUE_CHARS) {
    this.#maxChars = maxChars;
  }

  /** How many writes wait. */
  get length(): number {
    return this.#items.length;
  }

  /** A new provisional run id (negative, never reused by this queue). */
  provisionalRunId(): number {
    return this.#nextProvisional--;
  }

  /** Notes that the run with provisional id `provisional` was stored as `real`. */
  resolved(provisional: number, real: number): void {
    this.#real.set(provisional, real);
  }

  /** The real id of a run id (itself when it is real or not stored yet). */
  realId(runId: number): number {
    return this.#real.get(runId) ?? runId;
  }

  /** Whether `runId` is provisional and its row is not in the journal yet. */
  isUnstored(runId: number): boolean {
    return runId < 0 && !this.#real.has(runId);
  }

  /** Adds a write at the end; a screen of a run replaces that run's waiting screen. */
  push(write: PendingWrite): void {
    if (write.kind === "saveScreen") {
      const i = this.#items.findIndex((w) => w.kind === "saveScreen" && w.runId === write.runId);
      if (i >= 0) this.#remove(i);
    }
    this.#items.push(write);
    this.#chars += _chars(write);
    this.#enforceBound();
  }

  /** Every waiting write, oldest first. */
  all(): readonly PendingWrite[] {
    return this.#items;
  }

  /** The oldest waiting write, or undefined. */
  peek(): PendingWrite | undefined {
    return this.#items[0];
  }

  /** Removes the oldest waiting write (it was written, or given up). */
  shift(): void {
    if (this.#items.length) this.#remove(0);
  }

  /** The waiting transcript entries of run `runId`, in order. */
  entriesOf(runId: number): { entry: NewEntry; at: string }[] {
    return this.#items.flatMap((w) =>
      w.kind === "addEntry" && this.realId(w.runId) === this.realId(runId)
        ? [{ entry: w.entry, at: w.at }]
        : []
    );
  }

  /** The waiting tool calls of run `runId`, in order. */
  actionsOf(runId: number): { action: NewAction; at: string }[] {
    return this.#items.flatMap((w) =>
      w.kind === "addAction" && this.realId(w.runId) === this.realId(runId)
        ? [{ action: w.action, at: w.at }]
        : []
    );
  }

  /** The waiting screen of run `runId`, or null. */
  screenOf(runId: number): string[] | null {
    for (let i = this.#items.length - 1; i >= 0; i--) {
      const w = this.#items[i];
      if (w.kind === "saveScreen" && this.realId(w.runId) === this.realId(runId)) return w.lines;
    }
    return null;
  }

  /** What the bound dropped since the last call (then counts from zero again). */
  takeDropped(): Dropped {
    const dropped = this.#dropped;
    this.#dropped = { decisions: 0, screens: 0, proofs: 0, actions: 0, turns: 0 };
    return dropped;
  }

  #remove(i: number): void {
    this.#chars -= _chars(this.#items[i]);
    this.#items.splice(i, 1);
  }

  #enforceBound(): void {
    for (const kind of _DROP_ORDER) {
      while (this.#chars > this.#maxChars) {
        const i = this.#items.findIndex((w) => w.kind === kind);
        if (i < 0) break;
        this.#remove(i);
        if (kind === "addDecisions") this.#dropped.decisions++;
        else if (kind === "saveScreen") this.#dropped.screens++;
        else if (kind === "saveProbe") this.#dropped.proofs++;
        else if (kind === "addAction") this.#dropped.actions++;
        else this.#dropped.turns++;
      }
    }
  }
}

// What a write holds in memory, roughly: its text plus a small fixed overhead.
function _chars(w: PendingWrite): number {
  switch (w.kind) {
    case "addEntry":
      return 64 + w.entry.text.length;
    case "addAction":
      return 96 + w.action.tool.length + (w.action.target?.length ?? 0);
    case "saveScreen":
      return 64 + w.lines.reduce((n, l) => n + l.length + 4, 0);
    case "finishOutput":
      return 64 + w.summary.timing.length;
    case "startOutput":
      return 256 + w.delivered.reduce((n, t) => n + t.length, 0);
    case "addDecisions":
      return w.decisions.reduce((n, d) => n + 256 + (d.hit?.message.length ?? 0), 0);
    case "saveProbe":
      return 96 + (w.probe.proof?.line?.length ?? 0) + w.stamp.path.length +
        w.stamp.realPath.length;
    default:
      return 256;
  }
}
