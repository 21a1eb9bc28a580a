/**
 * What setting or resetting a mode does (SM/RM for ANSI modes, DECSET/DECRST for DEC private
 * modes): a table by mode number of named effects. Modes not listed are ignored, as xterm.js
 * ignores them (DECCOLM, ?3, included).
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";
import type { MouseEncoding, MouseTracking } from "./modes.ts";

/** What setting (`on`) or resetting one mode does. */
export type ModeEffect = (vt: Interpreter, on: boolean) => void;

/** IRM (4): insert mode. */
const insert: ModeEffect = (vt, on) => vt.modes.set("insert", on);
/** LNM (20): line feed also returns the carriage (not a reported mode, as in xterm.js). */
const newLine: ModeEffect = (vt, on) => {
  vt.screen.convertEol = on;
};

const _ANSI = new Map<number, ModeEffect>([[4, insert], [20, newLine]]);

/** DECCKM (1). */
const cursorKeys: ModeEffect = (vt, on) => vt.modes.set("applicationCursorKeys", on);

/** DECANM (2): set, it designates ASCII into G0–G3 (xterm.js). */
const ansiCharsets: ModeEffect = (vt, on) => {
  if (on) { for (let g = 0; g < 4; g++) vt.screen.charsets.designate(g, null); }
};

/** DECOM (6): origin mode; the cursor goes home. */
const origin: ModeEffect = (vt, on) => {
  vt.modes.set("origin", on);
  vt.screen.cursor.set(0, 0);
};

/** DECAWM (7): autowrap. */
const wraparound: ModeEffect = (vt, on) => vt.modes.set("wraparound", on);
/** DECTCEM (25): cursor shown. */
const cursorShown: ModeEffect = (vt, on) => vt.modes.set("cursorHidden", !on);
/** 45: reverse wraparound. */
const reverseWraparound: ModeEffect = (vt, on) => vt.modes.set("reverseWraparound", on);
/** DECNKM (66): application keypad. */
const keypad: ModeEffect = (vt, on) => vt.modes.set("applicationKeypad", on);
/** 1004: focus in/out reports. */
const focusEvents: ModeEffect = (vt, on) => vt.modes.set("sendFocus", on);
/** 2004: bracketed paste. */
const bracketedPaste: ModeEffect = (vt, on) => vt.modes.set("bracketedPaste", on);
/** 2026: synchronized output. */
const synchronizedOutput: ModeEffect = (vt, on) => vt.modes.set("synchronizedOutput", on);
/** 2031: colour scheme change reports. */
const colorSchemeUpdates: ModeEffect = (vt, on) => vt.modes.set("colorSchemeUpdates", on);

/** 9, 1000, 1002, 1003: a mouse tracking protocol (resetting any one turns tracking off). */
const mouseTracking = (protocol: MouseTracking): ModeEffect => (vt, on) =>
  vt.modes.set("mouseTracking", on ? protocol : "none");

/** 1006, 1016: a mouse report encoding. */
const mouseEncoding = (encoding: MouseEncoding): ModeEffect => (vt, on) =>
  vt.modes.set("mouseEncoding", on ? encoding : "DEFAULT");

/** 1048: save (set) or restore (reset) the cursor. */
const saveCursor: ModeEffect = (vt, on) =>
  on ? vt.screen.cursor.save() : vt.screen.cursor.restore();

/**
 * 47, 1047, 1049: the alternate screen; 1049 saves the cursor before showing it and restores it
 * after leaving.
 */
const altScreen = (saves: boolean): ModeEffect => (vt, on) => {
  if (on) {
    if (saves) vt.screen.cursor.save();
    vt.screen.activateAlt();
    vt.modes.set("altScreen", true);
  } else {
    vt.screen.activateNormal();
    vt.modes.set("altScreen", false);
    if (saves) vt.screen.cursor.restore();
  }
};

const _PRIVATE = new Map<number, ModeEffect>([
  [1, cursorKeys],
  [2, ansiCharsets],
  [6, origin],
  [7, wraparound],
  [9, mouseTracking("x10")],
  [25, cursorShown],
  [45, reverseWraparound],
  [47, altScreen(false)],
  [66, keypad],
  [1000, mouseTracking("vt200")],
  [1002, mouseTracking("drag")],
  [1003, mouseTracking("any")],
  [1004, focusEvents],
  [1006, mouseEncoding("SGR")],
  [1016, mouseEncoding("SGR_PIXELS")],
  [1047, altScreen(false)],
  [1048, saveCursor],
  [1049, altScreen(true)],
  [2004, bracketedPaste],
  [2026, synchronizedOutput],
  [2031, colorSchemeUpdates],
]);

/** SM (`on`) / RM of ANSI mode `mode`. */
export function ansiMode(vt: Interpreter, mode: number, on: boolean): void {
  _ANSI.get(mode)?.(vt, on);
}

/** DECSET (`on`) / DECRST of DEC private mode `mode`. */
export function privateMode(vt: Interpreter, mode: number, on: boolean): void {
  _PRIVATE.get(mode)?.(vt, on);
}
