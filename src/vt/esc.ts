/**
 * ESC sequences: each final (with its intermediates) and its named handler. Charset designation
 * (SCS, `ESC ( 0` …) has an entry per designator and known charset; an unknown charset is
 * ignored, as xterm.js ignores it.
 *
 * @module
 */
import { type Charset, charsetFor } from "./charsets.ts";
import { DispatchTable } from "./dispatch_table.ts";
import type { Interpreter } from "./interpreter.ts";
import { fullReset } from "./resets.ts";

/** An ESC handler. */
export type EscHandler = (vt: Interpreter) => void;

/** DECSC: save the cursor. */
const saveCursor: EscHandler = (vt) => vt.screen.cursor.save();
/** DECRC: restore the cursor. */
const restoreCursor: EscHandler = (vt) => vt.screen.cursor.restore();
/** IND: index. */
const index: EscHandler = (vt) => vt.screen.index();
/** NEL: next line. */
const nextLine: EscHandler = (vt) => vt.screen.nextLine();
/** HTS: tab stop at the cursor. */
const setTabStop: EscHandler = (vt) => vt.screen.cursor.setTabStop();
/** RI: reverse index. */
const reverseIndex: EscHandler = (vt) => vt.screen.reverseIndex();
/** DECKPAM: application keypad. */
const keypadApplication: EscHandler = (vt) => vt.modes.set("applicationKeypad", true);
/** DECKPNM: numeric keypad. */
const keypadNumeric: EscHandler = (vt) => vt.modes.set("applicationKeypad", false);
/** DECALN: screen alignment test (fill with E). */
const screenAlignment: EscHandler = (vt) => vt.screen.edits.screenAlignment();

/** A locking shift: G`level` in use (LS2, LS3, LS1R, LS2R, LS3R). */
const lockingShift = (level: number): EscHandler => (vt) => vt.screen.charsets.shift(level);

/** DOCS (`ESC % @`, `ESC % G`): back to the default charset, G0 in use. */
const selectDefaultCharset: EscHandler = (vt) => {
  vt.screen.charsets.shift(0);
  vt.screen.charsets.designate(0, null);
};

/** SCS: designate `charset` as G`g`. */
const designate = (g: number, charset: Charset | null): EscHandler => (vt) =>
  vt.screen.charsets.designate(g, charset);

/** SCS entries: the designators `(` `)` `*` `+` (G0–G3) and `-` `.` (G1, G2), each known set. */
function _designations(): [string, EscHandler][] {
  const out: [string, EscHandler][] = [];
  const designators = [["(", 0], [")", 1], ["*", 2], ["+", 3], ["-", 1], [".", 2]] as const;
  for (let final = 0x30; final < 0x7f; final++) {
    const charset = charsetFor(final);
    if (charset === undefined) continue;
    for (const [chars, g] of designators) {
      out.push([chars + String.fromCharCode(final), designate(g, charset)]);
    }
  }
  return out;
}

/** Every ESC sequence the model acts on. */
const _ESC = new DispatchTable<EscHandler>([
  ["7", saveCursor], // DECSC
  ["8", restoreCursor], // DECRC
  ["D", index], // IND
  ["E", nextLine], // NEL
  ["H", setTabStop], // HTS
  ["M", reverseIndex], // RI
  ["=", keypadApplication], // DECKPAM
  [">", keypadNumeric], // DECKPNM
  ["c", fullReset], // RIS
  ["n", lockingShift(2)], // LS2
  ["o", lockingShift(3)], // LS3
  ["|", lockingShift(3)], // LS3R
  ["}", lockingShift(2)], // LS2R
  ["~", lockingShift(1)], // LS1R
  ["%@", selectDefaultCharset], // DOCS
  ["%G", selectDefaultCharset], // DOCS UTF-8
  ["#8", screenAlignment], // DECALN
  ..._designations(),
]);

/** The handler of the ESC sequence `ident` (as the parser passes it), undefined when none. */
export function escHandler(ident: number): EscHandler | undefined {
  return _ESC.get(ident);
}
