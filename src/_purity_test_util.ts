/**
 * The purity check of a pure core (src/vt/, src/chain/, src/handoff/, src/detect/): every module a directory's modules
 * load (type-only imports aside) does no I/O: no `node:` module, no `npm:` package, no Deno API,
 * no timer and no clock of its own (time is passed in).
 *
 * @module
 */
import { ok as assert } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { readdirSync, readFileSync } from "node:fs";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** The value imports (not `import type`, not `export type`) of a module's source. */
export function valueImports(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms;
  for (const m of source.matchAll(re)) {
    if (m[2]) continue;
    // `import { type A, type B } from` carries no value either.
    const names = m[3].replace(/^\{|\}$/g, "").split(",").map((s) => s.trim()).filter(Boolean);
    if (m[3].startsWith("{") && names.every((n) => n.startsWith("type "))) continue;
    out.push(m[4]);
  }
  for (const m of source.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) out.push(m[1]);
  return out;
}

function _closure(entry: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const todo = [...entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    const imports = valueImports(readFileSync(file, "utf8"));
    seen.set(file, imports);
    for (const spec of imports) {
      if (spec.startsWith(".")) todo.push(resolve(dirname(file), spec));
    }
  }
  return seen;
}

/**
 * Asserts that the modules of `dir` (tests, `_` helpers and the files named in `shell` aside) and
 * all they load do no I/O: a pure module that loads a shell file fails too.
 */
export function assertPure(dir: string, minModules: number, shell: string[] = []): void {
  const entry = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith("_test.ts") && !f.startsWith("_"))
    .filter((f) => !shell.includes(f))
    .map((f) => join(dir, f));
  assert(entry.length >= minModules, "the core's modules were found");
  for (const [file, imports] of _closure(entry)) {
    const where = relative(ROOT, file);
    for (const spec of imports) {
      assert(!spec.startsWith("node:") && !spec.startsWith("npm:"), `${where} imports ${spec}`);
      assert(spec.startsWith(".") || spec.endsWith(".json"), `${where} imports ${spec}`);
    }
    if (file.endsWith(".json")) continue;
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert(!/\bDeno\.|\bfetch\(|\bprocess\./.test(code), `${where} uses an I/O API`);
    // Time is passed in: a core keeps no timer and reads no clock of its own.
    assert(
      !/\b(?:setTimeout|setInterval|queueMicrotask)\(|\b(?:Date|performance)\.now\(/.test(code),
      `${where} keeps a timer or reads the clock`,
    );
  }
}
