/**
 * Layering: the CLI sits on top. Nothing in the product (mod.ts, src/, adapters/) imports
 * `src/cli/` except mod.ts and the CLI's own files (tests may test the CLI).
 */
import { ok as assert } from "node:assert/strict";
import { join, relative, resolve } from "node:path";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { REPO_DIR } from "./_paths.ts";

function _files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return _files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

Deno.test("nothing but mod.ts (and the CLI itself) imports src/cli/", () => {
  const cli = resolve(REPO_DIR, "src", "cli");
  const files = [..._files(join(REPO_DIR, "src")), ..._files(join(REPO_DIR, "adapters"))];
  assert(files.length > 50, "the product's files were found");
  const offenders: string[] = [];
  for (const file of files) {
    if (file.startsWith(cli + "/")) continue;
    const source = readFileSync(file, "utf8");
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      if (!m[1].startsWith(".")) continue;
      const target = resolve(file, "..", m[1]);
      if (target.startsWith(cli + "/")) offenders.push(`${relative(REPO_DIR, file)} → ${m[1]}`);
    }
  }
  assert(offenders.length === 0, `imports of src/cli/ below the CLI:\n${offenders.join("\n")}`);
});
