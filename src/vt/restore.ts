/**
 * Bytes that put a user's terminal back to normal after an agent left modes set.
 *
 * @module
 */
import type { Modes } from "./modes.ts";

const _CSI = "\x1b[";
// Every tracking mode and SGR encoding: some terminals (WezTerm) keep ?1000/?1002/?1003 and
// ?1006/?1016 as separate flags, while the model keeps only the last one set (as xterm does).
// ?1005 and ?1015 are the UTF-8 and urxvt encodings.
const _MOUSE_OFF = [9, 1000, 1002, 1003, 1005, 1006, 1015, 1016].map((m) => `${_CSI}?${m}l`)
  .join("");

/**
 * What is reset whatever the screen model saw, as xterm's soft reset (DECSTR) and tmux's reset of
 * a pane do, but keeping the cursor where it is and autowrap on (DECSTR would home the saved
 * cursor and turn autowrap off, which no shell wants): left/right margin mode off (which drops
 * the margins), the top/bottom margins back to the whole screen (DECSTBM homes the cursor, so it
 * is saved and restored around it), reverse video off, G0 back to ASCII and shifted in (an agent
 * that stopped inside DEC line drawing would leave the shell writing box characters), and the
 * terminal's default cursor shape. Each is harmless on a terminal that is already so.
 */
const _ALWAYS = `${_CSI}?69l\x1b7${_CSI}r\x1b8${_CSI}?5l\x1b(B\x0f${_CSI}0 q`;

/**
 * The escape sequence that undoes what `modes` says an agent left set: ends synchronized
 * output, leaves the alternate screen, turns mouse reporting (every tracking mode and
 * encoding) off, bracketed paste, focus events and colour scheme reports off, pops every
 * kitty keyboard flag, resets modifyOtherKeys, turns application cursor/keypad, insert,
 * origin and reverse-wraparound mode off and autowrap back on; then always resets the scroll
 * region, margins, reverse video, charsets and cursor shape (see `_ALWAYS`), shows the cursor and
 * resets SGR attributes. Always safe to write to a terminal.
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
  out += `${_ALWAYS}${_CSI}0m${_CSI}?25h`;
  return out;
}
