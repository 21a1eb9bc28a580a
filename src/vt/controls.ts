/**
 * The C0 and C1 controls the model acts on (the parser's `execute`), by code: a table of named
 * handlers. Others (NUL, ENQ, the rest of C1…) do nothing.
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";

/** What one control does. */
export type ControlHandler = (vt: Interpreter) => void;

/** BEL: counted (the snapshot reports it). */
const bell: ControlHandler = (vt) => {
  vt.bells++;
};
/** BS: one column left (reverse wraparound aside). */
const backspace: ControlHandler = (vt) => vt.screen.cursor.backspace();
/** HT: next tab stop. */
const tab: ControlHandler = (vt) => vt.screen.cursor.tab();
/** LF, VT, FF: next row. */
const lineFeed: ControlHandler = (vt) => vt.screen.lineFeed();
/** CR: column 0. */
const carriageReturn: ControlHandler = (vt) => vt.screen.cursor.carriageReturn();
/** SO: G1 in use. */
const shiftOut: ControlHandler = (vt) => vt.screen.charsets.shift(1);
/** SI: G0 in use. */
const shiftIn: ControlHandler = (vt) => vt.screen.charsets.shift(0);
/** IND (C1). */
const index: ControlHandler = (vt) => vt.screen.index();
/** NEL (C1). */
const nextLine: ControlHandler = (vt) => vt.screen.nextLine();
/** HTS (C1). */
const setTabStop: ControlHandler = (vt) => vt.screen.cursor.setTabStop();

/** Handlers by control code (0x00–0x9f). */
export const CONTROLS: readonly (ControlHandler | undefined)[] = (() => {
  const table: (ControlHandler | undefined)[] = new Array(0xa0).fill(undefined);
  table[0x07] = bell;
  table[0x08] = backspace;
  table[0x09] = tab;
  table[0x0a] = lineFeed;
  table[0x0b] = lineFeed;
  table[0x0c] = lineFeed;
  table[0x0d] = carriageReturn;
  table[0x0e] = shiftOut;
  table[0x0f] = shiftIn;
  table[0x84] = index;
  table[0x85] = nextLine;
  table[0x88] = setTabStop;
  return table;
})();
