import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DispatchTable, identOf } from "./dispatch_table.ts";

Deno.test("identOf packs prefix and intermediates before the final, 8 bits each", () => {
  assertEquals(identOf("H"), 0x48);
  assertEquals(identOf("?h"), 0x3f68);
  assertEquals(identOf(" q"), 0x2071);
  assertEquals(identOf("?$p"), 0x3f2470);
});

Deno.test("a table finds finals alone and with prefixes, nothing for the rest", () => {
  const table = new DispatchTable([["h", "SM"], ["?h", "DECSET"], ["$p", "DECRQM"]]);
  assertEquals(
    [0x68, 0x3f68, identOf("$p"), identOf("?$p"), 0x6c, 0, -1].map((i) => table.get(i)),
    ["SM", "DECSET", "DECRQM", undefined, undefined, undefined, undefined],
  );
});
