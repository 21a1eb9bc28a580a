/**
 * Writes or checks `testdata/xterm-wcwidth-v11.json`, xterm.js' Unicode 11 width of every code
 * point, which `src/vt/width_test.ts` holds our `charWidth` to (dev-only):
 *
 *   deno run -A tools/xterm-oracle/widths.ts [--check]
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { WIDTH_TABLE_FILE } from "../../tests/_paths.ts";
import { widthTableText } from "./width_table.ts";

const text = widthTableText();
if (Deno.args.includes("--check")) {
  if (readFileSync(WIDTH_TABLE_FILE, "utf8") !== text) {
    console.error(`${WIDTH_TABLE_FILE}: differs from xterm.js' table`);
    Deno.exit(1);
  }
} else {
  writeFileSync(WIDTH_TABLE_FILE, text);
  console.log(`wrote ${WIDTH_TABLE_FILE}`);
}
