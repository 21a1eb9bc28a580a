/**
 * The width table file's text: xterm.js' Unicode 11 widths as ranges, with where they come from.
 *
 * @module
 */
import { ORACLE_NAME, xtermWidthRanges } from "./xterm_state.ts";

/** The JSON text of the width table (one line, final LF). */
export function widthTableText(): string {
  return JSON.stringify({
    source: `${ORACLE_NAME.replace("@xterm/headless@", "@xterm/headless ")} unicode provider 11`,
    note: "width of a lone codepoint; 0 = joins preceding cell (combining/ZW), " +
      "C0/C1 controls are handled by the parser before width lookup",
    ranges: xtermWidthRanges(),
  }) + "\n";
}
