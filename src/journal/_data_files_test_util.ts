/**
 * A data folder's past, made through the journal's own API with past times: a run that ended then
 * with a recording file of some size, a handoff made then with its file (retention tests).
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal } from "./journal.ts";
import type { HandoffStatus } from "./records.ts";
import { writeHandoffFile } from "../handoff/file.ts";

/** A run started and ended at `endedAt` (null: still running) with a recording of `bytes`. */
export function pastRecording(journal: Journal, endedAt: string | null, bytes: number): string {
  const run = { agent: "claude", workspace: "/w", transport: "pty" } as const;
  const id = journal.startRun(run, endedAt ?? new Date().toISOString());
  const path = journal.startOutput(id, { cols: 80, rows: 24 });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, new Uint8Array(bytes));
  if (endedAt !== null) journal.endRun(id, { reason: "exit", exitCode: 0 }, endedAt);
  return path;
}

/** A handoff `id` made at `createdAt`, now in `status`, with its file; returns the file's path. */
export function pastHandoff(
  journal: Journal,
  dataDir: string,
  id: string,
  createdAt: string,
  status: HandoffStatus,
  filePath: string = writeHandoffFile(dataDir, id, "# handoff\n".repeat(100)),
): string {
  journal.addHandoff({
    id,
    fromRun: null,
    toAgent: "codex",
    mode: "auto",
    road: "prompt",
    characters: 1000,
    omitted: 0,
    redactions: 0,
    status,
    filePath,
  }, createdAt);
  return filePath;
}
