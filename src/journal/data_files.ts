/**
 * The data folder's recordings and handoff files as the retention rule sees them (retention.ts):
 * what the journal says of each, their sizes on disk; and the rule applied, in the background of
 * a run (`uuldana run` starts it 10 s in: the journal read a page at a time, async file calls,
 * every failure swallowed, so it never delays the agent, the keys, or fails the run).
 *
 * @module
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Journal } from "./journal.ts";
import { recordingPartPaths } from "./recording_file.ts";
import { HANDOFFS_DIR } from "../handoff/file.ts";
import {
  type DataFile,
  planRetention,
  type RetentionPlan,
  type RetentionRule,
} from "./retention.ts";

/** Handoff statuses whose file has done its work: the agent received the handoff. */
const _DELIVERED = new Set(["delivered", "pasted"]);

/** A journal fact about a file, before its size is known. */
type KnownFile = Omit<DataFile, "bytes">;

/** How many rows one journal read takes: a few milliseconds of the event loop at most. */
const _PAGE = 200;

/**
 * The files the journal in `dataDir` knows, page by page (`pause` between pages: a run's
 * background lets the keys through there). A file that lies outside the data folder's
 * `recordings/` and `handoffs/` is left out: the rule never reaches anywhere else.
 */
async function* _known(
  journal: Journal,
  dataDir: string,
  pause: () => Promise<void> | void,
): AsyncGenerator<KnownFile> {
  const base = dirname(journal.path);
  for (let after = 0;;) {
    const page = journal.recordingFiles(after, _PAGE);
    for (const r of page) {
      const f: KnownFile = {
        path: resolve(base, r.file),
        kind: "recording",
        at: r.endedAt === null ? null : Date.parse(r.endedAt),
        held: null,
      };
      if (_inside(dataDir, f)) yield f;
    }
    if (page.length < _PAGE) break;
    after = page.at(-1)!.runId;
    await pause();
  }
  for (let after = 0;;) {
    const page = journal.handoffFiles(after, _PAGE);
    for (const h of page) {
      const f: KnownFile = {
        path: resolve(base, h.filePath),
        kind: "handoff",
        at: Date.parse(h.createdAt),
        held: _DELIVERED.has(h.status) ? null : `a handoff not delivered (${h.status})`,
      };
      if (_inside(dataDir, f)) yield f;
    }
    if (page.length < _PAGE) break;
    after = page.at(-1)!.row;
    await pause();
  }
}

// Whether `f` is in the data folder's own recordings/ or handoffs/ folder.
function _inside(dataDir: string, f: KnownFile): boolean {
  const rel = relative(resolve(dataDir), f.path);
  const folder = f.kind === "recording" ? "recordings" : HANDOFFS_DIR;
  return rel.startsWith(`${folder}${sep}`) && !rel.includes(`..${sep}`);
}

/** The data folder's known files with their sizes (a file already gone is left out). */
export async function dataFiles(
  journal: Journal,
  dataDir: string,
  pause: () => Promise<void> | void = () => new Promise((r) => setTimeout(r, 0)),
): Promise<DataFile[]> {
  const out: DataFile[] = [];
  for await (const f of _known(journal, dataDir, pause)) {
    try {
      let bytes = (await Deno.stat(f.path)).size;
      // A long run's recording is its head and its recent parts (recording_file.ts).
      for (const part of f.kind === "recording" ? recordingPartPaths(f.path) : []) {
        bytes += await Deno.stat(part).then((s) => s.size, () => 0);
      }
      out.push({ ...f, bytes });
    } catch { /* gone already */ }
  }
  return out;
}

/** The bytes in `dataDir` outside the known files: the journal and whatever else lies there. */
export function otherBytesSync(dataDir: string, known: readonly DataFile[]): number {
  const skip = new Set(
    known.flatMap((f) => [f.path, ...(f.kind === "recording" ? recordingPartPaths(f.path) : [])]),
  );
  let bytes = 0;
  const walk = (dir: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory) walk(path);
      else if (e.isFile && !skip.has(path)) {
        try {
          bytes += Deno.statSync(path).size;
        } catch { /* gone */ }
      }
    }
  };
  walk(resolve(dataDir));
  return bytes;
}

/**
 * Applies `rule` to the data folder: removes what {@link planRetention} says, one file at a time
 * (a file that cannot be removed is left, the rest still go). Returns the plan and what was
 * removed.
 */
export async function applyRetention(
  journal: Journal,
  dataDir: string,
  rule: RetentionRule,
  nowMs: number = Date.now(),
): Promise<{ plan: RetentionPlan; removed: DataFile[] }> {
  const plan = planRetention(await dataFiles(journal, dataDir), rule, nowMs);
  const removed: DataFile[] = [];
  for (const { file } of plan.remove) {
    try {
      await Deno.remove(file.path);
      removed.push(file);
      for (const part of file.kind === "recording" ? recordingPartPaths(file.path) : []) {
        await Deno.remove(part).catch(() => {});
      }
    } catch { /* left for the next run */ }
  }
  return { plan, removed };
}

/** How long into a run the rule is applied: after the agent has started and settled. */
export const RETENTION_DELAY_MS = 10_000;

/**
 * Applies `rule` in the background of a run, {@link RETENTION_DELAY_MS} in: never awaited, never
 * keeping the process alive, and nothing it meets (a closed journal, a locked file) is thrown.
 */
export function retainInBackground(
  journal: Journal,
  dataDir: string,
  rule: RetentionRule,
  delayMs = RETENTION_DELAY_MS,
): void {
  const timer = setTimeout(() => {
    applyRetention(journal, dataDir, rule).catch(() => {/* the next run tries again */});
  }, delayMs);
  Deno.unrefTimer(timer);
}
