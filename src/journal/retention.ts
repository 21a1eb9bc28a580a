/**
 * The data folder's bound: which recordings and handoff files the retention rule removes. Pure:
 * the files, their sizes and what the journal says of them come in (data_files.ts reads them, and
 * removes what the plan says).
 *
 * A file may be removed only when nothing can still need it: a run's recording once the run ended
 * more than `keepDays` ago, a handoff's file once it was delivered (`delivered`, `pasted`) more than
 * `keepDays` ago. A running run, a handoff not delivered (pending, saved, refused, interrupted: its
 * file is what the user was told to read) and a file the journal does not know are never removed.
 * Of the removable files, those older than `maxAgeDays` go; then, while all the files together
 * are over `maxMegabytes`, the oldest removable ones.
 *
 * @module
 */

/** The rule (`retention` in the config). */
export interface RetentionRule {
  /** Recordings and delivered handoffs older than this many days are removed. */
  maxAgeDays: number;
  /** Past this total of recordings and handoff files (MB, 10^6 bytes), the oldest removable go. */
  maxMegabytes: number;
  /** Nothing of the last this many days is ever removed, whatever the size. */
  keepDays: number;
}

/** The defaults: a month, a gigabyte, never the last three days. */
export const DEFAULT_RETENTION: Readonly<RetentionRule> = {
  maxAgeDays: 30,
  maxMegabytes: 1000,
  keepDays: 3,
};

/** One file of the data folder, as the rule sees it. */
export interface DataFile {
  /** Its path. */
  path: string;
  kind: "recording" | "handoff";
  /** Its size in bytes. */
  bytes: number;
  /** When its run ended or its handoff was made (ms since the epoch), null: still running. */
  at: number | null;
  /**
   * Whether anything may still need it whatever its age (a handoff not delivered), with why;
   * null when only its age decides.
   */
  held: string | null;
}

/** Why a file is removed. */
export type RemovalReason = "age" | "size";

/** What the rule keeps and removes of a data folder. */
export interface RetentionPlan {
  /** Every file's bytes added up, before anything is removed. */
  totalBytes: number;
  /** What is removed, oldest first, and why. */
  remove: { file: DataFile; reason: RemovalReason }[];
  /** What stays. */
  keep: DataFile[];
}

const _DAY_MS = 86_400_000;

/** Which of `files` the rule removes at `nowMs`. */
export function planRetention(
  files: readonly DataFile[],
  rule: RetentionRule,
  nowMs: number,
): RetentionPlan {
  const totalBytes = files.reduce((sum, f) => sum + f.bytes, 0);
  const recent = nowMs - rule.keepDays * _DAY_MS;
  const old = nowMs - rule.maxAgeDays * _DAY_MS;
  const removable = files
    .filter((f) => f.held === null && f.at !== null && f.at < recent)
    .sort((a, b) => a.at! - b.at! || a.path.localeCompare(b.path));
  const remove: RetentionPlan["remove"] = [];
  let left = totalBytes;
  for (const file of removable) {
    const reason = file.at! < old ? "age" : left > rule.maxMegabytes * 1e6 ? "size" : null;
    if (reason === null) continue;
    remove.push({ file, reason });
    left -= file.bytes;
  }
  const gone = new Set(remove.map((r) => r.file));
  return { totalBytes, remove, keep: files.filter((f) => !gone.has(f)) };
}

/** The rule in one line, for `uuldana doctor`. */
export function describeRule(rule: RetentionRule): string {
  return `recordings and delivered handoffs are kept ${rule.maxAgeDays} days and ` +
    `${rule.maxMegabytes} MB in all, the last ${rule.keepDays} days and undelivered handoffs always`;
}

/** Bytes as people read them ("12.3 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
