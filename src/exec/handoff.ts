/**
 * Saving a headless handoff: the package (task, messages, limit), the text for the `prompt` road,
 * the full file and the journal row — all before the next agent starts.
 *
 * @module
 */
import type { Journal } from "../journal/journal.ts";
import { type Composed, composeFull, composeHandoff, roadCap } from "../handoff/compose.ts";
import { handoffPath, newHandoffId, writeHandoffFile } from "../handoff/file.ts";
import {
  type HandoffPackage,
  type HandoffReason,
  hasConversation,
  type TranscriptEntry,
} from "../handoff/package.ts";
import { describeWorkspace } from "../handoff/workspace.ts";

/**
 * Said after the framed record: headless, nobody can answer the frame's "ask before changing
 * anything", and the original request in the record is the user's own task (given to `exec`).
 */
export const HEADLESS_TRAILER =
  "\n\nThis is a non-interactive run (uuldana exec): nobody can answer questions. Continue the " +
  "user's original request shown in the record above, checking the workspace first, and finish it.";

/** A handoff saved and ready to deliver as the next agent's prompt. */
export interface SavedHandoff {
  id: string;
  /** Path of the full handoff file. */
  file: string;
  /** The framed record (within the road's cap minus the trailer). */
  composed: Composed;
  /** What the next agent receives: the framed record and `HEADLESS_TRAILER`. */
  prompt: string;
}

/** Input to `saveHandoff`. */
export interface SaveHandoffRequest {
  journal: Journal;
  dataDir: string;
  fromRun: number;
  from: string;
  to: string;
  reason: HandoffReason;
  workspace: string;
  /** The conversation so far, oldest first (the task first). */
  entries: TranscriptEntry[];
}

/**
 * Composes and saves a handoff (file + journal row, status `pending`). Returns null when nobody
 * spoke (no user entry): there is nothing to carry.
 */
export async function saveHandoff(req: SaveHandoffRequest): Promise<SavedHandoff | null> {
  const ws = await describeWorkspace(req.workspace);
  const pkg: HandoffPackage = {
    workspace: ws.path,
    git: ws.git,
    from: req.from,
    to: req.to,
    reason: req.reason,
    time: new Date().toISOString(),
    entries: req.entries,
  };
  if (!hasConversation(pkg)) return null;
  const id = newHandoffId();
  const pointer = handoffPath(req.dataDir, id);
  const cap = roadCap("prompt") - [...HEADLESS_TRAILER].length;
  const composed = composeHandoff(pkg, { road: "prompt", pointer, cap });
  if (!composed) return null;
  const full = composeFull(pkg, { pointer, nonce: composed.nonce });
  const file = writeHandoffFile(req.dataDir, id, full.text);
  req.journal.addHandoff({
    id,
    fromRun: req.fromRun,
    toAgent: req.to,
    mode: "auto",
    road: "prompt",
    characters: composed.characters + [...HEADLESS_TRAILER].length,
    omitted: composed.omitted,
    redactions: composed.redactions,
    status: "pending",
    filePath: file,
  });
  return { id, file, composed, prompt: composed.text + HEADLESS_TRAILER };
}
