/**
 * The escape sequence parser (Paul Williams' DEC ANSI state machine, as xterm.js and
 * alacritty/vte run it): output bytes in, calls of a {@link Performer} out. It owns all parsing
 * state: the UTF-8 decoder, the machine's state (`parser_table.ts`), the CSI/DCS parameters and
 * intermediates, and the OSC/DCS string being collected. It knows no sequence's meaning: what a
 * dispatched sequence does is the performer's business (`interpreter.ts`).
 *
 * Bounds (hostile output is normal input): at most {@link MAX_PARAMS} parameters, each saturated
 * at 2^31−1, sub-parameters parsed over; OSC and DCS strings kept up to {@link MAX_STRING} UTF-16
 * units (a longer one is dispatched as overflowed, without its text); SOS/PM/APC strings are
 * swallowed as xterm.js swallows them (it has no handler for them, and a non-ASCII character ends
 * one, so no text of one would come whole). Malformed UTF-8 is dropped (overlongs, surrogates,
 * code points past U+10FFFF, a lead byte cut short) or, with `replaceMalformed`, printed as
 * U+FFFD; a BOM is dropped. Every bound is per sequence, so the cost is linear in the bytes.
 *
 * @module
 */
import { Action, NON_ASCII_PRINTABLE, State, TRANSITIONS } from "./parser_table.ts";

/** Most parameters of one CSI/DCS sequence kept; later ones are parsed over and dropped. */
export const MAX_PARAMS = 32;
/** Most UTF-16 units of an OSC or DCS string kept; a longer string is dispatched as overflowed. */
export const MAX_STRING = 8192;
const _MAX_PARAM_VALUE = 0x7fffffff;
const _MAX_OSC_ID = 1_000_000;

/** The numeric parameters of the sequence being dispatched (owned by the parser, reused). */
export class Params {
  /** Values; `values[k]` for k < `count` (0 where the parameter was empty). */
  readonly values: Int32Array = new Int32Array(MAX_PARAMS);
  /** Number of parameters (at least 1: an empty list is one empty parameter). */
  count = 1;
  /** More than {@link MAX_PARAMS} were given (the later ones are dropped). */
  overflowed = false;
  /** Inside a sub-parameter (after ':'), whose digits are not kept (parser state). */
  sub = false;

  /** The `k`-th parameter, 0 when it is empty or absent. */
  at(k: number): number {
    return k < this.count ? this.values[k] : 0;
  }

  /** Back to one empty parameter. */
  clear(): void {
    this.values[0] = 0;
    this.count = 1;
    this.overflowed = false;
    this.sub = false;
  }
}

/**
 * What the parser calls. A sequence's identifier (`ident`) is its prefix and intermediate bytes,
 * collected in order, shifted left by 8 and or-ed with the final byte: `CSI ? 25 h` is
 * `0x3f << 8 | 0x68`, `ESC ( 0` is `0x28 << 8 | 0x30`.
 */
export interface Performer {
  /**
   * Prints bytes [start, end) of `bytes`, all printable ASCII (the parser's fast path).
   * `afterControl`: some other action came between this and the previous print.
   */
  printAscii(bytes: Uint8Array, start: number, end: number, afterControl: boolean): void;
  /** Prints one decoded code point (not a control, not DEL); `afterControl` as for `printAscii`. */
  print(cp: number, afterControl: boolean): void;
  /** Executes a C0 or C1 control (BEL, BS, HT, LF, CR, SO, SI, IND, NEL, HTS …). */
  execute(code: number): void;
  /** A complete CSI sequence; `params` is only valid during the call. */
  csiDispatch(ident: number, params: Params): void;
  /** A complete ESC sequence (not CSI, OSC, DCS or a string introducer). */
  escDispatch(ident: number): void;
  /**
   * The end of an OSC string. `id`: its number, -1 when it had none or a malformed one; `data`:
   * the text after the first ';' ("" when none), null when it overflowed {@link MAX_STRING};
   * `terminator`: BEL (0x07), ST (0x9c), ESC (0x1b, the start of `ESC \`), or CAN/SUB (0x18,
   * 0x1a), which abort the string.
   */
  oscDispatch(id: number, data: string | null, terminator: number): void;
  /**
   * The end of a DCS string: `ident` as for CSI, `data` and `terminator` as for
   * {@link oscDispatch} (its parameters are parsed over, not passed).
   */
  dcsDispatch(ident: number, data: string | null, terminator: number): void;
}

/** Where an OSC string is: in its id (from its start), in its text, malformed (ignored). */
const _OSC_ID = 1;
const _OSC_PAYLOAD = 2;
const _OSC_MALFORMED = 3;

/** A parser feeding one {@link Performer}. */
export class Parser {
  readonly #performer: Performer;
  readonly #replaceMalformed: boolean;
  // UTF-8: continuation bytes still needed, the code point so far, the least value allowed
  #utfNeed = 0;
  #utfCp = 0;
  #utfMin = 0;
  #state: number = State.ground;
  readonly #params = new Params();
  #collect = 0;
  // a non-print action came since the last print (see Performer.print)
  #afterControl = false;
  // OSC: sub-state and id; OSC/DCS: the string's UTF-16 units (one spare for a surrogate pair)
  #oscPart = 0;
  #oscId = -1;
  #dcsIdent = 0;
  readonly #text = new Uint16Array(MAX_STRING + 1);
  #textLength = 0;
  #textOverflowed = false;

  constructor(performer: Performer, opts: { replaceMalformed?: boolean } = {}) {
    this.#performer = performer;
    this.#replaceMalformed = opts.replaceMalformed ?? false;
  }

  /**
   * Between characters and sequences: no escape sequence, string or UTF-8 character is half read
   * (a terminal's state may be saved then, see terminal_state.ts).
   */
  get atRest(): boolean {
    return this.#state === State.ground && this.#utfNeed === 0;
  }

  /** A non-print action came since the last print (part of a saved terminal's state). */
  get afterControl(): boolean {
    return this.#afterControl;
  }

  set afterControl(value: boolean) {
    this.#afterControl = value;
  }

  /** Parses `bytes` (any split: a sequence or a character may continue in the next call). */
  advance(bytes: Uint8Array): void {
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      let b = bytes[i];
      if (this.#utfNeed === 0) {
        if (b >= 0x20 && b < 0x7f && this.#state === State.ground) {
          // ASCII fast path: print the whole run of printable ASCII.
          let j = i + 1;
          while (j < n && (b = bytes[j]) >= 0x20 && b < 0x7f) j++;
          this.#performer.printAscii(bytes, i, j, this.#afterControl);
          this.#afterControl = false;
          i = j;
          continue;
        }
        i++;
        if (b < 0x80) {
          this.#feed(b);
          continue;
        }
        if ((b & 0xe0) === 0xc0) {
          this.#utfNeed = 1;
          this.#utfCp = b & 0x1f;
          this.#utfMin = 0x80;
        } else if ((b & 0xf0) === 0xe0) {
          this.#utfNeed = 2;
          this.#utfCp = b & 0x0f;
          this.#utfMin = 0x800;
        } else if ((b & 0xf8) === 0xf0) {
          this.#utfNeed = 3;
          this.#utfCp = b & 0x07;
          this.#utfMin = 0x10000;
        } else {
          this.#malformed();
        }
        continue;
      }
      // inside a multi-byte sequence
      if ((b & 0xc0) !== 0x80) {
        // not a continuation: drop the partial sequence, reprocess this byte
        this.#utfNeed = 0;
        this.#malformed();
        continue;
      }
      i++;
      this.#utfCp = (this.#utfCp << 6) | (b & 0x3f);
      if (--this.#utfNeed > 0) continue;
      const cp = this.#utfCp;
      if (
        cp < this.#utfMin || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfeff
      ) {
        // overlong, surrogate, out of range, or BOM: xterm.js drops these
        if (cp !== 0xfeff) this.#malformed();
        continue;
      }
      this.#feed(cp);
    }
  }

  #malformed(): void {
    if (this.#replaceMalformed) this.#feed(0xfffd);
  }

  /** One code point through the state machine. */
  #feed(cp: number): void {
    const t = TRANSITIONS[this.#state << 8 | (cp < 0xa0 ? cp : NON_ASCII_PRINTABLE)];
    let next = t & 15;
    const action = t >> 4;
    if (action === Action.print) {
      this.#performer.print(cp, this.#afterControl);
      this.#afterControl = false;
      this.#state = next;
      return;
    }
    this.#afterControl = true;
    switch (action) {
      case Action.execute:
        this.#performer.execute(cp);
        break;
      case Action.csiDispatch:
        this.#performer.csiDispatch(this.#collect << 8 | cp, this.#params);
        break;
      case Action.param:
        this.#param(cp);
        break;
      case Action.collect:
        this.#collect = (this.#collect << 8) | cp;
        break;
      case Action.escDispatch:
        this.#performer.escDispatch(this.#collect << 8 | cp);
        break;
      case Action.clear:
        this.#clear();
        break;
      case Action.oscStart:
        this.#oscPart = _OSC_ID;
        this.#oscId = -1;
        this.#startText();
        break;
      case Action.oscPut:
        this.#oscPut(cp);
        break;
      case Action.oscEnd:
        this.#performer.oscDispatch(
          this.#oscPart === _OSC_MALFORMED ? -1 : this.#oscId,
          this.#takeText(),
          cp,
        );
        this.#oscPart = 0;
        this.#clear();
        if (cp === 0x1b) next = State.escape;
        break;
      case Action.dcsHook:
        this.#dcsIdent = this.#collect << 8 | cp;
        this.#startText();
        break;
      case Action.dcsPut:
        this.#put(cp);
        break;
      case Action.dcsUnhook:
        this.#performer.dcsDispatch(this.#dcsIdent, this.#takeText(), cp);
        this.#dcsIdent = 0;
        this.#clear();
        if (cp === 0x1b) next = State.escape;
        break;
        // ignore, error: nothing
    }
    this.#state = next;
  }

  #clear(): void {
    this.#params.clear();
    this.#collect = 0;
  }

  #param(cp: number): void {
    const p = this.#params;
    if (cp === 0x3b) {
      p.sub = false;
      if (p.count >= MAX_PARAMS) p.overflowed = true;
      else p.values[p.count++] = 0;
    } else if (cp === 0x3a) {
      p.sub = true; // sub-parameters are parsed over, not kept
    } else if (!p.sub && !p.overflowed) {
      const k = p.count - 1;
      const v = p.values[k] * 10 + (cp - 0x30);
      p.values[k] = v > _MAX_PARAM_VALUE ? _MAX_PARAM_VALUE : v;
    }
  }

  #oscPut(cp: number): void {
    const part = this.#oscPart;
    if (part === _OSC_PAYLOAD) return this.#put(cp);
    if (part !== _OSC_ID) return; // malformed: ignored to its end
    if (cp === 0x3b) {
      this.#oscPart = _OSC_PAYLOAD;
    } else if (cp < 0x30 || cp > 0x39) {
      this.#oscPart = _OSC_MALFORMED;
    } else {
      this.#oscId = (this.#oscId === -1 ? 0 : this.#oscId * 10) + cp - 0x30;
      if (this.#oscId > _MAX_OSC_ID) this.#oscPart = _OSC_MALFORMED;
    }
  }

  #startText(): void {
    this.#textLength = 0;
    this.#textOverflowed = false;
  }

  /** Appends `cp` to the string being collected (as UTF-16), or notes the overflow. */
  #put(cp: number): void {
    const n = this.#textLength;
    if (n >= MAX_STRING) {
      this.#textOverflowed = true;
      return;
    }
    if (cp < 0x10000) {
      this.#text[n] = cp;
      this.#textLength = n + 1;
    } else {
      cp -= 0x10000;
      this.#text[n] = 0xd800 | (cp >> 10);
      this.#text[n + 1] = 0xdc00 | (cp & 0x3ff);
      this.#textLength = n + 2;
    }
  }

  /** The string collected, null when it overflowed. */
  #takeText(): string | null {
    if (this.#textOverflowed) return null;
    const n = this.#textLength;
    if (n === 0) return "";
    return String.fromCharCode.apply(null, this.#text.subarray(0, n) as unknown as number[]);
  }
}
