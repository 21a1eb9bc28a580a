/**
 * Bytes that put a user's terminal back to normal after an agent left modes set.
 *
 * @module
 */
import type { Modes } from "./modes.ts";

const _CSI = "\x1b[";
// Every tracking mode and SGR encoding: some terminals (WezTerm) keep ?1000/?1002/?1003 and
// ?1006/?1016 as separate flags, while the model keeps only the last one set (as xterm does).
const _MOUSE_OFF = [9, 1000, 1002, 1003, 1006, 1016].map((m) => `${_CSI}?${m}l`).join("");

/**
 * The escape sequence that undoes what `modes` says an agent left set: ends synchronized
 * output, leaves the alternate screen, turns mouse reporting (every tracking mode and
 * encoding) off, bracketed paste, focus events and colour scheme reports off, pops every
 * kitty keyboard flag, resets modifyOtherKeys, turns application cursor/keypad, insert,
 * origin and reverse-wraparound mode off and autowrap back on; then always shows the cursor
 * and resets SGR attributes. Always safe to write to a terminal.
 */
export function restoreSequence(modes: Readonly<Modes>): string {
  let out = "";
  if (modes.synchronizedOutput) out += `${_CSI}?2026l`;
  const kitty = modes.kittyKeyboardFlags.length;
  const popKitty = kitty > 0 ? `${_CSI}<${kitty}u` : "";
  // Kitty-protocol terminals keep one flag stack per screen: pop on both sides of leaving the
  // alternate screen (popping more entries than a stack holds is harmless).
  if (modes.altScreen) out += `${popKitty}${_CSI}?1049l`;
  out += popKitty;
  if (modes.mouseTracking !== "none" || modes.mouseEncoding !== "DEFAULT") out += _MOUSE_OFF;
  if (modes.bracketedPaste) out += `${_CSI}?2004l`;
  if (modes.sendFocus) out += `${_CSI}?1004l`;
  if (modes.colorSchemeUpdates) out += `${_CSI}?2031l`;
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
