/**
 * The architecture of the chain core: `src/chain/` decides and does no I/O. Every module it loads
 * (type-only imports aside) is checked: no `node:` module, no `npm:` package, no Deno API.
 */
import { ok as assert } from "node:assert/strict";
import { dirname } from "node:path";
import { assertPure, valueImports } from "../_purity_test_util.ts";

Deno.test("src/chain/ and everything it loads do no I/O", () => {
  assertPure(dirname(new URL(import.meta.url).pathname), 5);
});

Deno.test("valueImports: type-only imports carry no value", () => {
  const src = `import type { A } from "./a.ts";
import { type B, type C } from "./b.ts";
import { d, type E } from "./d.ts";
export type { F } from "./f.ts";
import "./side.ts";`;
  assert(JSON.stringify(valueImports(src)) === JSON.stringify(["./d.ts", "./side.ts"]));
});
