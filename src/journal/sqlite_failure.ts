/**
 * What a failed SQLite call means for the journal: a fault of the moment that a later retry may
 * get past (locked, full, read-only, I/O), a damaged file, or a mistake of ours. And the one line
 * a user is told for each, naming the file and what to do. Pure.
 *
 * @module
 */

/** The kinds of journal failure a user can do something about. */
export type JournalFault = "locked" | "full" | "readonly" | "io" | "damaged";

// SQLite primary result codes (the low byte of an extended code).
const _BY_CODE: Record<number, JournalFault> = {
  5: "locked", // SQLITE_BUSY
  6: "locked", // SQLITE_LOCKED
  8: "readonly", // SQLITE_READONLY
  10: "io", // SQLITE_IOERR
  11: "damaged", // SQLITE_CORRUPT
  13: "full", // SQLITE_FULL
  14: "io", // SQLITE_CANTOPEN
  26: "damaged", // SQLITE_NOTADB
};

// `exec()` errors of node:sqlite carry only the message, not `errcode`; creating the file can fail
// with a system error instead.
const _BY_MESSAGE: [RegExp, JournalFault][] = [
  [/database (table )?is locked|database is busy/i, "locked"],
  [/disk is full|database or disk is full|ENOSPC|no space left/i, "full"],
  [/readonly database|read-only|EROFS|EACCES|permission denied/i, "readonly"],
  [/disk I\/O error|unable to open database/i, "io"],
  [/malformed|not a database|file is encrypted/i, "damaged"],
];

/** Whether `e` was thrown by SQLite (node:sqlite) rather than by our own code. */
export function isSqliteError(e: unknown): boolean {
  return (e as { code?: unknown })?.code === "ERR_SQLITE_ERROR";
}

/** The kind of fault `e` is, or null when it is not one SQLite reports about the file. */
export function journalFault(e: unknown): JournalFault | null {
  const code = (e as { errcode?: unknown })?.errcode;
  if (typeof code === "number" && _BY_CODE[code & 0xff]) return _BY_CODE[code & 0xff];
  const message = (e as Error)?.message;
  if (typeof message !== "string") return null;
  for (const [re, fault] of _BY_MESSAGE) if (re.test(message)) return fault;
  return null;
}

/** Whether a write that failed with `fault` may succeed later unchanged (a damaged file won't). */
export function isPassing(fault: JournalFault | null): boolean {
  return fault !== null && fault !== "damaged";
}

/** What the user is told about the journal file `path` failing with `fault`. */
export function describeFault(path: string, fault: JournalFault): { what: string; hint: string } {
  switch (fault) {
    case "locked":
      return {
        what: `journal ${path} is locked by another process`,
        hint: `find it with \`fuser ${path}\` and end it, or set UULDANA_HOME to another directory`,
      };
    case "full":
      return {
        what: `journal ${path} cannot grow: the disk is full`,
        hint: "free some space on that disk, or set UULDANA_HOME to another directory",
      };
    case "readonly":
      return {
        what: `journal ${path} is read-only`,
        hint: "make the file and its directory writable, or set UULDANA_HOME to another directory",
      };
    case "io":
      return {
        what: `journal ${path} cannot be written (I/O error)`,
        hint: "check the disk it is on, or set UULDANA_HOME to another directory",
      };
    case "damaged":
      return {
        what: `journal ${path} is damaged`,
        hint: "move the file away (it is left untouched) to start a new journal, " +
          "or set UULDANA_HOME to another directory",
      };
  }
}
