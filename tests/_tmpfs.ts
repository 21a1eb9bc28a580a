/**
 * A small tmpfs as a test's data directory, for faults of a real file system (full, read-only).
 * Mounting needs root; tests that need it are ignored where this machine does not allow it.
 *
 * @module
 */

/** Mounts a small tmpfs at `dir` (root only); returns false where this machine does not allow it. */
export async function mountTmpfs(dir: string, size: string): Promise<boolean> {
  Deno.mkdirSync(dir, { recursive: true });
  const out = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  return out?.success === true;
}

/** Runs a shell command line, quietly. */
export async function sh(script: string): Promise<void> {
  await new Deno.Command("sh", { args: ["-c", script], stdout: "null", stderr: "null" }).output();
}

/** Whether this machine lets a test mount a tmpfs. */
export const CAN_MOUNT: boolean = await (async () => {
  const probe = Deno.makeTempDirSync({ prefix: "uuldana-mount-probe-" });
  const ok = await mountTmpfs(probe, "64k");
  if (ok) await sh(`umount ${probe}`);
  Deno.removeSync(probe);
  return ok;
})();

/** A test's name, with why it is skipped where this machine cannot mount (the README's skip list). */
export function mountingTest(name: string): string {
  return CAN_MOUNT ? name : `${name} [skipped: mounting a tmpfs needs root]`;
}
