/**
 * Terminal modes an agent can set, as tracked by the VT interpreter.
 *
 * @module
 */

/** Mouse tracking protocol (?9 / ?1000 / ?1002 / ?1003). */
export type MouseTracking = "none" | "x10" | "vt200" | "drag" | "any";
/** Mouse report encoding (?1006 / ?1016; ?1005 and ?1015 are not supported, as in xterm.js). */
export type MouseEncoding = "DEFAULT" | "SGR" | "SGR_PIXELS";

/** Every mode uuldana tracks. The first twelve match the corpus `oracle.modes` keys. */
export interface Modes {
  /** DECCKM (?1). */
  applicationCursorKeys: boolean;
  /** DECKPAM (`ESC =`) / ?66. */
  applicationKeypad: boolean;
  /** ?2004. */
  bracketedPaste: boolean;
  /** IRM (CSI 4 h). */
  insert: boolean;
  /** ?9 / ?1000 / ?1002 / ?1003. */
  mouseTracking: MouseTracking;
  /** DECOM (?6). */
  origin: boolean;
  /** ?45. */
  reverseWraparound: boolean;
  /** ?1004 focus in/out reports. */
  sendFocus: boolean;
  /** ?2026 synchronized output. */
  synchronizedOutput: boolean;
  /** DECAWM (?7). */
  wraparound: boolean;
  /** ?1006 / ?1016. */
  mouseEncoding: MouseEncoding;
  /** DECTCEM reset (?25 l). */
  cursorHidden: boolean;
  /** The alternate screen is active (?47 / ?1047 / ?1049). */
  altScreen: boolean;
  /** Kitty keyboard protocol flag stack, oldest first (CSI > u pushes, CSI < u pops). */
  kittyKeyboardFlags: number[];
  /** xterm modifyOtherKeys level (CSI > 4 ; n m), 0 when off. */
  modifyOtherKeys: number;
  /** ?2031 dark/light colour scheme change reports (`CSI ? 997 ; n n`), set by Claude and OpenCode. */
  colorSchemeUpdates: boolean;
}

/** Names of the modes. */
export type ModeName = keyof Modes;

/** One mode changed value (fired only when the value actually changes). */
export interface ModeChange {
  /** Which mode. */
  mode: ModeName;
  /** Its new value (a copy for `kittyKeyboardFlags`). */
  value: Modes[ModeName];
}

/** The keys of `Modes` that the corpus oracle (xterm.js) reports, in its order. */
export const ORACLE_MODE_KEYS = [
  "applicationCursorKeys",
  "applicationKeypad",
  "bracketedPaste",
  "insert",
  "mouseTracking",
  "origin",
  "reverseWraparound",
  "sendFocus",
  "synchronizedOutput",
  "wraparound",
  "mouseEncoding",
  "cursorHidden",
] as const;

/** The modes of a freshly reset terminal. */
export function defaultModes(): Modes {
  return {
    applicationCursorKeys: false,
    applicationKeypad: false,
    bracketedPaste: false,
    insert: false,
    mouseTracking: "none",
    origin: false,
    reverseWraparound: false,
    sendFocus: false,
    synchronizedOutput: false,
    wraparound: true,
    mouseEncoding: "DEFAULT",
    cursorHidden: false,
    altScreen: false,
    kittyKeyboardFlags: [],
    modifyOtherKeys: 0,
    colorSchemeUpdates: false,
  };
}

/** A copy of `modes` that shares nothing with it. */
export function copyModes(modes: Readonly<Modes>): Modes {
  return { ...modes, kittyKeyboardFlags: [...modes.kittyKeyboardFlags] };
}
