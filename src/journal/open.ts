/**
 * Opening the journal's file: created 0600, a lock waited for, WAL mode, the pending migrations in
 * one transaction, and a file refused (left untouched) when it is corrupt, foreign or newer; the
 * error a journal file's fault becomes.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { chmodSync, closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { UuldanaError } from "../errors.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import { describeFault, journalFault } from "./sqlite_failure.ts";

/** How long a statement waits for another uuldana's lock on the journal. */
export const BUSY_MS = 5_000;
/** How long the repair at open waits for one. */
export const REPAIR_BUSY_MS = 250;

/** The journal file name inside the data directory. */
export const JOURNAL_FILE = "journal.db";

/** Raised when the journal file cannot be used; names the file and what to do. */
export class JournalError extends UuldanaError {
  constructor(message: string, hint: string) {
    super(message, 1, hint);
    this.name = "JournalError";
  }
}

/**
 * The one-line error for a journal file that failed with a SQLite fault (locked, full, read-only,
 * I/O, damaged): it names the file and says what to do. Other errors get a generic line.
 */
export function journalProblem(path: string, e: unknown): JournalError {
  const fault = journalFault(e);
  if (!fault) {
    return new JournalError(
      `journal ${path} failed: ${(e as Error)?.message ?? e}`,
      "run again with UULDANA_DEBUG=1 for details",
    );
  }
  const { what, hint } = describeFault(path, fault);
  return new JournalError(what, hint);
}

/**
 * Opens (creating it 0600 if missing) the database file of the journal in `dir` and migrates it
 * forward; a corrupt, foreign or newer file is refused with a {@link JournalError} and never
 * touched, not even its permissions.
 */
export function openJournalDatabase(dir: string): { path: string; db: DatabaseSync } {
  const path = join(dir, JOURNAL_FILE);
  let db: DatabaseSync;
  try {
    if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
    db = new DatabaseSync(path);
  } catch (e) {
    throw _unusable(path, e);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_MS}`);
    // Checked before anything writes (WAL mode, migrations), so a refused file stays as it was.
    if (_version(db, path) < SCHEMA_VERSION) {
      _enableWal(db);
      _migrate(db, path);
    }
    db.exec("PRAGMA foreign_keys = ON");
    chmodSync(path, 0o600);
  } catch (e) {
    db.close();
    if (e instanceof JournalError) throw e;
    throw _unusable(path, e);
  }
  return { path, db };
}

function _unusable(path: string, e: unknown): JournalError {
  const fault = journalFault(e);
  if (fault) return journalProblem(path, e);
  return new JournalError(
    `journal ${path} cannot be opened: ${(e as Error).message}`,
    "the file is left untouched; move it away to start a new journal, or set UULDANA_HOME",
  );
}

// Switching to WAL takes an exclusive lock, and when two uuldanas switch at once SQLite answers
// "database is locked" at once instead of waiting (they would deadlock): retry until busy_timeout.
function _enableWal(db: DatabaseSync): void {
  const deadline = Date.now() + BUSY_MS;
  for (;;) {
    try {
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (e) {
      if (!/database is locked/.test((e as Error).message) || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
    }
  }
}

// The schema version, refusing a newer or a foreign file. One statement, so the version and the
// table count come from the same snapshot even while another uuldana is migrating.
function _version(db: DatabaseSync, path: string): number {
  const row = db.prepare(
    "SELECT (SELECT user_version FROM pragma_user_version) AS v, " +
      "(SELECT count(*) FROM sqlite_master) AS n",
  ).get() as { v: number; n: number };
  const version = Number(row.v);
  if (version > SCHEMA_VERSION) {
    throw new JournalError(
      `journal ${path} was written by a newer uuldana (schema ${version}, this one knows ${SCHEMA_VERSION})`,
      "upgrade uuldana, or point UULDANA_HOME at another directory",
    );
  }
  if (version === 0 && Number(row.n) > 0) {
    throw new JournalError(
      `journal ${path} is an SQLite database that uuldana did not create`,
      "move that file away (it is left untouched), or set UULDANA_HOME to another directory",
    );
  }
  return version;
}

// All pending migrations in one write transaction. The version is read again inside it: another
// uuldana started at the same moment may have migrated the file since it was first read.
function _migrate(db: DatabaseSync, path: string): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    const from = _version(db, path);
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
    if (from < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}
