/**
 * Writes or checks the two width files made from xterm.js' Unicode 11 width function (dev-only):
 * `testdata/xterm-wcwidth-v11.json`, which `src/vt/width_test.ts` holds our `charWidth` to, and
 * `src/vt/width_table.ts`, the ranges `charWidth` looks up.
 *
 *   deno run -A tools/xterm-oracle/widths.ts [--check]
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_DIR, WIDTH_TABLE_FILE } from "../../tests/_paths.ts";
import { widthModuleText, widthTableText } from "./width_table.ts";
import { xtermWidthRanges } from "./xterm_state.ts";

const ranges = xtermWidthRanges();
const files: [string, string][] = [
  [WIDTH_TABLE_FILE, widthTableText(ranges)],
  [join(REPO_DIR, "src", "vt", "width_table.ts"), widthModuleText(ranges)],
];
let differs = 0;
for (const [file, text] of files) {
  if (readFileSync(file, "utf8") === text) continue;
  if (Deno.args.includes("--check")) {
    console.error(`${file}: differs from xterm.js' widths`);
    differs++;
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
if (differs) Deno.exit(1);
