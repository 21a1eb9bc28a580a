/**
 * What a terminal does with what the parser found: the {@link Performer} of a `Terminal`. Text
 * goes to the screen; a control, CSI, ESC, OSC or DCS sequence is looked up in its table of named
 * handlers (`controls.ts`, `csi.ts`, `esc.ts`, `osc.ts`, `dcs.ts`), and an unknown one does
 * nothing. It owns the state no screen operation needs: the modes (through {@link ModeState}),
 * the title, the bell count, the query listeners.
 *
 * @module
 */
import { CONTROLS } from "./controls.ts";
import { csiHandler } from "./csi.ts";
import { dcsHandler } from "./dcs.ts";
import { escHandler } from "./esc.ts";
import { ModeState } from "./mode_state.ts";
import { oscHandler } from "./osc.ts";
import type { Params, Performer } from "./parser.ts";
import type { Query } from "./query.ts";
import { Screen } from "./screen.ts";

const _RIS = 0x63; // ESC c

/** The performer: the screen, the modes and the rest of a terminal's state. */
export class Interpreter implements Performer {
  /** The modes; the screen reads the same object. */
  readonly modes: ModeState = new ModeState();
  /** The screen model. */
  readonly screen: Screen;
  /** Last title set with OSC 0/2, null if none was set. */
  title: string | null = null;
  /** Number of BEL characters executed. */
  bells = 0;
  /**
   * Nothing changed since the last RIS: another RIS has nothing to do (a flood of them is O(1)).
   * Cleared by everything the parser dispatches but OSC and DCS strings (and a RIS).
   */
  pristine = false;
  #queryListeners: ((q: Query) => void)[] = [];
  /** Who hears the text of OSC strings the model does not act on, by number. */
  readonly #oscListeners = new Map<number, ((data: string) => void)[]>();

  constructor(cols: number, rows: number, scrollback: number) {
    this.screen = new Screen(cols, rows, scrollback, this.modes.current);
  }

  /** Calls `cb` for every query, synchronously; returns the unsubscribe function. */
  listenQueries(cb: (query: Query) => void): () => void {
    this.#queryListeners.push(cb);
    return () => {
      this.#queryListeners = this.#queryListeners.filter((l) => l !== cb);
    };
  }

  /** Calls `cb` with the text of every OSC `id` string, synchronously; returns the unsubscribe. */
  listenOsc(id: number, cb: (data: string) => void): () => void {
    this.#oscListeners.set(id, [...(this.#oscListeners.get(id) ?? []), cb]);
    return () => {
      const left = (this.#oscListeners.get(id) ?? []).filter((l) => l !== cb);
      if (left.length) this.#oscListeners.set(id, left);
      else this.#oscListeners.delete(id);
    };
  }

  /** Tells the query listeners of `query`. */
  emitQuery(query: Query): void {
    for (const l of this.#queryListeners) l(query);
  }

  printAscii(bytes: Uint8Array, start: number, end: number, afterControl: boolean): void {
    this.pristine = false;
    if (afterControl) this.screen.inPrintRun = false;
    this.screen.printAscii(bytes, start, end);
  }

  print(cp: number, afterControl: boolean): void {
    this.pristine = false;
    if (afterControl) this.screen.inPrintRun = false;
    this.screen.printCp(cp);
  }

  execute(code: number): void {
    this.pristine = false;
    this.screen.inPrintRun = false;
    CONTROLS[code]?.(this);
    this.screen.joinWidth = 0;
  }

  csiDispatch(ident: number, params: Params): void {
    this.pristine = false;
    this.screen.inPrintRun = false;
    csiHandler(ident)?.(this, params);
    this.screen.joinWidth = 0;
  }

  escDispatch(ident: number): void {
    if (ident !== _RIS) this.pristine = false;
    this.screen.inPrintRun = false;
    escHandler(ident)?.(this);
    this.screen.joinWidth = 0;
  }

  oscDispatch(id: number, data: string | null, terminator: number): void {
    this.screen.inPrintRun = false;
    // CAN/SUB abort the string, an overflowed one is dropped
    if (data !== null && terminator !== 0x18 && terminator !== 0x1a) {
      oscHandler(id)?.(this, id, data, terminator);
      const listeners = this.#oscListeners.size ? this.#oscListeners.get(id) : undefined;
      if (listeners) { for (const l of listeners) l(data); }
    }
    this.screen.joinWidth = 0;
  }

  dcsDispatch(ident: number, data: string | null, terminator: number): void {
    this.screen.inPrintRun = false;
    if (data !== null && terminator !== 0x18 && terminator !== 0x1a) {
      dcsHandler(ident)?.(this, data);
    }
    this.screen.joinWidth = 0;
  }
}
