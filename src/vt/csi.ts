/**
 * CSI sequences: each final (with its prefix and intermediates) and the named handler that reads
 * its parameters and calls one screen, mode or query operation. Defaults follow xterm: a count
 * of 0 or none is 1. Clamping and cursor rules are the screen's. SGR (`m`) and every sequence not
 * listed have no effect on the model.
 *
 * @module
 */
import { ansiMode, privateMode } from "./dec_modes.ts";
import { DispatchTable } from "./dispatch_table.ts";
import type { Interpreter } from "./interpreter.ts";
import type { Params } from "./parser.ts";
import { softReset } from "./resets.ts";

/** A CSI handler: `params` are only valid during the call. */
export type CsiHandler = (vt: Interpreter, params: Params) => void;

/** The first parameter as a count: 1 when 0 or absent. */
const _count = (p: Params) => p.values[0] || 1;

/** ICH: insert blank characters. */
const insertChars: CsiHandler = (vt, p) => vt.screen.edits.insertChars(_count(p));
/** CUU: cursor up. */
const cursorUp: CsiHandler = (vt, p) => vt.screen.cursor.up(_count(p));
/** CUD: cursor down. */
const cursorDown: CsiHandler = (vt, p) => vt.screen.cursor.down(_count(p));
/** CUF / HPR: cursor forward. */
const cursorForward: CsiHandler = (vt, p) => vt.screen.cursor.move(_count(p), 0);
/** CUB: cursor backward. */
const cursorBackward: CsiHandler = (vt, p) => vt.screen.cursor.move(-_count(p), 0);
/** VPR: cursor down, past the margins. */
const rowForward: CsiHandler = (vt, p) => vt.screen.cursor.move(0, _count(p));

/** CNL: cursor down, to column 0. */
const cursorNextLine: CsiHandler = (vt, p) => {
  vt.screen.cursor.down(_count(p));
  vt.screen.cursor.carriageReturn();
};

/** CPL: cursor up, to column 0. */
const cursorPrecedingLine: CsiHandler = (vt, p) => {
  vt.screen.cursor.up(_count(p));
  vt.screen.cursor.carriageReturn();
};

/** CHA / HPA: to a column. */
const cursorToColumn: CsiHandler = (vt, p) => vt.screen.cursor.toColumn(_count(p) - 1);
/** VPA: to a row. */
const cursorToRow: CsiHandler = (vt, p) => vt.screen.cursor.toRow(_count(p) - 1);
/** CUP / HVP: to a row and column. */
const cursorPosition: CsiHandler = (vt, p) =>
  vt.screen.cursor.set((p.at(1) || 1) - 1, _count(p) - 1);
/** CHT: forward tab stops. */
const tabForward: CsiHandler = (vt, p) => vt.screen.cursor.tabs(_count(p), true);
/** CBT: backward tab stops. */
const tabBackward: CsiHandler = (vt, p) => vt.screen.cursor.tabs(_count(p), false);

/** TBC: clear the tab stop at the cursor (0) or all of them (3). */
const clearTabStops: CsiHandler = (vt, p) => {
  const mode = p.values[0];
  if (mode === 0 || mode === 3) vt.screen.cursor.clearTabStops(mode === 3);
};

/** ED / DECSED: erase in display. */
const eraseInDisplay: CsiHandler = (vt, p) => vt.screen.edits.eraseInDisplay(p.values[0]);
/** EL / DECSEL: erase in line. */
const eraseInLine: CsiHandler = (vt, p) => vt.screen.edits.eraseInLine(p.values[0]);
/** IL: insert lines. */
const insertLines: CsiHandler = (vt, p) => vt.screen.insertLines(_count(p));
/** DL: delete lines. */
const deleteLines: CsiHandler = (vt, p) => vt.screen.deleteLines(_count(p));
/** DCH: delete characters. */
const deleteChars: CsiHandler = (vt, p) => vt.screen.edits.deleteChars(_count(p));
/** ECH: erase characters. */
const eraseChars: CsiHandler = (vt, p) => vt.screen.edits.eraseChars(_count(p));
/** SU: scroll up. */
const scrollUp: CsiHandler = (vt, p) => vt.screen.scrollUp(_count(p));
/** SD: scroll down. */
const scrollDown: CsiHandler = (vt, p) => vt.screen.scrollDown(_count(p));
/** SL: shift the region's columns left. */
const shiftLeft: CsiHandler = (vt, p) => vt.screen.edits.shiftColumns(_count(p), true);
/** SR: shift the region's columns right. */
const shiftRight: CsiHandler = (vt, p) => vt.screen.edits.shiftColumns(_count(p), false);
/** DECIC: insert columns. */
const insertColumns: CsiHandler = (vt, p) => vt.screen.edits.editColumns(_count(p), true);
/** DECDC: delete columns. */
const deleteColumns: CsiHandler = (vt, p) => vt.screen.edits.editColumns(_count(p), false);
/** REP: repeat the preceding character. */
const repeat: CsiHandler = (vt, p) => vt.screen.repeat(_count(p));
/** DECSTBM: set the scroll region (no bottom: the last row). */
const setScrollRegion: CsiHandler = (vt, p) => vt.screen.setScrollRegion(_count(p), p.at(1));
/** SCOSC: save the cursor. */
const saveCursor: CsiHandler = (vt) => vt.screen.cursor.save();
/** SCORC: restore the cursor. */
const restoreCursor: CsiHandler = (vt) => vt.screen.cursor.restore();

/** SM / RM: every ANSI mode listed. */
const ansiModes = (on: boolean): CsiHandler => (vt, p) => {
  for (let k = 0; k < p.count; k++) ansiMode(vt, p.values[k], on);
};

/** DECSET / DECRST: every DEC private mode listed. */
const privateModes = (on: boolean): CsiHandler => (vt, p) => {
  for (let k = 0; k < p.count; k++) privateMode(vt, p.values[k], on);
};

/** Kitty keyboard: push flags. */
const pushKittyFlags: CsiHandler = (vt, p) => vt.modes.pushKittyFlags(p.values[0]);
/** Kitty keyboard: pop entries. */
const popKittyFlags: CsiHandler = (vt, p) => vt.modes.popKittyFlags(_count(p));
/** Kitty keyboard: set, add or clear flags of the top entry. */
const setKittyFlags: CsiHandler = (vt, p) => vt.modes.setKittyFlags(p.values[0], p.at(1) || 1);

/** XTMODKEYS: set modifyOtherKeys (resource 4). */
const setModifyKeys: CsiHandler = (vt, p) => {
  if (p.values[0] === 4) vt.modes.set("modifyOtherKeys", p.at(1));
};

/** XTMODKEYS reset: modifyOtherKeys off (resource 4). */
const resetModifyKeys: CsiHandler = (vt, p) => {
  if (p.values[0] === 4) vt.modes.set("modifyOtherKeys", 0);
};

/** DA1: primary device attributes. */
const deviceAttributes: CsiHandler = (vt, p) => {
  if (p.values[0] === 0) vt.emitQuery({ kind: "DA1" });
};

/** DA2: secondary device attributes. */
const secondaryAttributes: CsiHandler = (vt, p) => {
  if (p.values[0] === 0) vt.emitQuery({ kind: "DA2" });
};

/** DSR: status (5) or cursor position (6). */
const deviceStatus: CsiHandler = (vt, p) => {
  if (p.values[0] === 5) vt.emitQuery({ kind: "DSR" });
  else if (p.values[0] === 6) vt.emitQuery({ kind: "CPR", private: false });
};

/** DECXCPR: cursor position (6). */
const privateDeviceStatus: CsiHandler = (vt, p) => {
  if (p.values[0] === 6) vt.emitQuery({ kind: "CPR", private: true });
};

/** XTVERSION: terminal name and version. */
const terminalVersion: CsiHandler = (vt, p) => {
  if (p.values[0] === 0) vt.emitQuery({ kind: "XTVERSION" });
};

/** DECRQM: the state of an ANSI mode. */
const requestAnsiMode: CsiHandler = (vt, p) =>
  vt.emitQuery({ kind: "DECRQM", mode: p.values[0], private: false });
/** DECRQM: the state of a DEC private mode. */
const requestPrivateMode: CsiHandler = (vt, p) =>
  vt.emitQuery({ kind: "DECRQM", mode: p.values[0], private: true });
/** Kitty keyboard: query the flags. */
const queryKittyFlags: CsiHandler = (vt) => vt.emitQuery({ kind: "KITTY_FLAGS" });
/** DECSTR: soft reset. */
const softTerminalReset: CsiHandler = (vt) => softReset(vt);

/** Every CSI sequence the model acts on. */
const _CSI = new DispatchTable<CsiHandler>([
  ["@", insertChars], // ICH
  ["A", cursorUp], // CUU
  ["B", cursorDown], // CUD
  ["C", cursorForward], // CUF
  ["D", cursorBackward], // CUB
  ["E", cursorNextLine], // CNL
  ["F", cursorPrecedingLine], // CPL
  ["G", cursorToColumn], // CHA
  ["H", cursorPosition], // CUP
  ["I", tabForward], // CHT
  ["J", eraseInDisplay], // ED
  ["?J", eraseInDisplay], // DECSED
  ["K", eraseInLine], // EL
  ["?K", eraseInLine], // DECSEL
  ["L", insertLines], // IL
  ["M", deleteLines], // DL
  ["P", deleteChars], // DCH
  ["S", scrollUp], // SU
  ["T", scrollDown], // SD
  ["X", eraseChars], // ECH
  ["Z", tabBackward], // CBT
  ["`", cursorToColumn], // HPA
  ["a", cursorForward], // HPR
  ["b", repeat], // REP
  ["c", deviceAttributes], // DA1
  [">c", secondaryAttributes], // DA2
  ["d", cursorToRow], // VPA
  ["e", rowForward], // VPR
  ["f", cursorPosition], // HVP
  ["g", clearTabStops], // TBC
  ["h", ansiModes(true)], // SM
  ["l", ansiModes(false)], // RM
  ["?h", privateModes(true)], // DECSET
  ["?l", privateModes(false)], // DECRST
  [">m", setModifyKeys], // XTMODKEYS
  ["n", deviceStatus], // DSR
  ["?n", privateDeviceStatus], // DECXCPR
  [">n", resetModifyKeys], // XTMODKEYS reset
  ["!p", softTerminalReset], // DECSTR
  ["$p", requestAnsiMode], // DECRQM
  ["?$p", requestPrivateMode], // DECRQM (private)
  [">q", terminalVersion], // XTVERSION
  ["r", setScrollRegion], // DECSTBM
  ["s", saveCursor], // SCOSC
  ["u", restoreCursor], // SCORC
  ["?u", queryKittyFlags], // kitty keyboard query
  [">u", pushKittyFlags], // kitty keyboard push
  ["<u", popKittyFlags], // kitty keyboard pop
  ["=u", setKittyFlags], // kitty keyboard set
  [" @", shiftLeft], // SL
  [" A", shiftRight], // SR
  ["'}", insertColumns], // DECIC
  ["'~", deleteColumns], // DECDC
]);

/** The handler of the CSI sequence `ident` (as the parser passes it), undefined when none. */
export function csiHandler(ident: number): CsiHandler | undefined {
  return _CSI.get(ident);
}
