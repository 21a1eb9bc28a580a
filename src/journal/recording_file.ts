/**
 * The files a run's recording goes to while it runs: gzip members appended as they are made,
 * private to the user. Writing to a file costs the process no memory (a blob in SQLite cost ~8 MB
 * of heap on a 100 MB burst), and a run that is killed keeps everything it had recorded.
 *
 * A long run's recording is three files (src/session/recording.ts): the head (`run-N.cast.gz`,
 * the run's start, the only one a short run has) and two recent parts (`run-N.recent-1.cast.gz`,
 * the older, and `run-N.recent-2.cast.gz`, the newer). A new recent part is begun by renaming
 * the newer over the older (one rename: a run killed at any moment keeps a readable recording).
 * Read together, head then parts, they are one asciicast.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { RecordingSink } from "../session/recording.ts";
import { concatBytes } from "../bytes.ts";

/**
 * How a recording's file name ends: a gzip of asciicast v2 (src/detect/cast.ts). A file named
 * otherwise holds raw output (recorded before schema 7).
 */
export const RECORDING_SUFFIX = ".cast.gz";

/** Path of run `runId`'s recording, relative to the journal's directory. */
export function recordingFileName(runId: number): string {
  return `recordings/run-${runId}${RECORDING_SUFFIX}`;
}

/**
 * The recent parts of the recording whose head is at `path`, older first (none for a raw
 * recording's path).
 */
export function recordingPartPaths(path: string): string[] {
  if (!path.endsWith(RECORDING_SUFFIX)) return [];
  const base = path.slice(0, -RECORDING_SUFFIX.length);
  return [`${base}.recent-1${RECORDING_SUFFIX}`, `${base}.recent-2${RECORDING_SUFFIX}`];
}

/**
 * The whole recording whose head is at `path`: the head's bytes, then those of its recent parts
 * that exist. Throws when the head cannot be read.
 */
export function readRecordingFiles(path: string): Uint8Array {
  const parts = [Deno.readFileSync(path)];
  for (const part of recordingPartPaths(path)) {
    try {
      parts.push(Deno.readFileSync(part));
    } catch { /* not made (a short run), or dropped */ }
  }
  return concatBytes(parts);
}

/** An open recording: members are appended in order to its head, then to its newest part. */
export class RecordingFile implements RecordingSink {
  readonly #path: string;
  #file: Deno.FsFile;
  #parts = 0;

  private constructor(path: string, file: Deno.FsFile) {
    this.#path = path;
    this.#file = file;
  }

  /**
   * Creates (or empties) the head at `path` with mode 0600, its directory 0700; recent parts
   * left there by an earlier recording of the same name are removed.
   */
  static create(path: string): RecordingFile {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    for (const part of recordingPartPaths(path)) {
      try {
        Deno.removeSync(part);
      } catch { /* none */ }
    }
    return new RecordingFile(path, _create(path));
  }

  /** Appends all of `member`. */
  append(member: Uint8Array): void {
    for (let at = 0; at < member.length;) at += this.#file.writeSync(member.subarray(at));
  }

  /** Begins a new recent part: the newer becomes the older (the older before it is dropped). */
  rotate(): void {
    const [older, newer] = recordingPartPaths(this.#path);
    if (!newer) throw new Error("a raw recording has no recent parts");
    this.close();
    if (this.#parts > 0) Deno.renameSync(newer, older);
    this.#parts++;
    this.#file = _create(newer);
  }

  /** Closes the file being written; safe to call twice. */
  close(): void {
    try {
      this.#file.close();
    } catch { /* already closed */ }
  }
}

function _create(path: string): Deno.FsFile {
  return Deno.openSync(path, { write: true, create: true, truncate: true, mode: 0o600 });
}
