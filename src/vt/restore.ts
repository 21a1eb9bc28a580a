/**
 * Bytes that put a user's terminal back to normal after an agent left modes set.
 *
 * @module
 */
import type { Modes } from "./modes.ts";

const _CSI = "\x1b[";

/**
 * The escape sequence that undoes what `modes` says an agent left set: leaves the alternate
 * screen, turns mouse reporting and its SGR encodings off, bracketed paste and focus events off,
 * pops every kitty keyboard flag, resets modifyOtherKeys, ends synchronized output, turns
 * application cursor/keypad, insert and origin mode off and autowrap back on; then always shows
 * the cursor and resets SGR attributes. Always safe to write to a terminal.
 */
export function restoreSequence(modes: Readonly<Modes>): string {
  let out = "";
  if (modes.synchronizedOutput) out += `${_CSI}?2026l`;
  if (modes.altScreen) out += `${_CSI}?1049l`;
  switch (modes.mouseTracking) {
    case "x10":
      out += `${_CSI}?9l`;
      break;
    case "vt200":
      out += `${_CSI}?1000l`;
      break;
    case "drag":
      out += `${_CSI}?1002l`;
      break;
    case "any":
      out += `${_CSI}?1003l`;
      break;
  }
  if (modes.mouseEncoding === "SGR") out += `${_CSI}?1006l`;
  if (modes.mouseEncoding === "SGR_PIXELS") out += `${_CSI}?1016l`;
  if (modes.bracketedPaste) out += `${_CSI}?2004l`;
  if (modes.sendFocus) out += `${_CSI}?1004l`;
  if (modes.kittyKeyboardFlags.length > 0) {
    out += `${_CSI}<${modes.kittyKeyboardFlags.length}u`;
  }
  if (modes.modifyOtherKeys !== 0) out += `${_CSI}>4m`;
  if (modes.applicationCursorKeys) out += `${_CSI}?1l`;
  if (modes.applicationKeypad) out += "\x1b>";
  if (modes.insert) out += `${_CSI}4l`;
  if (modes.origin) out += `${_CSI}?6l`;
  if (modes.reverseWraparound) out += `${_CSI}?45l`;
  if (!modes.wraparound) out += `${_CSI}?7h`;
  out += `${_CSI}0m${_CSI}?25h`;
  return out;
}
