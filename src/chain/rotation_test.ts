import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rotation } from "./rotation.ts";

const chain = ["a", "b", "c", "d"];

Deno.test("rotation wrap: the members after `from`, wrapping round, `from` last", () => {
  assertEquals(rotation(chain, "b", "wrap"), ["c", "d", "a", "b"]);
  assertEquals(rotation(chain, "d", "wrap"), ["a", "b", "c", "d"]);
  assertEquals(rotation(chain, null, "wrap"), chain);
});

Deno.test("rotation once: only the members after `from`, each once", () => {
  assertEquals(rotation(chain, "b", "once"), ["c", "d"]);
  assertEquals(rotation(chain, "d", "once"), []);
  assertEquals(rotation(chain, null, "once"), chain);
});
