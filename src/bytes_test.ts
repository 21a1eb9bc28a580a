import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { concatBytes } from "./bytes.ts";

Deno.test("concatBytes joins parts in order; none gives an empty array", () => {
  assertEquals(
    concatBytes([new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])]),
    new Uint8Array([1, 2, 3]),
  );
  assertEquals(concatBytes([]), new Uint8Array([]));
});
