/**
 * The handoff file: `<data dir>/handoffs/<id>.md`, the full, untrimmed handoff that every delivered
 * text points to. Written before any delivery is attempted, private (0600 in a 0700 directory),
 * and atomically (a temporary file renamed over the target), so a reader never sees half a file.
 *
 * @module
 */
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../config/paths.ts";

/** The directory of handoff files inside the data directory. */
export const HANDOFFS_DIR = "handoffs";

function _hex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/** A new handoff id that sorts by time: `20261130T013300Z-<6 hex>` (UTC). */
export function newHandoffId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `${stamp}-${_hex(3)}`;
}

/** Whether `id` is safe as a file name (no separators, no leading dot). */
export function isHandoffId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(id);
}

/** Where the handoff file with `id` lives (whether or not it exists). */
export function handoffPath(dataDir: string, id: string): string {
  if (!isHandoffId(id)) throw new RangeError(`invalid handoff id "${id}"`);
  return join(dataDir, HANDOFFS_DIR, `${id}.md`);
}

/**
 * Writes `text` to `<dataDir>/handoffs/<id>.md` (mode 0600) atomically: a temporary file in the
 * same directory is written, synced and renamed over the target. Creates `handoffs/` (0700) when
 * needed. Returns the file's path.
 */
export function writeHandoffFile(dataDir: string, id: string, text: string): string {
  const path = handoffPath(dataDir, id);
  const dir = ensurePrivateDir(join(dataDir, HANDOFFS_DIR));
  const temp = join(dir, `.${id}.md.${_hex(4)}.tmp`);
  // "wx": fail rather than follow a planted file or symlink at the temporary path.
  const fd = openSync(temp, "wx", 0o600);
  try {
    try {
      fchmodSync(fd, 0o600); // whatever the umask
      writeFileSync(fd, text); // loops until every byte is written, unlike one writeSync
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    throw e;
  }
  _syncDir(dir);
  return path;
}

// Makes the rename durable; best effort (not every platform can open a directory).
function _syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // durability is a bonus here; the rename itself is atomic
  }
}
