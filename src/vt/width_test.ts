import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { charWidth } from "./width.ts";
import { SHARED_DIR } from "../../tests/_paths.ts";
import { join } from "node:path";

Deno.test("charWidth equals xterm.js' Unicode 11 table for every code point", () => {
  const table = JSON.parse(
    Deno.readTextFileSync(join(SHARED_DIR, "tools", "xterm-oracle", "xterm-wcwidth-v11.json")),
  ) as { ranges: [number, number, number][] };
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
