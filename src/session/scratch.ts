/**
 * Scratch directories for one agent launch: the files a road writes for the agent to read (a
 * Claude settings file with the handoff hook, an OpenCode import file), which hold handoff text.
 * Each is private (0700) and named after the uuldana process that made it, so the next start
 * removes those whose owner is gone (a uuldana killed mid-switch). When the data directory refuses
 * new files (read-only, full), a private directory in the system's temporary directory is used:
 * a switch must not fail for want of a scratch folder.
 *
 * @module
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ensurePrivateDir } from "../config/paths.ts";
import { processAlive } from "../process_alive.ts";

/** The folder of scratch directories inside the data directory. */
export const SCRATCH_DIR = "scratch";
const _TMP_PREFIX = "uuldana-scratch-";
// `p<pid>-<ms>-<agent>` in the data directory; `uuldana-scratch-<pid>-<random>` in the temp dir.
const _OWNED = /^p(\d+)-/;
const _TMP_OWNED = /^uuldana-scratch-(\d+)-/;
// Directories of uuldanas from before owners were named: removed once this old.
const _UNOWNED_AGE_MS = 24 * 3600 * 1000;

/** Makes a new private scratch directory for launching `agent`; returns its path. */
export function newScratchDir(dataDir: string, agent: string): string {
  const name = `p${process.pid}-${Date.now()}-${agent}`;
  try {
    return ensurePrivateDir(join(dataDir, SCRATCH_DIR, name));
  } catch {
    // mkdtemp: a random name, mode 0700, never an existing path.
    return Deno.makeTempDirSync({ prefix: `${_TMP_PREFIX}${process.pid}-` });
  }
}

/**
 * Removes a scratch directory once its agent is gone. Never throws: one the disk will not let go of
 * now (a read-only data directory) is removed by a later start's {@link sweepScratch}.
 */
export function removeScratchDir(path: string): void {
  _remove(path);
}

function _entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function _remove(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the scratch directories whose uuldana is gone (killed before it could clean up), in the
 * data directory and the temporary directory; returns how many. Never throws.
 */
export function sweepScratch(dataDir: string, now = Date.now()): number {
  let removed = 0;
  const base = join(dataDir, SCRATCH_DIR);
  for (const name of _entries(base)) {
    const owner = _OWNED.exec(name);
    const path = join(base, name);
    if (owner ? processAlive(Number(owner[1])) : !_olderThan(path, now, _UNOWNED_AGE_MS)) continue;
    if (_remove(path)) removed++;
  }
  const tmp = tmpdir();
  for (const name of _entries(tmp)) {
    const owner = _TMP_OWNED.exec(name);
    if (!owner || processAlive(Number(owner[1]))) continue;
    const path = join(tmp, name);
    if (_ownedByMe(path) && _remove(path)) removed++;
  }
  return removed;
}

function _olderThan(path: string, now: number, ms: number): boolean {
  try {
    return now - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

// In a shared temporary directory only our own user's folders are ours to remove.
function _ownedByMe(path: string): boolean {
  try {
    return statSync(path).uid === process.getuid?.();
  } catch {
    return false;
  }
}
