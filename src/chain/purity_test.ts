/**
 * The architecture of the chain core: `src/chain/` decides and does no I/O. Every module it loads
 * (type-only imports aside) is checked: no `node:` module, no `npm:` package, no Deno API.
 */
import { ok as assert } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { readdirSync, readFileSync } from "node:fs";

const HERE = dirname(new URL(import.meta.url).pathname);
const ROOT = resolve(HERE, "../..");

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

Deno.test("src/chain/ and everything it loads do no I/O", () => {
  const entry = readdirSync(HERE)
    .filter((f) => f.endsWith(".ts") && !f.endsWith("_test.ts") && !f.startsWith("_"))
    .map((f) => join(HERE, f));
  assert(entry.length >= 5, "the core's modules were found");
  for (const [file, imports] of _closure(entry)) {
    const where = relative(ROOT, file);
    for (const spec of imports) {
      assert(!spec.startsWith("node:") && !spec.startsWith("npm:"), `${where} imports ${spec}`);
      assert(spec.startsWith(".") || spec.endsWith(".json"), `${where} imports ${spec}`);
    }
    if (file.endsWith(".json")) continue;
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    assert(!/\bDeno\.|\bfetch\(|\bprocess\./.test(code), `${where} uses an I/O API`);
  }
});

Deno.test("valueImports: type-only imports carry no value", () => {
  const src = `import type { A } from "./a.ts";
import { type B, type C } from "./b.ts";
import { d, type E } from "./d.ts";
export type { F } from "./f.ts";
import "./side.ts";`;
  assert(JSON.stringify(valueImports(src)) === JSON.stringify(["./d.ts", "./side.ts"]));
});
