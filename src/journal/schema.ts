/**
 * The journal's schema as an ordered list of forward migrations. `PRAGMA user_version` holds the
 * number of migrations applied; a database is only ever moved forward, inside one transaction.
 *
 * @module
 */

/** Each entry moves the schema from version i to i + 1. Never edit a released entry: append. */
export const MIGRATIONS: readonly string[] = [
  // 1: runs, what they showed and said, and the handoffs between them.
  `CREATE TABLE runs (
     id          INTEGER PRIMARY KEY,
     agent       TEXT NOT NULL,
     bin         TEXT,
     workspace   TEXT NOT NULL,
     transport   TEXT NOT NULL CHECK (transport IN ('pty', 'headless')),
     started_at  TEXT NOT NULL,
     ended_at    TEXT,
     end_reason  TEXT,
     exit_code   INTEGER,
     owner_pid   INTEGER
   );
   CREATE TABLE entries (
     run_id    INTEGER NOT NULL REFERENCES runs(id),
     seq       INTEGER NOT NULL,
     role      TEXT NOT NULL CHECK (role IN ('user', 'agent')),
     text      TEXT NOT NULL,
     fidelity  TEXT NOT NULL CHECK (fidelity IN ('keystrokes', 'screen', 'event')),
     at        TEXT NOT NULL,
     PRIMARY KEY (run_id, seq)
   );
   CREATE TABLE screens (
     run_id  INTEGER PRIMARY KEY REFERENCES runs(id),
     lines   TEXT NOT NULL,
     cols    INTEGER,
     rows    INTEGER,
     at      TEXT NOT NULL
   );
   CREATE TABLE handoffs (
     id          TEXT PRIMARY KEY,
     from_run    INTEGER REFERENCES runs(id),
     to_agent    TEXT NOT NULL,
     to_run      INTEGER REFERENCES runs(id),
     mode        TEXT NOT NULL CHECK (mode IN ('auto', 'manual')),
     road        TEXT NOT NULL,
     characters  INTEGER NOT NULL,
     omitted     INTEGER NOT NULL DEFAULT 0,
     status      TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'pasted', 'saved', 'refused')),
     file_path   TEXT,
     error       TEXT,
     created_at  TEXT NOT NULL
   );
   CREATE INDEX handoffs_from ON handoffs(from_run);`,
  // 2: why a run stopped at a limit, delivery receipts, redaction counts, the prompt-proof cache
  // and the bounded raw output kept for `uuldana export`.
  `ALTER TABLE runs ADD COLUMN limit_message TEXT;
   ALTER TABLE runs ADD COLUMN resets_at TEXT;
   ALTER TABLE handoffs ADD COLUMN redactions INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE handoffs ADD COLUMN receipt TEXT;
   CREATE TABLE prompt_proofs (
     bin_path    TEXT NOT NULL,
     version     TEXT NOT NULL,
     accepted    INTEGER NOT NULL,
     line        TEXT,
     checked_at  TEXT NOT NULL,
     PRIMARY KEY (bin_path, version)
   );
   CREATE TABLE outputs (
     run_id     INTEGER PRIMARY KEY REFERENCES runs(id),
     cols       INTEGER NOT NULL,
     rows       INTEGER NOT NULL,
     timing     TEXT NOT NULL,
     data       BLOB NOT NULL,
     truncated  INTEGER NOT NULL DEFAULT 0
   );`,
  // 3: recorded output goes to a file beside the journal while the run goes (see
  // recording_file.ts); `file` names it and `data` stays empty. Older rows keep their blob.
  `ALTER TABLE outputs ADD COLUMN file TEXT;`,
  // 4: a handoff whose uuldana was killed before delivering it is marked 'interrupted' by the next
  // start, found by the process that made it (owner_pid). SQLite cannot change a CHECK in place:
  // the table is rebuilt with the same rows.
  `CREATE TABLE handoffs_v4 (
     id          TEXT PRIMARY KEY,
     from_run    INTEGER REFERENCES runs(id),
     to_agent    TEXT NOT NULL,
     to_run      INTEGER REFERENCES runs(id),
     mode        TEXT NOT NULL CHECK (mode IN ('auto', 'manual')),
     road        TEXT NOT NULL,
     characters  INTEGER NOT NULL,
     omitted     INTEGER NOT NULL DEFAULT 0,
     status      TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'pasted', 'saved',
                   'refused', 'interrupted')),
     file_path   TEXT,
     error       TEXT,
     created_at  TEXT NOT NULL,
     redactions  INTEGER NOT NULL DEFAULT 0,
     receipt     TEXT,
     owner_pid   INTEGER
   );
   INSERT INTO handoffs_v4 (id, from_run, to_agent, to_run, mode, road, characters, omitted, status,
       file_path, error, created_at, redactions, receipt)
     SELECT id, from_run, to_agent, to_run, mode, road, characters, omitted, status, file_path,
       error, created_at, redactions, receipt FROM handoffs;
   DROP TABLE handoffs;
   ALTER TABLE handoffs_v4 RENAME TO handoffs;
   CREATE INDEX handoffs_from ON handoffs(from_run);`,
  // 5: how sure uuldana is of each user turn (see src/capture/reconcile.ts); null for agent
  // entries and for turns recorded before this version.
  `ALTER TABLE entries ADD COLUMN certainty TEXT
     CHECK (certainty IS NULL OR certainty IN ('exact', 'reconstructed', 'best-effort'));`,
  // 6: the limit ledger every run and exec on the machine shares (src/chain/limits.ts decides with
  // it): one row per limit seen; an agent's latest row that is not cleared is its state.
  `CREATE TABLE limits (
     id          INTEGER PRIMARY KEY,
     agent       TEXT NOT NULL,
     kind        TEXT NOT NULL CHECK (kind IN ('usage', 'rate', 'stall')),
     message     TEXT NOT NULL,
     seen_at     TEXT NOT NULL,
     until       TEXT,
     run_id      INTEGER REFERENCES runs(id),
     strikes     INTEGER NOT NULL DEFAULT 0,
     cleared_at  TEXT
   );
   CREATE INDEX limits_agent ON limits(agent, id);`,
  // 7: the decision log (src/detect/decision.ts): per run, what detection concluded and when (a
  // limit seen, waiting to be confirmed, acted on, or rejected and why) at which byte offset of
  // its recording, and the structured-channel events next to it; `record` is the whole decision as
  // JSON. And the text uuldana delivered to a run (JSON array), which a replay of its recording
  // needs: a limit quoted in it never counts. Recordings are asciicast from now on (`.cast.gz`).
  `CREATE TABLE decisions (
     run_id       INTEGER NOT NULL REFERENCES runs(id),
     seq          INTEGER NOT NULL,
     at_ms        REAL NOT NULL,
     byte_offset  INTEGER NOT NULL,
     source       TEXT NOT NULL CHECK (source IN ('screen', 'channel')),
     verdict      TEXT NOT NULL CHECK (verdict IN ('seen', 'waiting', 'acted', 'rejected', 'event', 'disagree')),
     record       TEXT NOT NULL,
     PRIMARY KEY (run_id, seq)
   );
   ALTER TABLE outputs ADD COLUMN delivered TEXT;`,
  // 8: what a run's structured channel did (src/session/run_channel.ts: on, silent or off and
  // why, records read, dropped and ignored), as JSON; null for runs without a channel.
  `ALTER TABLE runs ADD COLUMN channel TEXT;`,
  // 9: the probe cache is keyed by the binary itself (its path, where that resolves to, its size
  // and modification time, and the environment it was probed with) and keeps the version it
  // printed: a binary that prints none, or whose --version timed out, still caches its proof.
  // prompt_proofs (keyed by path and version) gives way; its binaries are probed once again.
  `DROP TABLE prompt_proofs;
   CREATE TABLE agent_probes (
     bin_path       TEXT NOT NULL,
     env_key        TEXT NOT NULL,
     real_path      TEXT NOT NULL,
     size           INTEGER NOT NULL,
     mtime_ms       INTEGER NOT NULL,
     version        TEXT,
     version_known  INTEGER NOT NULL,
     accepted       INTEGER,
     line           TEXT,
     checked_at     TEXT NOT NULL,
     PRIMARY KEY (bin_path, env_key)
   );`,
  // 10: profiles (src/chain/profile.ts). A run keeps the chain member it ran as (`claude-api`); null
  // when that is the agent itself, as for every run before. The ledger's `agent` names that member
  // from now on: an existing "claude" row is the profile "claude", the agent alone.
  `ALTER TABLE runs ADD COLUMN profile TEXT;`,
  // 11: what each run did (src/session/run_channel.ts: the tool calls its channel reported, one
  // row each, bounded), for a handoff's "What was done"; and the commit its workspace was at when
  // it started, for the changes since (`git diff --stat`).
  `CREATE TABLE actions (
     run_id     INTEGER NOT NULL REFERENCES runs(id),
     seq        INTEGER NOT NULL,
     tool       TEXT NOT NULL,
     kind       TEXT NOT NULL,
     target     TEXT,
     outcome    TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
     exit_code  INTEGER,
     at         TEXT NOT NULL,
     PRIMARY KEY (run_id, seq)
   );
   ALTER TABLE runs ADD COLUMN base_commit TEXT;`,
  // 12: usage warnings (issue 29). A ledger row may say the agent is only *near* its limit (a
  // warning it showed: never limited, `until` is the warned reset); older rows are real limits
  // (near = 0). The decision log gains the `warning` verdict: SQLite cannot change a CHECK in
  // place, so the table is rebuilt with the same rows.
  `ALTER TABLE limits ADD COLUMN near INTEGER NOT NULL DEFAULT 0 CHECK (near IN (0, 1));
   CREATE TABLE decisions_v12 (
     run_id       INTEGER NOT NULL REFERENCES runs(id),
     seq          INTEGER NOT NULL,
     at_ms        REAL NOT NULL,
     byte_offset  INTEGER NOT NULL,
     source       TEXT NOT NULL CHECK (source IN ('screen', 'channel')),
     verdict      TEXT NOT NULL CHECK (verdict IN ('seen', 'waiting', 'acted', 'rejected', 'event',
                    'disagree', 'warning')),
     record       TEXT NOT NULL,
     PRIMARY KEY (run_id, seq)
   );
   INSERT INTO decisions_v12 SELECT run_id, seq, at_ms, byte_offset, source, verdict, record
     FROM decisions;
   DROP TABLE decisions;
   ALTER TABLE decisions_v12 RENAME TO decisions;`,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
