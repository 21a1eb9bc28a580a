/**
 * Turns what runs recorded into a saved handoff: the package, the composed text for a road, the
 * full file and the journal row — all before any delivery is attempted. The I/O shell around the
 * pure composer, shared by terminal runs and `uuldana exec`.
 *
 * @module
 */
import type { Journal } from "../journal/journal.ts";
import type { Road } from "../config/config.ts";
import type { HandoffPackage, HandoffReason, PackageAction, TranscriptEntry } from "./package.ts";
import { hasConversation } from "./package.ts";
import { type Composed, composeFull, composeHandoff } from "./compose.ts";
import { handoffPath, newHandoffId, writeHandoffFile } from "./file.ts";
import { newNonce } from "./frame.ts";
import { describeWorkspace } from "./workspace.ts";
import { timeOrdered } from "./transcript.ts";
import { adapterByName } from "../../adapters/registry.ts";

/** A handoff that is saved and ready to deliver. */
export interface PreparedHandoff {
  /** The handoff's id (its journal row and file name). */
  id: string;
  /** The full, untrimmed framed handoff file. */
  file: string;
  /** What was composed. */
  pkg: HandoffPackage;
  /** The text for the road, within its cap. */
  composed: Composed;
}

/**
 * The conversation of one run as transcript entries, in time order: its typed turns cut into the
 * last screen lines where the agent echoed them, with the limit menu left out (transcript.ts).
 * A run without a screen (headless) has its entries as recorded.
 */
export function runConversation(
  journal: Journal,
  runId: number,
  /** The limit message the run ended on, when the journal does not have it yet. */
  limitMessage?: string,
): TranscriptEntry[] {
  const entries: TranscriptEntry[] = journal.entries(runId).map((e) => ({
    role: e.role,
    text: e.text,
    fidelity: e.fidelity,
    at: e.at,
    ...(e.certainty ? { certainty: e.certainty } : {}),
  }));
  const screen = journal.screen(runId);
  if (!screen || screen.length === 0) return entries;
  const run = journal.run(runId);
  const agent = run ? adapterByName(run.agent) : undefined;
  const limit = limitMessage ?? run?.limitMessage ?? null;
  return timeOrdered(entries, screen, limit, agent?.inputBox, agent?.chromeRows);
}

/**
 * What the runs that led to `runId` (and it) did: their tool calls in order, each with the agent
 * (or profile) that made it, and the commit the first of them started from. A journal that cannot
 * say gives none: the handoff goes on without them.
 */
export function runActions(
  journal: Journal,
  runId: number,
): { actions: PackageAction[]; base: string | null } {
  try {
    const runs = journal.lineage(runId).map((id) => journal.run(id)).filter((r) => r !== null);
    const actions = runs.flatMap((run) =>
      journal.actions(run.id).map(({ seq: _seq, ...a }) => ({
        ...a,
        agent: run.profile ?? run.agent,
      }))
    );
    return { actions, base: runs[0]?.baseCommit ?? null };
  } catch {
    return { actions: [], base: null };
  }
}

/**
 * Builds, composes and saves a handoff (file + journal row with status `pending`, or `refused`
 * when `refused` is set). Returns null when nobody spoke: there is nothing to carry.
 */
export async function prepareHandoff(args: {
  journal: Journal;
  dataDir: string;
  fromRun: number | null;
  from: string;
  to: string;
  road: Road;
  mode: "auto" | "manual";
  reason: HandoffReason;
  workspace: string;
  entries: TranscriptEntry[];
  cap?: number;
  refused?: string;
  /** A request after the closing notice (automatic handoffs: continue the original request). */
  followUp?: string;
}): Promise<PreparedHandoff | null> {
  const done = args.fromRun === null
    ? { actions: [], base: null }
    : runActions(args.journal, args.fromRun);
  const ws = await describeWorkspace(args.workspace, done.base);
  const pkg: HandoffPackage = {
    workspace: ws.path,
    git: ws.git,
    from: args.from,
    to: args.to,
    reason: args.reason,
    time: new Date().toISOString(),
    entries: args.entries,
    actions: done.actions,
  };
  if (!hasConversation(pkg)) return null;
  const id = newHandoffId();
  const pointer = handoffPath(args.dataDir, id);
  const full = composeFull(pkg, { pointer, nonce: newNonce(), followUp: args.followUp });
  const composed = composeHandoff(pkg, {
    road: args.road,
    pointer,
    nonce: full.nonce,
    cap: args.cap,
    followUp: args.followUp,
  })!;
  const file = _writeFile(args.journal, args.dataDir, id, full.text);
  args.journal.addHandoff({
    id,
    fromRun: args.fromRun,
    toAgent: args.to,
    mode: args.mode,
    road: args.road,
    characters: composed.characters,
    omitted: composed.omitted,
    redactions: composed.redactions,
    status: args.refused ? "refused" : "pending",
    filePath: file,
    error: args.refused ?? null,
  });
  return { id, file, pkg, composed };
}

// A live run hands off even when the disk refuses the file (full, read-only): the next agent gets
// the composed text all the same, and the journal has the file written when it can (a plain
// journal throws instead).
function _writeFile(journal: Journal, dataDir: string, id: string, text: string): string {
  try {
    return writeHandoffFile(dataDir, id, text);
  } catch (e) {
    const path = handoffPath(dataDir, id);
    journal.deferFile(path, () => writeHandoffFile(dataDir, id, text), e, text.length);
    return path;
  }
}
