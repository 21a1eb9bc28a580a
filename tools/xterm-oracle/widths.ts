/**
 * Writes or checks `src/vt/unicode11_widths.json`, xterm.js' Unicode 11 width of every code point,
 * which `src/vt/width.ts` builds `charWidth` from (dev-only; `sidecar_test.ts` checks it too):
 *
 *   deno run -A tools/xterm-oracle/widths.ts [--check]
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { WIDTH_TABLE_FILE } from "../../tests/_paths.ts";
import { widthTableText } from "./width_table.ts";

const text = widthTableText();
if (readFileSync(WIDTH_TABLE_FILE, "utf8") !== text) {
  if (Deno.args.includes("--check")) {
    console.error(`${WIDTH_TABLE_FILE}: differs from xterm.js' widths`);
    Deno.exit(1);
  }
  writeFileSync(WIDTH_TABLE_FILE, text);
  console.log(`wrote ${WIDTH_TABLE_FILE}`);
}
