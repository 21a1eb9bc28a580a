/**
 * The file a run's recording goes to while it runs: gzip members appended as they are made,
 * private to the user. Writing to a file costs the process no memory (a blob in SQLite cost ~8 MB
 * of heap on a 100 MB burst), and a run that is killed keeps everything it had recorded.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * How a recording's file name ends: a gzip of asciicast v2 (src/detect/cast.ts). A file named
 * otherwise holds raw output (recorded before schema 7).
 */
export const RECORDING_SUFFIX = ".cast.gz";

/** Path of run `runId`'s recording, relative to the journal's directory. */
export function recordingFileName(runId: number): string {
  return `recordings/run-${runId}${RECORDING_SUFFIX}`;
}

/** An open recording file; members are appended in order. */
export class RecordingFile {
  readonly #file: Deno.FsFile;

  private constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /** Creates (or empties) the file at `path` with mode 0600, its directory 0700. */
  static create(path: string): RecordingFile {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return new RecordingFile(
      Deno.openSync(path, { write: true, create: true, truncate: true, mode: 0o600 }),
    );
  }

  /** Appends all of `member`. */
  append(member: Uint8Array): void {
    for (let at = 0; at < member.length;) at += this.#file.writeSync(member.subarray(at));
  }

  /** Closes the file; safe to call twice. */
  close(): void {
    try {
      this.#file.close();
    } catch { /* already closed */ }
  }
}
