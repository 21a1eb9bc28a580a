/**
 * The DEC ANSI parser state machine (Paul Williams' VT500 diagram, as xterm.js implements it):
 * a transition table indexed by `state << 8 | code` giving `action << 4 | nextState`. Code
 * points ≥ U+00A0 are looked up as 0xA0 (printable, or string data inside OSC/DCS).
 *
 * @module
 */

/** Parser states. */
export const State = {
  ground: 0,
  escape: 1,
  escapeIntermediate: 2,
  csiEntry: 3,
  csiParam: 4,
  csiIntermediate: 5,
  csiIgnore: 6,
  sosPmApcString: 7,
  oscString: 8,
  dcsEntry: 9,
  dcsParam: 10,
  dcsIgnore: 11,
  dcsIntermediate: 12,
  dcsPassthrough: 13,
} as const;

/** Parser actions. */
export const Action = {
  ignore: 0,
  error: 1,
  print: 2,
  execute: 3,
  oscStart: 4,
  oscPut: 5,
  oscEnd: 6,
  csiDispatch: 7,
  param: 8,
  collect: 9,
  escDispatch: 10,
  clear: 11,
  dcsHook: 12,
  dcsPut: 13,
  dcsUnhook: 14,
} as const;

/** Code used for every code point ≥ U+00A0 when indexing the table. */
export const NON_ASCII_PRINTABLE = 0xa0;

/** The transition table: `TRANSITIONS[state << 8 | code]` = `action << 4 | next`. */
export const TRANSITIONS: Uint8Array = _build();

function _build(): Uint8Array {
  const table = new Uint8Array(14 << 8);
  const S = State;
  const A = Action;
  const r = (start: number, end: number) =>
    Array.from({ length: end - start }, (_, i) => start + i);
  const add = (codes: number[], state: number, action: number, next: number) => {
    for (const c of codes) table[state << 8 | c] = action << 4 | next;
  };
  const printables = r(0x20, 0x7f);
  const executables = [...r(0x00, 0x18), 0x19, ...r(0x1c, 0x20)];
  table.fill(A.error << 4 | S.ground);
  add(printables, S.ground, A.print, S.ground);
  for (let state = S.ground; state <= S.dcsPassthrough; state++) {
    add([0x18, 0x1a, 0x99, 0x9a], state, A.execute, S.ground);
    add(r(0x80, 0x90), state, A.execute, S.ground);
    add(r(0x90, 0x98), state, A.execute, S.ground);
    add([0x9c], state, A.ignore, S.ground);
    add([0x1b], state, A.clear, S.escape);
    add([0x9d], state, A.oscStart, S.oscString);
    add([0x98, 0x9e, 0x9f], state, A.ignore, S.sosPmApcString);
    add([0x9b], state, A.clear, S.csiEntry);
    add([0x90], state, A.clear, S.dcsEntry);
  }
  add(executables, S.ground, A.execute, S.ground);
  add(executables, S.escape, A.execute, S.escape);
  add([0x7f], S.escape, A.ignore, S.escape);
  add(executables, S.oscString, A.ignore, S.oscString);
  add(executables, S.csiEntry, A.execute, S.csiEntry);
  add([0x7f], S.csiEntry, A.ignore, S.csiEntry);
  add(executables, S.csiParam, A.execute, S.csiParam);
  add([0x7f], S.csiParam, A.ignore, S.csiParam);
  add(executables, S.csiIgnore, A.execute, S.csiIgnore);
  add(executables, S.csiIntermediate, A.execute, S.csiIntermediate);
  add([0x7f], S.csiIntermediate, A.ignore, S.csiIntermediate);
  add(executables, S.escapeIntermediate, A.execute, S.escapeIntermediate);
  add([0x7f], S.escapeIntermediate, A.ignore, S.escapeIntermediate);
  // OSC
  add([0x5d], S.escape, A.oscStart, S.oscString);
  add(printables, S.oscString, A.oscPut, S.oscString);
  add([0x7f], S.oscString, A.oscPut, S.oscString);
  add([0x9c, 0x1b, 0x18, 0x1a, 0x07], S.oscString, A.oscEnd, S.ground);
  add(r(0x1c, 0x20), S.oscString, A.ignore, S.oscString);
  // SOS/PM/APC: swallowed until ST
  add([0x58, 0x5e, 0x5f], S.escape, A.ignore, S.sosPmApcString);
  add(printables, S.sosPmApcString, A.ignore, S.sosPmApcString);
  add(executables, S.sosPmApcString, A.ignore, S.sosPmApcString);
  add([0x9c], S.sosPmApcString, A.ignore, S.ground);
  add([0x7f], S.sosPmApcString, A.ignore, S.sosPmApcString);
  // CSI
  add([0x5b], S.escape, A.clear, S.csiEntry);
  add(r(0x40, 0x7f), S.csiEntry, A.csiDispatch, S.ground);
  add(r(0x30, 0x3c), S.csiEntry, A.param, S.csiParam);
  add([0x3c, 0x3d, 0x3e, 0x3f], S.csiEntry, A.collect, S.csiParam);
  add(r(0x30, 0x3c), S.csiParam, A.param, S.csiParam);
  add(r(0x40, 0x7f), S.csiParam, A.csiDispatch, S.ground);
  add([0x3c, 0x3d, 0x3e, 0x3f], S.csiParam, A.ignore, S.csiIgnore);
  add(r(0x20, 0x40), S.csiIgnore, A.ignore, S.csiIgnore);
  add([0x7f], S.csiIgnore, A.ignore, S.csiIgnore);
  add(r(0x40, 0x7f), S.csiIgnore, A.ignore, S.ground);
  add(r(0x20, 0x30), S.csiEntry, A.collect, S.csiIntermediate);
  add(r(0x20, 0x30), S.csiIntermediate, A.collect, S.csiIntermediate);
  add(r(0x30, 0x40), S.csiIntermediate, A.ignore, S.csiIgnore);
  add(r(0x40, 0x7f), S.csiIntermediate, A.csiDispatch, S.ground);
  add(r(0x20, 0x30), S.csiParam, A.collect, S.csiIntermediate);
  // ESC
  add(r(0x20, 0x30), S.escape, A.collect, S.escapeIntermediate);
  add(r(0x20, 0x30), S.escapeIntermediate, A.collect, S.escapeIntermediate);
  add(r(0x30, 0x7f), S.escapeIntermediate, A.escDispatch, S.ground);
  add(r(0x30, 0x50), S.escape, A.escDispatch, S.ground);
  add(r(0x51, 0x58), S.escape, A.escDispatch, S.ground);
  add([0x59, 0x5a, 0x5c], S.escape, A.escDispatch, S.ground);
  add(r(0x60, 0x7f), S.escape, A.escDispatch, S.ground);
  // DCS
  add([0x50], S.escape, A.clear, S.dcsEntry);
  add(executables, S.dcsEntry, A.ignore, S.dcsEntry);
  add([0x7f], S.dcsEntry, A.ignore, S.dcsEntry);
  add(r(0x1c, 0x20), S.dcsEntry, A.ignore, S.dcsEntry);
  add(r(0x20, 0x30), S.dcsEntry, A.collect, S.dcsIntermediate);
  add(r(0x30, 0x3c), S.dcsEntry, A.param, S.dcsParam);
  add([0x3c, 0x3d, 0x3e, 0x3f], S.dcsEntry, A.collect, S.dcsParam);
  add(executables, S.dcsIgnore, A.ignore, S.dcsIgnore);
  add(r(0x20, 0x80), S.dcsIgnore, A.ignore, S.dcsIgnore);
  add(r(0x1c, 0x20), S.dcsIgnore, A.ignore, S.dcsIgnore);
  add(executables, S.dcsParam, A.ignore, S.dcsParam);
  add([0x7f], S.dcsParam, A.ignore, S.dcsParam);
  add(r(0x1c, 0x20), S.dcsParam, A.ignore, S.dcsParam);
  add(r(0x30, 0x3c), S.dcsParam, A.param, S.dcsParam);
  add([0x3c, 0x3d, 0x3e, 0x3f], S.dcsParam, A.ignore, S.dcsIgnore);
  add(r(0x20, 0x30), S.dcsParam, A.collect, S.dcsIntermediate);
  add(executables, S.dcsIntermediate, A.ignore, S.dcsIntermediate);
  add([0x7f], S.dcsIntermediate, A.ignore, S.dcsIntermediate);
  add(r(0x1c, 0x20), S.dcsIntermediate, A.ignore, S.dcsIntermediate);
  add(r(0x20, 0x30), S.dcsIntermediate, A.collect, S.dcsIntermediate);
  add(r(0x30, 0x40), S.dcsIntermediate, A.ignore, S.dcsIgnore);
  add(r(0x40, 0x7f), S.dcsIntermediate, A.dcsHook, S.dcsPassthrough);
  add(r(0x40, 0x7f), S.dcsParam, A.dcsHook, S.dcsPassthrough);
  add(r(0x40, 0x7f), S.dcsEntry, A.dcsHook, S.dcsPassthrough);
  add(executables, S.dcsPassthrough, A.dcsPut, S.dcsPassthrough);
  add(printables, S.dcsPassthrough, A.dcsPut, S.dcsPassthrough);
  add([0x7f], S.dcsPassthrough, A.ignore, S.dcsPassthrough);
  add([0x1b, 0x9c, 0x18, 0x1a], S.dcsPassthrough, A.dcsUnhook, S.ground);
  // Non-ASCII code points
  add([NON_ASCII_PRINTABLE], S.ground, A.print, S.ground);
  add([NON_ASCII_PRINTABLE], S.oscString, A.oscPut, S.oscString);
  add([NON_ASCII_PRINTABLE], S.csiIgnore, A.ignore, S.csiIgnore);
  add([NON_ASCII_PRINTABLE], S.dcsIgnore, A.ignore, S.dcsIgnore);
  add([NON_ASCII_PRINTABLE], S.dcsPassthrough, A.dcsPut, S.dcsPassthrough);
  return table;
}
