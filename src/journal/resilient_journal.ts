/**
 * The journal a live run writes to (`uuldana run`, `uuldana exec`): its writes never throw. When
 * the file cannot take a write (locked by another process beyond a short wait, disk full,
 * read-only, I/O error) the write is kept in a bounded queue ({@link WriteQueue}) and retried
 * every few seconds and at the next write, in order; reads see what waits. The user is told once
 * when it starts and once when it is over, through {@link ResilientJournal.reportTo}. A write that
 * can never succeed (a damaged file) is given up and said once.
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import process from "node:process";
import { dirname, join } from "node:path";
import { writeFileSync } from "node:fs";
import {
  type ActionRow,
  type BinaryStamp,
  type CachedProbe,
  type EntryRow,
  type HandoffChange,
  Journal,
  type NewAction,
  type NewEntry,
  type NewHandoff,
  type NewProbe,
  type NewRun,
  type RunEnd,
  type ScreenSize,
} from "./journal.ts";
import { RECORDING_SUFFIX, recordingFileName } from "./recording_file.ts";
import { describeFault, isPassing, journalFault } from "./sqlite_failure.ts";
import { type PendingWrite, WriteQueue } from "./write_queue.ts";
import type { Decision } from "../detect/decision.ts";

/** How long a live write waits for another process's lock: it is kept in memory after that. */
export const LIVE_BUSY_MS = 250;
/** How often kept writes are retried. */
export const RETRY_MS = 2_000;
// At the next write, kept writes are retried too, if the last try is at least this old.
const _RETRY_AT_WRITE_MS = 500;
// Handoff files kept in memory until the disk takes them, at most (characters).
const _MAX_FILE_CHARS = 16 * 1024 * 1024;
// At close, the last try waits longer for a lock.
const _CLOSE_BUSY_MS = 2_000;

// What each write is, for a user.
const _WHAT: Record<PendingWrite["kind"], string> = {
  startRun: "run's start",
  endRun: "run's end",
  addEntry: "typed turn",
  addAction: "tool call",
  saveScreen: "screen snapshot",
  addHandoff: "handoff record",
  updateHandoff: "handoff update",
  startOutput: "recording record",
  addDecisions: "decision records",
  finishOutput: "recording timing",
  saveProbe: "agent probe",
};

/** A journal whose writes are kept in memory, not thrown, while the file cannot take them. */
export class ResilientJournal extends Journal {
  readonly #queue: WriteQueue;
  #report: (line: string) => void = () => {};
  #retry: ReturnType<typeof setInterval> | undefined;
  #lastTry = 0;
  /** The fault the kept writes wait on (null: none wait). */
  #fault: string | null = null;
  #toldDropped = false;
  readonly #toldGivenUp = new Set<string>();
  /** Files beside the journal (handoff files) whose write failed, retried with the writes. */
  readonly #files = new Map<string, { write: () => void; size: number }>();
  #fileChars = 0;

  /** Use {@link ResilientJournal.openLive}. */
  protected constructor(path: string, db: DatabaseSync, max?: number) {
    super(path, db);
    this.#queue = new WriteQueue(max);
  }

  /**
   * Opens the journal in `dir` like {@link Journal.open} (a damaged or foreign file is refused
   * the same way); `maxQueuedChars` bounds what is kept in memory.
   */
  static openLive(dir: string, opts: { maxQueuedChars?: number } = {}): ResilientJournal {
    const { path, db } = Journal.openDatabase(dir);
    const journal = new ResilientJournal(path, db, opts.maxQueuedChars);
    journal.repairOnOpen();
    journal.setBusyTimeout(LIVE_BUSY_MS);
    return journal;
  }

  /** Where the one-line reports go (the session's status line). */
  reportTo(report: (line: string) => void): void {
    this.#report = report;
  }

  /**
   * Keeps a file write that failed (`error`) to retry it with the journal's writes: a handoff
   * file on a full disk is written once there is room. Said once now and once when written.
   */
  override deferFile(path: string, write: () => void, error: unknown, size = 0): void {
    this.#files.set(path, { write, size });
    this.#fileChars += size;
    // Bounded like the writes: the oldest kept file gives way (its handoff was delivered already).
    for (const [old, kept] of this.#files) {
      if (this.#fileChars <= _MAX_FILE_CHARS || old === path) break;
      this.#files.delete(old);
      this.#fileChars -= kept.size;
      this.#report(`${old} could not be kept in memory any longer; it is lost`);
    }
    this.#report(
      `could not write ${path} (${(error as Error)?.message ?? error}); ` +
        "it is kept in memory and written when it can",
    );
    this.#startRetrying();
  }

  override notice(line: string): void {
    this.#report(line);
  }

  /** How many writes wait in memory. */
  get pending(): number {
    return this.#queue.length;
  }

  override startRun(run: NewRun, at: string = new Date().toISOString()): number {
    const provisional = this.#queue.provisionalRunId();
    this.#submit({ kind: "startRun", provisional, run, at });
    return this.#queue.realId(provisional);
  }

  override endRun(id: number, end: RunEnd, at: string = new Date().toISOString()): void {
    this.#submit({ kind: "endRun", runId: id, end, at });
  }

  override addEntry(runId: number, entry: NewEntry, at: string = new Date().toISOString()): number {
    this.#submit({ kind: "addEntry", runId, entry, at });
    return 0;
  }

  override addAction(
    runId: number,
    action: NewAction,
    at: string = new Date().toISOString(),
  ): number {
    this.#submit({ kind: "addAction", runId, action, at });
    return 0;
  }

  /**
   * Records the run's starting commit when the journal takes it now; a run whose row waits, or a
   * file that refuses it, goes without (a handoff then shows no changes since the start).
   */
  override setRunBase(runId: number, commit: string): void {
    if (this.#queue.isUnstored(runId)) return;
    try {
      super.setRunBase(this.#queue.realId(runId), commit);
    } catch { /* the diff stat is a help, never a reason to stop */ }
  }

  /** The runs that led to `runId` (itself alone when the journal cannot be read now). */
  override lineage(runId: number): number[] {
    if (this.#queue.isUnstored(runId)) return [runId];
    return this.#read(() => super.lineage(this.#queue.realId(runId)), [runId]);
  }

  /** The stored tool calls of a run followed by those still waiting. */
  override actions(runId: number): ActionRow[] {
    const stored = this.#queue.isUnstored(runId)
      ? []
      : this.#read(() => super.actions(this.#queue.realId(runId)), []);
    let seq = stored.length ? stored[stored.length - 1].seq : 0;
    const waiting = this.#queue.actionsOf(runId).map(({ action, at }) => ({
      ...action,
      seq: ++seq,
      at,
    }));
    return [...stored, ...waiting];
  }

  override saveScreen(
    runId: number,
    lines: string[],
    size?: ScreenSize,
    at: string = new Date().toISOString(),
  ): void {
    this.#submit({ kind: "saveScreen", runId, lines, size, at });
  }

  override addHandoff(h: NewHandoff, at: string = new Date().toISOString()): void {
    this.#submit({ kind: "addHandoff", handoff: h, at });
  }

  override updateHandoff(id: string, change: HandoffChange): void {
    this.#submit({ kind: "updateHandoff", id, change });
  }

  override saveProbe(
    stamp: BinaryStamp,
    probe: NewProbe,
    at: string = new Date().toISOString(),
  ): void {
    this.#submit({ kind: "saveProbe", stamp, probe, at });
  }

  /**
   * As {@link Journal.startOutput}; a run whose row is not stored yet records to a file named
   * after this process, which its row names once it is written.
   */
  override startOutput(
    runId: number,
    size: ScreenSize,
    file?: string,
    delivered: readonly string[] = [],
  ): string {
    const real = this.#queue.realId(runId);
    const name = file ??
      (real < 0
        ? `recordings/run-pending-${process.pid}-${-real}${RECORDING_SUFFIX}`
        : recordingFileName(real));
    this.#submit({ kind: "startOutput", runId, size, file: name, delivered });
    return join(dirname(this.path), name);
  }

  override addDecisions(runId: number, decisions: readonly Decision[]): void {
    if (decisions.length) this.#submit({ kind: "addDecisions", runId, decisions });
  }

  override finishOutput(runId: number, summary: { timing: string; truncated: boolean }): void {
    this.#submit({ kind: "finishOutput", runId, summary });
  }

  /** The stored entries of a run followed by those still waiting. */
  override entries(runId: number): EntryRow[] {
    const stored = this.#queue.isUnstored(runId)
      ? []
      : this.#read(() => super.entries(this.#queue.realId(runId)), []);
    let seq = stored.length ? stored[stored.length - 1].seq : 0;
    const waiting = this.#queue.entriesOf(runId).map(({ entry, at }) => ({
      seq: ++seq,
      role: entry.role,
      text: entry.text,
      fidelity: entry.fidelity,
      certainty: entry.certainty ?? null,
      at,
    }));
    return [...stored, ...waiting];
  }

  /** The waiting screen of a run, else the stored one. */
  override screen(runId: number): string[] | null {
    const waiting = this.#queue.screenOf(runId);
    if (waiting) return waiting;
    if (this.#queue.isUnstored(runId)) return null;
    return this.#read(() => super.screen(this.#queue.realId(runId)), null);
  }

  override cachedProbe(stamp: BinaryStamp): CachedProbe | null {
    return this.#read(() => super.cachedProbe(stamp), null);
  }

  /** Tries the kept writes a last time (waiting longer for a lock), says what is lost, closes. */
  override close(): void {
    clearInterval(this.#retry);
    this.#retry = undefined;
    if (this.#queue.length || this.#files.size) this.#flush(_CLOSE_BUSY_MS);
    clearInterval(this.#retry);
    for (const path of this.#files.keys()) this.#report(`${path} could not be written; it is lost`);
    if (this.#queue.length) this.#report(`${this.#fault}; ${this.#keepAside()}`);
    super.close();
  }

  // What the journal never took goes to a file of its own beside it (JSON lines), if the disk
  // takes that: the conversation is not lost with the process.
  #keepAside(): string {
    const n = this.#queue.length;
    const file = join(dirname(this.path), `journal-unsaved-${process.pid}-${Date.now()}.jsonl`);
    try {
      const lines = this.#queue.all().map((w) => JSON.stringify(w)).join("\n") + "\n";
      writeFileSync(file, lines, { mode: 0o600, flag: "wx" });
      return `the ${n} journal writes it never took are in ${file}`;
    } catch {
      return `the ${n} journal writes it never took are lost (nothing could be written)`;
    }
  }

  // Reads go on when the file is locked or full; when they cannot, what waits is all there is.
  #read<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (e) {
      if (journalFault(e) === null) throw e;
      return fallback;
    }
  }

  #submit(write: PendingWrite): void {
    if (this.#queue.length && performance.now() - this.#lastTry >= _RETRY_AT_WRITE_MS) {
      this.#flush();
    }
    if (this.#queue.length === 0) {
      try {
        this.#apply(write);
        return;
      } catch (e) {
        if (!this.#keep(e, write)) return;
      }
    }
    this.#queue.push(write);
    this.#tellDropped();
  }

  /** After `write` failed with `e`: true to keep it for later, false when it is given up. */
  #keep(e: unknown, write: PendingWrite): boolean {
    const fault = journalFault(e);
    if (!isPassing(fault)) {
      const line = fault
        ? `${describeFault(this.path, fault).what}; a ${_WHAT[write.kind]} was not saved`
        : `journal ${this.path}: a ${_WHAT[write.kind]} was not saved: ${
          (e as Error)?.message ?? e
        }`;
      if (!this.#toldGivenUp.has(line)) {
        this.#toldGivenUp.add(line);
        this.#report(line);
      }
      return false;
    }
    if (this.#fault === null) {
      this.#fault = describeFault(this.path, fault!).what;
      this.#report(
        `${this.#fault}; keeping what is not saved in memory, retrying every ${RETRY_MS / 1000} s`,
      );
      this.#startRetrying();
    }
    return true;
  }

  #startRetrying(): void {
    if (this.#retry !== undefined) return;
    this.#retry = setInterval(() => this.#flush(), RETRY_MS);
    Deno.unrefTimer(this.#retry);
  }

  #flushFiles(): void {
    for (const [path, { write, size }] of this.#files) {
      try {
        write();
      } catch {
        continue;
      }
      this.#files.delete(path);
      this.#fileChars -= size;
      this.#report(`wrote ${path}`);
    }
  }

  /**
   * Writes what waits, in order, until the file refuses again. While it is locked each try fails
   * at once (`busyMs` 0): a lock held for minutes must not freeze the agent's output for a busy
   * wait every few seconds.
   */
  #flush(busyMs = 0): void {
    this.#lastTry = performance.now();
    this.setBusyTimeout(busyMs);
    try {
      this.#flushWaiting();
    } finally {
      this.setBusyTimeout(LIVE_BUSY_MS);
    }
  }

  #flushWaiting(): void {
    this.#flushFiles();
    let written = 0;
    for (let next = this.#queue.peek(); next; next = this.#queue.peek()) {
      try {
        this.#apply(next);
        written++;
      } catch (e) {
        if (this.#keep(e, next)) return;
      }
      this.#queue.shift();
    }
    if (this.#fault !== null) {
      this.#report(
        `journal ${this.path} takes writes again; the ${written} kept in memory are saved`,
      );
      this.#fault = null;
      this.#toldDropped = false;
    }
    if (this.#files.size === 0) {
      clearInterval(this.#retry);
      this.#retry = undefined;
    }
  }

  #tellDropped(): void {
    const d = this.#queue.takeDropped();
    if (this.#toldDropped || d.decisions + d.screens + d.proofs + d.actions + d.turns === 0) return;
    this.#toldDropped = true;
    this.#report(
      `journal memory bound reached: dropped ${d.decisions} decision records, ${d.screens} ` +
        `screen snapshots, ${d.actions} tool calls, ${d.turns} typed ` +
        `turns, ${d.proofs} proofs (oldest first; runs and handoffs are kept)`,
    );
  }

  #apply(w: PendingWrite): void {
    const id = (runId: number) => this.#queue.realId(runId);
    switch (w.kind) {
      case "startRun":
        this.#queue.resolved(w.provisional, super.startRun(w.run, w.at));
        return;
      case "endRun":
        return super.endRun(id(w.runId), w.end, w.at);
      case "addEntry":
        super.addEntry(id(w.runId), w.entry, w.at);
        return;
      case "addAction":
        super.addAction(id(w.runId), w.action, w.at);
        return;
      case "saveScreen":
        return super.saveScreen(id(w.runId), w.lines, w.size, w.at);
      case "addHandoff": {
        const fromRun = w.handoff.fromRun === null ? null : id(w.handoff.fromRun);
        return super.addHandoff({ ...w.handoff, fromRun }, w.at);
      }
      case "updateHandoff": {
        const { toRun } = w.change;
        const change = toRun === undefined || toRun === null ? w.change : {
          ...w.change,
          toRun: id(toRun),
        };
        return super.updateHandoff(w.id, change);
      }
      case "startOutput":
        super.startOutput(id(w.runId), w.size, w.file, w.delivered);
        return;
      case "addDecisions":
        return super.addDecisions(id(w.runId), w.decisions);
      case "finishOutput":
        return super.finishOutput(id(w.runId), w.summary);
      case "saveProbe":
        return super.saveProbe(w.stamp, w.probe, w.at);
    }
  }
}
