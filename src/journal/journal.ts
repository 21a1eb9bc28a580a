/**
 * The SQLite journal: every run, what it showed and what was said, and every handoff. It lives in
 * the data directory as `journal.db` (0600: it holds conversation text).
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { dirname, join } from "node:path";
import process from "node:process";
import { readRecordingFiles, RECORDING_SUFFIX, recordingFileName } from "./recording_file.ts";
import type { LimitEntry } from "../chain/limits.ts";
import type { Decision } from "../detect/decision.ts";
import { isPassing, journalFault } from "./sqlite_failure.ts";
import { processAlive } from "../process_alive.ts";
import type {
  ActionRow,
  BinaryStamp,
  CachedProbe,
  EntryRow,
  HandoffChange,
  HandoffRow,
  HandoffStatus,
  NewAction,
  NewEntry,
  NewHandoff,
  NewProbe,
  NewRun,
  RunChannelRecord,
  RunEnd,
  RunRow,
  ScreenSize,
  StoredOutput,
} from "./records.ts";
import {
  BUSY_MS,
  JournalError,
  journalProblem,
  openJournalDatabase,
  REPAIR_BUSY_MS,
} from "./open.ts";

// The records, and what opening a journal's file can say, are part of the journal's API.
export type * from "./records.ts";
export { JOURNAL_FILE, JournalError, journalProblem } from "./open.ts";

function _now(): string {
  return new Date().toISOString();
}

// Whether the uuldana that wrote a row (its pid; null: not recorded) is gone.
function _ownerGone(ownerPid: number | null): boolean {
  const owner = ownerPid === null ? null : Number(ownerPid);
  return owner !== process.pid && (owner === null || !processAlive(owner));
}

/** An open journal. Close it when done. */
export class Journal {
  /** Path of the database file. */
  readonly path: string;
  readonly #db: DatabaseSync;

  /** Use {@link Journal.open} (or a subclass's opener). */
  protected constructor(path: string, db: DatabaseSync) {
    this.path = path;
    this.#db = db;
  }

  /**
   * Opens (creating 0600 if missing) the journal in `dir`, migrates it forward and marks runs whose
   * owning process is gone as `interrupted`. A corrupt, foreign or newer file is never touched,
   * not even its permissions.
   */
  static open(dir: string): Journal {
    const { path, db } = Journal.openDatabase(dir);
    const journal = new Journal(path, db);
    journal.repairOnOpen();
    return journal;
  }

  /** Opens and migrates the database file of the journal in `dir` (see {@link Journal.open}). */
  protected static openDatabase(dir: string): { path: string; db: DatabaseSync } {
    return openJournalDatabase(dir);
  }

  /**
   * Marks interrupted runs, unless the file cannot be written right now (locked, full, read-only):
   * reading it still works, and the next start repairs them. A lock is waited for briefly only:
   * `runs` must not wait seconds for a repair it does not need.
   */
  protected repairOnOpen(): void {
    try {
      this.setBusyTimeout(REPAIR_BUSY_MS);
      this.repairInterrupted();
    } catch (e) {
      const fault = journalFault(e);
      if (!isPassing(fault)) {
        this.close();
        throw fault ? journalProblem(this.path, e) : e;
      }
    } finally {
      if (this.isOpen) this.setBusyTimeout(BUSY_MS);
    }
  }

  /**
   * Says a one-line problem with the files beside the journal (a recording that stopped) to the
   * user; a plain journal has nobody to tell. See `ResilientJournal.reportTo`.
   */
  notice(_line: string): void {}

  /**
   * What to do with a file beside the journal (a handoff file of `size` characters) whose write
   * failed with `error`: a plain journal throws it; `ResilientJournal` keeps the write (bounded)
   * and retries it.
   */
  deferFile(_path: string, _write: () => void, error: unknown, _size?: number): void {
    throw error;
  }

  /** How long a statement waits for another process's lock before it fails. */
  protected setBusyTimeout(ms: number): void {
    this.#db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(ms))}`);
  }

  /** The schema version of the open file. */
  get schemaVersion(): number {
    return Number(
      (this.#db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version,
    );
  }

  /** Runs `PRAGMA quick_check`; returns "ok" or the first problem. */
  check(): string {
    const row = this.#db.prepare("PRAGMA quick_check").get() as Record<string, string>;
    return String(Object.values(row)[0]);
  }

  /**
   * Marks open runs whose owner process is gone as ended with reason `interrupted`, and pending
   * handoffs whose uuldana is gone (killed while composing, importing or pasting) as
   * `interrupted`. Returns how many rows it marked.
   */
  repairInterrupted(): number {
    const open = this.#db.prepare(
      "SELECT id, owner_pid FROM runs WHERE ended_at IS NULL",
    ).all() as { id: number; owner_pid: number | null }[];
    let repaired = 0;
    const mark = this.#db.prepare(
      "UPDATE runs SET ended_at = ?, end_reason = 'interrupted' WHERE id = ? AND ended_at IS NULL",
    );
    for (const row of open) {
      if (!_ownerGone(row.owner_pid)) continue;
      mark.run(_now(), row.id);
      repaired++;
    }
    return repaired + this.#repairHandoffs();
  }

  #repairHandoffs(): number {
    // A row written before owners were recorded is left to a start after its run ended.
    const pending = this.#db.prepare(
      `SELECT h.id, h.owner_pid, r.ended_at AS runEnded FROM handoffs h
       LEFT JOIN runs r ON r.id = h.from_run WHERE h.status = 'pending'`,
    ).all() as { id: string; owner_pid: number | null; runEnded: string | null }[];
    const mark = this.#db.prepare(
      `UPDATE handoffs SET status = 'interrupted', error = ? WHERE id = ? AND status = 'pending'`,
    );
    let repaired = 0;
    for (const row of pending) {
      if (!_ownerGone(row.owner_pid) || (row.owner_pid === null && row.runEnded === null)) continue;
      mark.run("uuldana was stopped before it delivered this handoff; its file is kept", row.id);
      repaired++;
    }
    return repaired;
  }

  /** Records the start of a run (at `at`, default now) and returns its id. */
  startRun(run: NewRun, at: string = _now()): number {
    const result = this.#db.prepare(
      `INSERT INTO runs (agent, profile, bin, workspace, transport, started_at, owner_pid)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run.agent,
      run.profile && run.profile !== run.agent ? run.profile : null,
      run.bin ?? null,
      run.workspace,
      run.transport,
      at,
      process.pid,
    );
    return Number(result.lastInsertRowid);
  }

  /** Records how a run ended (at `at`, default now). */
  endRun(id: number, end: RunEnd, at: string = _now()): void {
    this.#db.prepare(
      `UPDATE runs SET ended_at = ?, end_reason = ?, exit_code = ?, limit_message = ?, resets_at = ?,
         channel = ?
       WHERE id = ?`,
    ).run(
      at,
      end.reason,
      end.exitCode ?? null,
      end.limitMessage ?? null,
      end.resetsAt ?? null,
      end.channel ? JSON.stringify(end.channel) : null,
      id,
    );
  }

  /** What run `id`'s channel did, or null (no channel, or not ended yet). */
  runChannel(id: number): RunChannelRecord | null {
    const row = this.#db.prepare("SELECT channel FROM runs WHERE id = ?").get(id) as
      | { channel: string | null }
      | undefined;
    return _channelRecord(row?.channel ?? null);
  }

  /** Each agent's latest ended run that had a channel: its id, end and what the channel did. */
  latestChannels(): Map<string, { runId: number; endedAt: string; channel: RunChannelRecord }> {
    const rows = this.#db.prepare(
      `SELECT r.agent, r.id, r.ended_at AS endedAt, r.channel FROM runs r
       WHERE r.id = (SELECT max(id) FROM runs WHERE agent = r.agent AND channel IS NOT NULL)`,
    ).all() as { agent: string; id: number; endedAt: string; channel: string }[];
    const out = new Map<string, { runId: number; endedAt: string; channel: RunChannelRecord }>();
    for (const r of rows) {
      const channel = _channelRecord(r.channel);
      if (channel) out.set(r.agent, { runId: Number(r.id), endedAt: r.endedAt, channel });
    }
    return out;
  }

  /** Appends a transcript entry (said at `at`, default now) and returns its sequence number. */
  addEntry(runId: number, entry: NewEntry, at: string = _now()): number {
    const row = this.#db.prepare(
      "SELECT coalesce(max(seq), 0) + 1 AS next FROM entries WHERE run_id = ?",
    )
      .get(runId) as { next: number };
    const seq = Number(row.next);
    this.#db.prepare(
      `INSERT INTO entries (run_id, seq, role, text, fidelity, certainty, at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(runId, seq, entry.role, entry.text, entry.fidelity, entry.certainty ?? null, at);
    return seq;
  }

  /** Records a tool call of run `runId`; returns its sequence number. */
  addAction(runId: number, action: NewAction, at: string = _now()): number {
    const row = this.#db.prepare(
      "SELECT coalesce(max(seq), 0) + 1 AS next FROM actions WHERE run_id = ?",
    ).get(runId) as { next: number };
    const seq = Number(row.next);
    this.#db.prepare(
      `INSERT INTO actions (run_id, seq, tool, kind, target, outcome, exit_code, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      runId,
      seq,
      action.tool,
      action.kind,
      action.target,
      action.outcome,
      action.exitCode ?? null,
      at,
    );
    return seq;
  }

  /** The tool calls of a run, in order. */
  actions(runId: number): ActionRow[] {
    const rows = this.#db.prepare(
      `SELECT seq, tool, kind, target, outcome, exit_code AS exitCode, at FROM actions
       WHERE run_id = ? ORDER BY seq`,
    ).all(runId) as unknown as (ActionRow & { exitCode: number | null })[];
    return rows.map(({ exitCode, ...r }) => exitCode === null ? r : { ...r, exitCode });
  }

  /** Records the commit run `runId`'s workspace was at when it started. */
  setRunBase(runId: number, commit: string): void {
    this.#db.prepare("UPDATE runs SET base_commit = ? WHERE id = ?").run(commit, runId);
  }

  /**
   * The runs whose work led to run `runId`, oldest first, ending with it: each one's handoff
   * (`to_run`) names the one before it. Bounded, and safe against a loop.
   */
  lineage(runId: number): number[] {
    const out = [runId];
    const stmt = this.#db.prepare(
      "SELECT from_run AS fromRun FROM handoffs WHERE to_run = ? AND from_run IS NOT NULL LIMIT 1",
    );
    for (let at = runId; out.length < 100;) {
      const row = stmt.get(at) as { fromRun: number } | undefined;
      if (!row || out.includes(Number(row.fromRun))) break;
      at = Number(row.fromRun);
      out.unshift(at);
    }
    return out;
  }

  /** The transcript entries of a run, in order. */
  entries(runId: number): EntryRow[] {
    return this.#db.prepare(
      "SELECT seq, role, text, fidelity, certainty, at FROM entries WHERE run_id = ? ORDER BY seq",
    ).all(runId) as unknown as EntryRow[];
  }

  /** Stores the last lines with text of a run's screen (replacing an earlier capture). */
  saveScreen(runId: number, lines: string[], size?: ScreenSize, at: string = _now()): void {
    this.#db.prepare(
      `INSERT INTO screens (run_id, lines, cols, rows, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(run_id) DO UPDATE SET lines = excluded.lines, cols = excluded.cols,
         rows = excluded.rows, at = excluded.at`,
    ).run(runId, JSON.stringify(lines), size?.cols ?? null, size?.rows ?? null, at);
  }

  /** The stored final screen lines of a run, or null. */
  screen(runId: number): string[] | null {
    const row = this.#db.prepare("SELECT lines FROM screens WHERE run_id = ?").get(runId) as
      | { lines: string }
      | undefined;
    return row ? JSON.parse(row.lines) : null;
  }

  /** One run, or null. */
  run(id: number): RunRow | null {
    const row = this.#db.prepare(`${_RUN_SELECT} WHERE id = ?`).get(id);
    return row ? (row as unknown as RunRow) : null;
  }

  /** How many runs the journal holds. */
  runCount(): number {
    return Number((this.#db.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n);
  }

  /** The most recent runs, newest first. */
  runs(limit = 50): RunRow[] {
    return this.#db.prepare(`${_RUN_SELECT} ORDER BY id DESC LIMIT ?`).all(
      limit,
    ) as unknown as RunRow[];
  }

  /** Records a handoff (before any delivery is tried; created at `at`, default now). */
  addHandoff(h: NewHandoff, at: string = _now()): void {
    this.#db.prepare(
      `INSERT INTO handoffs (id, from_run, to_agent, mode, road, characters, omitted, redactions,
         status, file_path, error, created_at, owner_pid)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      h.id,
      h.fromRun,
      h.toAgent,
      h.mode,
      h.road,
      h.characters,
      h.omitted,
      h.redactions,
      h.status,
      h.filePath,
      h.error ?? null,
      at,
      process.pid,
    );
  }

  /** Updates a handoff's delivery outcome. */
  updateHandoff(id: string, change: HandoffChange): void {
    const cur = this.handoff(id);
    if (!cur) throw new Error(`no handoff ${id}`);
    this.#db.prepare(
      "UPDATE handoffs SET status = ?, to_run = ?, error = ?, receipt = ?, road = ? WHERE id = ?",
    ).run(
      change.status ?? cur.status,
      change.toRun === undefined ? cur.toRun : change.toRun,
      change.error === undefined ? cur.error : change.error,
      change.receipt === undefined ? cur.receipt : change.receipt,
      change.road ?? cur.road,
      id,
    );
  }

  /** One handoff, or null. */
  handoff(id: string): HandoffRow | null {
    const row = this.#db.prepare(`${_HANDOFF_SELECT} WHERE id = ?`).get(id);
    return row ? (row as unknown as HandoffRow) : null;
  }

  /** Handoffs that started from a run, oldest first. */
  handoffsFrom(runId: number): HandoffRow[] {
    return this.#db.prepare(`${_HANDOFF_SELECT} WHERE from_run = ? ORDER BY created_at, rowid`)
      .all(runId) as unknown as HandoffRow[];
  }

  /** All handoffs, newest first. */
  handoffs(limit = 50): HandoffRow[] {
    return this.#db.prepare(`${_HANDOFF_SELECT} ORDER BY created_at DESC LIMIT ?`)
      .all(limit) as unknown as HandoffRow[];
  }

  /**
   * What the probes of the binary `stamp` describes found, or null when they never ran on it: a
   * binary whose path, real path, size or modification time changed is another binary.
   */
  cachedProbe(stamp: BinaryStamp): CachedProbe | null {
    const row = this.#db.prepare(
      `SELECT version, version_known, accepted, line, checked_at FROM agent_probes
       WHERE bin_path = ? AND env_key = ? AND real_path = ? AND size = ? AND mtime_ms = ?`,
    ).get(stamp.path, stamp.envKey, stamp.realPath, stamp.size, stamp.mtimeMs) as
      | {
        version: string | null;
        version_known: number;
        accepted: number | null;
        line: string | null;
        checked_at: string;
      }
      | undefined;
    if (!row) return null;
    return {
      version: row.version,
      versionKnown: Number(row.version_known) === 1,
      proof: row.accepted === null
        ? null
        : { accepted: Number(row.accepted) === 1, line: row.line },
      checkedAt: row.checked_at,
    };
  }

  /**
   * Caches what probes found about a binary. A part left unknown (`versionKnown` false, `proof`
   * null) keeps what another probe of the same binary stored; another binary at the same path
   * replaces the row whole.
   */
  saveProbe(stamp: BinaryStamp, probe: NewProbe, at: string = _now()): void {
    this.#db.prepare(
      `INSERT INTO agent_probes (bin_path, env_key, real_path, size, mtime_ms, version,
         version_known, accepted, line, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(bin_path, env_key) DO UPDATE SET
         version = CASE WHEN excluded.version_known = 1 OR NOT ${_SAME_BINARY}
           THEN excluded.version ELSE version END,
         version_known = CASE WHEN excluded.version_known = 1 OR NOT ${_SAME_BINARY}
           THEN excluded.version_known ELSE version_known END,
         line = CASE WHEN excluded.accepted IS NOT NULL OR NOT ${_SAME_BINARY}
           THEN excluded.line ELSE line END,
         accepted = CASE WHEN excluded.accepted IS NOT NULL OR NOT ${_SAME_BINARY}
           THEN excluded.accepted ELSE accepted END,
         real_path = excluded.real_path, size = excluded.size, mtime_ms = excluded.mtime_ms,
         checked_at = excluded.checked_at`,
    ).run(
      stamp.path,
      stamp.envKey,
      stamp.realPath,
      stamp.size,
      stamp.mtimeMs,
      probe.versionKnown ? probe.version : null,
      probe.versionKnown ? 1 : 0,
      probe.proof === null ? null : probe.proof.accepted ? 1 : 0,
      probe.proof?.line ?? null,
      at,
    );
  }

  /** Forgets every cached probe (`uuldana agents --refresh` probes them all again). */
  forgetProbes(): void {
    this.#db.exec("DELETE FROM agent_probes");
  }

  /**
   * Opens a run's recording for `uuldana export` at its size now and returns the path of the
   * file its members go to. Whether it was cut short follows at the end ({@link finishOutput}).
   */
  startOutput(
    runId: number,
    size: ScreenSize,
    file: string = recordingFileName(runId),
    delivered: readonly string[] = [],
  ): string {
    this.#db.prepare(
      `INSERT INTO outputs (run_id, cols, rows, timing, data, truncated, file, delivered)
       VALUES (?, ?, ?, '', x'', 0, ?, ?)
       ON CONFLICT(run_id) DO UPDATE SET cols = excluded.cols, rows = excluded.rows,
         file = excluded.file, delivered = excluded.delivered`,
    ).run(runId, size.cols, size.rows, file, JSON.stringify(delivered));
    return join(dirname(this.path), file);
  }

  /** Appends records to a run's decision log, in order. */
  addDecisions(runId: number, decisions: readonly Decision[]): void {
    if (decisions.length === 0) return;
    const row = this.#db.prepare(
      "SELECT coalesce(max(seq), 0) AS last FROM decisions WHERE run_id = ?",
    ).get(runId) as { last: number };
    const insert = this.#db.prepare(
      `INSERT INTO decisions (run_id, seq, at_ms, byte_offset, source, verdict, record)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    let seq = Number(row.last);
    for (const d of decisions) {
      insert.run(runId, ++seq, d.atMs, d.offset, d.source, d.verdict, JSON.stringify(d));
    }
  }

  /** A run's decision log, oldest first. */
  decisions(runId: number): Decision[] {
    const rows = this.#db.prepare(
      "SELECT record FROM decisions WHERE run_id = ? ORDER BY seq",
    ).all(runId) as { record: string }[];
    return rows.map((r) => JSON.parse(r.record));
  }

  /** Stores the timing that goes with a run's recorded members. */
  finishOutput(runId: number, summary: { timing: string; truncated: boolean }): void {
    this.#db.prepare("UPDATE outputs SET timing = ?, truncated = ? WHERE run_id = ?")
      .run(summary.timing, summary.truncated ? 1 : 0, runId);
  }

  /**
   * A run's recording, or null when it recorded none: the gzip data (from its file; a run
   * recorded before schema 3 has it in the journal), its format (`cast`: timed asciicast, every
   * run since schema 7; `raw`: output bytes, with the classic timing unless the run was
   * interrupted) and the file's path. Throws {@link JournalError} when the recording's file is
   * gone.
   */
  output(runId: number): StoredOutput | null {
    const row = this.#db.prepare(
      "SELECT cols, rows, timing, data, truncated, file, delivered FROM outputs WHERE run_id = ?",
    )
      .get(runId) as {
        cols: number;
        rows: number;
        timing: string;
        data: Uint8Array;
        truncated: number;
        file: string | null;
        delivered: string | null;
      } | undefined;
    if (!row) return null;
    const { file, delivered, ...stored } = row;
    let data = stored.data;
    const path = file === null ? null : join(dirname(this.path), file);
    if (path !== null) {
      try {
        data = readRecordingFiles(path);
      } catch (e) {
        throw new JournalError(
          `run ${runId}'s recording ${path} cannot be read: ${(e as Error).message}`,
          "recordings live beside the journal; it may have been deleted, or removed by the " +
            "retention rule (`retention` in the config)",
        );
      }
    }
    return {
      ...stored,
      data,
      truncated: Number(row.truncated) === 1,
      format: file?.endsWith(RECORDING_SUFFIX) ? "cast" : "raw",
      path,
      delivered: delivered ? JSON.parse(delivered) : [],
    };
  }

  /** Appends a limit to the ledger (every uuldana on this machine reads it); returns its id. */
  addLimit(entry: LimitEntry): number {
    const result = this.#db.prepare(
      `INSERT INTO limits (agent, kind, message, seen_at, until, run_id, strikes, near)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      entry.agent,
      entry.kind,
      entry.message,
      entry.seenAt,
      entry.until,
      entry.runId,
      entry.strikes,
      entry.near ? 1 : 0,
    );
    return Number(result.lastInsertRowid);
  }

  /**
   * Each agent's latest limit that was not cleared, by agent name: a real limit, or a warning
   * (`near`) seen after it.
   */
  latestLimits(): Map<string, LimitEntry> {
    const rows = this.#db.prepare(
      `SELECT agent, kind, message, seen_at AS seenAt, until, run_id AS runId, strikes, near
       FROM limits
       WHERE id IN (SELECT max(id) FROM limits GROUP BY agent) AND cleared_at IS NULL`,
    ).all() as unknown as (Omit<LimitEntry, "near"> & { near: number })[];
    return new Map(rows.map((r) => [r.agent, _limitEntry(r)]));
  }

  /** The whole ledger, newest first (cleared entries too). */
  limitHistory(limit = 50): (LimitEntry & { id: number; clearedAt: string | null })[] {
    return (this.#db.prepare(
      `SELECT id, agent, kind, message, seen_at AS seenAt, until, run_id AS runId, strikes,
         near, cleared_at AS clearedAt FROM limits ORDER BY id DESC LIMIT ?`,
    ).all(limit) as unknown as (Omit<LimitEntry, "near"> & {
      id: number;
      near: number;
      clearedAt: string | null;
    })[]).map(({ id, clearedAt, ...r }) => ({ ..._limitEntry(r), id: Number(id), clearedAt }));
  }

  /** Clears an agent's limits (the user knows they are stale); returns how many were open. */
  clearLimits(agent: string): number {
    const result = this.#db.prepare(
      "UPDATE limits SET cleared_at = ? WHERE agent = ? AND cleared_at IS NULL",
    ).run(_now(), agent);
    return Number(result.changes);
  }

  /**
   * Runs' recordings, for the retention rule (retention.ts): up to `limit` of them after run
   * `afterRunId`, in run order, each with its path relative to the journal's folder and when its
   * run ended (null while it runs). Paged, so a caller beside the keys never blocks for long.
   */
  recordingFiles(
    afterRunId: number,
    limit: number,
  ): { runId: number; file: string; endedAt: string | null }[] {
    const rows = this.#db.prepare(
      `SELECT o.run_id AS runId, o.file AS file, r.ended_at AS endedAt
       FROM outputs o JOIN runs r ON r.id = o.run_id
       WHERE o.file IS NOT NULL AND o.run_id > ? ORDER BY o.run_id LIMIT ?`,
    ).all(afterRunId, limit) as { runId: number; file: string; endedAt: string | null }[];
    return rows.map((r) => ({ ...r, runId: Number(r.runId) }));
  }

  /**
   * Handoffs' files, for the retention rule: up to `limit` after the one at `afterRow` (its `row`,
   * 0 to start), each with its status and when it was made. Paged like {@link recordingFiles}.
   */
  handoffFiles(
    afterRow: number,
    limit: number,
  ): { row: number; filePath: string; status: HandoffStatus; createdAt: string }[] {
    const rows = this.#db.prepare(
      `SELECT rowid AS row, file_path AS filePath, status, created_at AS createdAt FROM handoffs
       WHERE file_path IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT ?`,
    ).all(afterRow, limit) as {
      row: number;
      filePath: string;
      status: HandoffStatus;
      createdAt: string;
    }[];
    return rows.map((h) => ({ ...h, row: Number(h.row) }));
  }

  /** Whether the database is still open. */
  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}

/** A ledger row as the chain reads it: `near` only on a warning's row (older rows have none). */
function _limitEntry(r: Omit<LimitEntry, "near"> & { near: number }): LimitEntry {
  const { near, ...entry } = r;
  return {
    ...entry,
    runId: r.runId === null ? null : Number(r.runId),
    strikes: Number(r.strikes),
    ...(Number(near) === 1 ? { near: true as const } : {}),
  };
}

function _channelRecord(text: string | null): RunChannelRecord | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as RunChannelRecord;
  } catch {
    return null;
  }
}

// In an upsert of agent_probes: the row already there describes the same build of the binary.
const _SAME_BINARY = "(real_path = excluded.real_path AND size = excluded.size AND " +
  "mtime_ms = excluded.mtime_ms)";

const _RUN_SELECT =
  `SELECT id, agent, profile, base_commit AS baseCommit, bin, workspace, transport, started_at AS startedAt,
  ended_at AS endedAt, end_reason AS endReason, exit_code AS exitCode,
  limit_message AS limitMessage, resets_at AS resetsAt FROM runs`;

const _HANDOFF_SELECT = `SELECT id, from_run AS fromRun, to_agent AS toAgent, to_run AS toRun, mode,
  road, characters, omitted, redactions, status, file_path AS filePath, error, receipt,
  created_at AS createdAt FROM handoffs`;
