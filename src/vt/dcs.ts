/**
 * DCS strings the model acts on: DECRQSS (`DCS $ q Pt ST`, a query of a setting). Sixel and every
 * other DCS have no effect on the model.
 *
 * @module
 */
import { DispatchTable } from "./dispatch_table.ts";
import type { Interpreter } from "./interpreter.ts";

/** A DCS handler: `data` is the string's text. */
export type DcsHandler = (vt: Interpreter, data: string) => void;

/** DECRQSS: the setting asked for (the reply is `replyTo`'s). */
const requestSetting: DcsHandler = (vt, data) => vt.emitQuery({ kind: "DECRQSS", setting: data });

const _DCS = new DispatchTable<DcsHandler>([["$q", requestSetting]]);

/** The handler of the DCS sequence `ident` (as the parser passes it), undefined when none. */
export function dcsHandler(ident: number): DcsHandler | undefined {
  return _DCS.get(ident);
}
