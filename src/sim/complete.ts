/**
 * `@path` completion for the simulated agents: the workspace entries a typed prefix may become,
 * directories with a trailing `/`, as Claude Code completes file mentions on Tab.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The paths under `cwd` that start with `prefix` (e.g. `src/disc` → `src/discount.ts`). */
export function completePath(cwd: string, prefix: string): string[] {
  const slash = prefix.lastIndexOf("/");
  const dir = prefix.slice(0, slash + 1);
  const start = prefix.slice(slash + 1);
  try {
    return readdirSync(join(cwd, dir), { withFileTypes: true })
      .filter((e) => e.name.startsWith(start) && !e.name.startsWith("."))
      .map((e) => dir + e.name + (e.isDirectory() ? "/" : ""))
      .sort();
  } catch {
    return []; // no such directory: nothing to complete
  }
}
