import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { charWidth } from "./width.ts";
import { WIDTH_TABLE_FILE } from "../../tests/_paths.ts";

Deno.test("charWidth equals xterm.js' Unicode 11 table for every code point", () => {
  const table = JSON.parse(Deno.readTextFileSync(WIDTH_TABLE_FILE)) as {
    ranges: [number, number, number][];
  };
  let checked = 0;
  for (const [first, last, width] of table.ranges) {
    for (let cp = first; cp <= last; cp++) {
      if (charWidth(cp) !== width) assertEquals([cp, charWidth(cp)], [cp, width]);
      checked++;
    }
  }
  assertEquals(checked, 0x110000);
  assertEquals([charWidth(0x41), charWidth(0x6f22), charWidth(0x1f680), charWidth(0x301)], [
    1,
    2,
    2,
    0,
  ]);
});
