import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { charWidth } from "./width.ts";
import table from "./unicode11_widths.json" with { type: "json" };

Deno.test("charWidth equals xterm.js' Unicode 11 table for every code point", () => {
  let checked = 0;
  let expectedCp = 0;
  for (const [first, last, width] of table.ranges) {
    assertEquals(first, expectedCp, "the runs cover every code point in order");
    for (let cp = first; cp <= last; cp++) {
      if (charWidth(cp) !== width) assertEquals([cp, charWidth(cp)], [cp, width]);
      checked++;
    }
    expectedCp = last + 1;
  }
  assertEquals(checked, 0x110000);
  assertEquals([charWidth(0x41), charWidth(0x6f22), charWidth(0x1f680), charWidth(0x301)], [
    1,
    2,
    2,
    0,
  ]);
  // above the direct table: CJK extension G is wide, tags and variation selectors join
  assertEquals([charWidth(0x30000), charWidth(0xe0001), charWidth(0xe0100)], [2, 0, 0]);
});
