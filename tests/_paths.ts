/**
 * Paths for integration tests: the repository, the shared corpus beside it, and how to start
 * uuldana from source.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The shared corpus and reference material: `$UULDANA_SHARED_DIR`, else `../shared` beside the
 * repository (as in development and CI).
 */
export const SHARED_DIR: string = Deno.env.get("UULDANA_SHARED_DIR") ??
  join(dirname(REPO_DIR), "shared");

/**
 * The V8 flags uuldana ships with, taken from `deno task start` (compile.sh embeds the same), so
 * tests and benchmarks run the program users get.
 */
export const V8_FLAGS: string = (() => {
  const config = JSON.parse(Deno.readTextFileSync(join(REPO_DIR, "deno.json")));
  const flag = /--v8-flags=\S+/.exec(config.tasks.start);
  if (!flag) throw new Error("deno.json: the start task names no --v8-flags");
  return flag[0];
})();

/** argv that starts uuldana from source with the running Deno, from any working directory. */
export const UULDANA: readonly string[] = [
  Deno.execPath(),
  "run",
  "-A",
  "--quiet",
  V8_FLAGS,
  "--config",
  join(REPO_DIR, "deno.json"),
  join(REPO_DIR, "mod.ts"),
];
