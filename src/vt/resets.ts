/**
 * The two resets: RIS (`ESC c`, a terminal as new) and DECSTR (`CSI ! p`, the modes and margins
 * programs change, the screen kept).
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";

/**
 * RIS: blank buffers, cursor home, no scrollback, default modes (but `cursorHidden`, which
 * xterm.js keeps), charsets, margins and tabs; the title and bell count are kept, as xterm.js
 * keeps them. Nothing to do when nothing changed since the last RIS (a flood of them is O(1)).
 */
export function fullReset(vt: Interpreter): void {
  if (vt.pristine) return;
  vt.pristine = true;
  vt.screen.resetBuffers();
  vt.screen.convertEol = false;
  vt.screen.charsets.reset();
  vt.modes.reset();
}

/**
 * DECSTR: cursor shown; insert, origin, reverse-wraparound, application cursor keys and keypad,
 * bracketed paste, focus reports and synchronized output off; autowrap on; full margins, ASCII
 * charsets, saved cursor home.
 */
export function softReset(vt: Interpreter): void {
  const modes = vt.modes;
  modes.set("cursorHidden", false);
  modes.set("insert", false);
  modes.set("applicationCursorKeys", false);
  modes.set("applicationKeypad", false);
  modes.set("bracketedPaste", false);
  modes.set("origin", false);
  modes.set("reverseWraparound", false);
  modes.set("sendFocus", false);
  modes.set("synchronizedOutput", false);
  modes.set("wraparound", true);
  vt.screen.softReset();
}
