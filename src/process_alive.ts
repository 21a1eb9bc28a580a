/**
 * Whether a process still exists, for what a dead uuldana left behind (open runs, pending
 * handoffs, scratch folders).
 *
 * @module
 */
import process from "node:process";

/** Whether process `pid` exists (one of another user counts: it is not ours to clean up). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
