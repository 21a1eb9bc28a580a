/**
 * The VT interpreter: bytes in, screen/scrollback/modes/title out. Pure (no I/O). This file
 * decodes UTF-8, runs the parser (`parser_table.ts`) and dispatches sequences: modes, queries
 * and titles are handled here, every screen operation is done by `screen.ts`.
 *
 * Behaviour follows xterm.js 6 (`@xterm/headless` with the Unicode 11 widths), the oracle of
 * the recordings in the corpus, including its quirks (cursor-relative moves in origin mode,
 * DECCOLM ignored, malformed UTF-8 dropped). Where the issue text and the oracle disagree,
 * the oracle wins and the choice is documented here:
 *
 * - Malformed UTF-8 is dropped silently by default, as xterm.js does (a raw `0x9B` prints
 *   nothing). `replaceMalformed: true` prints U+FFFD for each malformed sequence instead.
 * - Lines reach the scrollback only by scrolling the normal buffer with its top margin at row 0
 *   (`ED 2` does not save the screen; `SU` never saves lines); `ED 3` clears the scrollback.
 *
 * @module
 */
import { charsetFor } from "./charsets.ts";
import {
  copyModes,
  defaultModes,
  type ModeChange,
  type ModeName,
  type Modes,
  ORACLE_MODE_KEYS,
} from "./modes.ts";
import { Action, NON_ASCII_PRINTABLE, State, TRANSITIONS } from "./parser_table.ts";
import type { Query } from "./query.ts";
import { Screen } from "./screen.ts";
import { MAX_COLS, MAX_ROWS, MAX_SCROLLBACK } from "./limits.ts";

/** Options of a {@link Terminal}. */
export interface TerminalOptions {
  /** Columns (1 to {@link MAX_COLS}; clamped). */
  cols: number;
  /** Rows (1 to {@link MAX_ROWS}; clamped). */
  rows: number;
  /** Scrollback lines kept (default 10,000; at most {@link MAX_SCROLLBACK}). */
  scrollback?: number;
  /** Print U+FFFD for malformed UTF-8 instead of dropping it like xterm.js (default false). */
  replaceMalformed?: boolean;
}

/** The final state in exactly the shape of the corpus `oracle` object (minus its metadata). */
export interface TerminalSnapshot {
  /** Visible rows of the active buffer, trailing spaces stripped. */
  screen: string[];
  /** Normal-buffer scrollback, oldest first, trailing spaces stripped. */
  scrollback: string[];
  /** Visible rows that are soft-wrap continuations. */
  wrappedRows: number[];
  /** 0-based cursor; `x` equals `cols` while a wrap is pending. */
  cursor: { x: number; y: number };
  /** Which buffer is shown. */
  activeBuffer: "normal" | "alternate";
  /** The modes the oracle reports. */
  modes: Pick<Modes, typeof ORACLE_MODE_KEYS[number]>;
  /** Last OSC 0/2 title, null if none was set. */
  title: string | null;
  /** Number of BEL characters executed. */
  bells: number;
  /** Row → per-column widths ("2011…") for rows with a cell whose width is not 1. */
  cellWidths: Record<string, string>;
  /** The inactive normal screen, present while the alternate buffer is active. */
  normalScreen?: string[];
}

const _MAX_PARAMS = 32;
const _DEFAULT_MODES = defaultModes() as unknown as Readonly<Record<string, unknown>>;
const _MODE_NAMES = Object.keys(_DEFAULT_MODES) as ModeName[];
const _MAX_PARAM_VALUE = 0x7fffffff;
const _OSC_LIMIT = 8192;
const _KITTY_STACK_LIMIT = 64;
const _C = (s: string) => s.charCodeAt(0);
// CSI/ESC identifiers: collected prefix/intermediate bytes << 8 | final byte.
const _Q = _C("?") << 8;
const _GT = _C(">") << 8;
const _LT = _C("<") << 8;
const _EQ = _C("=") << 8;
const _SP = _C(" ") << 8;
const _DOLLAR = _C("$") << 8;

/** A VT/xterm terminal emulator without I/O: feed it output bytes, read its state. */
export class Terminal {
  readonly #replaceMalformed: boolean;
  // changed in place only: the screen reads insert/wraparound/origin… from the same object
  readonly #modes: Modes = defaultModes();
  readonly #screen: Screen;
  #title: string | null = null;
  #bells = 0;
  // UTF-8 decoder
  #utfNeed = 0;
  #utfCp = 0;
  #utfMin = 0;
  // parser
  #state: number = State.ground;
  #params = new Int32Array(_MAX_PARAMS);
  #paramCount = 1;
  #paramSub = false;
  #paramReject = false;
  #collect = 0;
  #oscId = -1;
  #oscMode = 0; // 0 start, 1 id, 2 payload, 3 abort
  #oscData = "";
  #oscOverflow = false;
  #dcsIdent = 0;
  #dcsData = "";
  // listeners
  #modeListeners: ((c: ModeChange) => void)[] = [];
  #queryListeners: ((q: Query) => void)[] = [];
  #encoder = new TextEncoder();
  // Nothing changed since the last RIS: another RIS has nothing to do (a flood of them is O(1)).
  #pristine = false;
  // A mode may differ from its default (RIS then compares them all, else it has nothing to do).
  #modesChanged = false;

  constructor(opts: TerminalOptions) {
    this.#screen = new Screen(
      _clamp(opts.cols, 1, MAX_COLS),
      _clamp(opts.rows, 1, MAX_ROWS),
      _clamp(opts.scrollback ?? 10_000, 0, MAX_SCROLLBACK),
      this.#modes,
    );
    this.#replaceMalformed = opts.replaceMalformed ?? false;
  }

  /** Columns. */
  get cols(): number {
    return this.#screen.cols;
  }

  /** Rows. */
  get rows(): number {
    return this.#screen.rows;
  }

  /** Current modes (a copy). */
  get modes(): Readonly<Modes> {
    return copyModes(this.#modes);
  }

  /** Whether a synchronized update (?2026) is open; cheap enough to ask after every chunk. */
  get inSynchronizedUpdate(): boolean {
    return this.#modes.synchronizedOutput;
  }

  /** Last title set with OSC 0/2 ("" before any). */
  get title(): string {
    return this.#title ?? "";
  }

  /** Which buffer is shown. */
  get activeBuffer(): "normal" | "alternate" {
    return this.#screen.buf === this.#screen.alt ? "alternate" : "normal";
  }

  /** Cursor position (0-based; `x` equals `cols` while a wrap is pending). */
  get cursor(): { x: number; y: number } {
    return { x: this.#screen.buf.x, y: this.#screen.buf.y };
  }

  /** Calls `cb` whenever a mode changes value; returns the unsubscribe function. */
  onModeChange(cb: (change: ModeChange) => void): () => void {
    this.#modeListeners.push(cb);
    return () => {
      this.#modeListeners = this.#modeListeners.filter((l) => l !== cb);
    };
  }

  /**
   * Calls `cb` for every terminal query in the output, synchronously while parsing (so
   * `cursor`/`modes` are those at the query). Returns the unsubscribe function.
   */
  onQuery(cb: (query: Query) => void): () => void {
    this.#queryListeners.push(cb);
    return () => {
      this.#queryListeners = this.#queryListeners.filter((l) => l !== cb);
    };
  }

  /** Feeds output bytes (or a string, encoded as UTF-8). */
  write(data: Uint8Array | string): void {
    const bytes = typeof data === "string" ? this.#encoder.encode(data) : data;
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      let b = bytes[i];
      if (this.#utfNeed === 0) {
        if (b >= 0x20 && b < 0x7f && this.#state === State.ground) {
          // ASCII fast path: print the whole run of printable ASCII.
          let j = i + 1;
          while (j < n && (b = bytes[j]) >= 0x20 && b < 0x7f) j++;
          this.#pristine = false;
          this.#screen.printAscii(bytes, i, j);
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

  /** Resizes (clamped to the limits); content is kept (no reflow), the cursor is clamped. */
  resize(cols: number, rows: number): void {
    cols = _clamp(cols, 1, MAX_COLS);
    rows = _clamp(rows, 1, MAX_ROWS);
    if (cols !== this.#screen.cols || rows !== this.#screen.rows) {
      this.#screen.resize(cols, rows);
      this.#pristine = false;
    }
  }

  /** Visible rows of the active buffer, trailing spaces stripped. */
  screenLines(): string[] {
    return this.#screen.screenLines();
  }

  /**
   * Visible rows with soft-wrap continuations joined into one line each. A logical line of more
   * than 50 rows (or 12,000 cells: 30 rows at 400 columns) keeps only its end, after a "…".
   */
  logicalScreenLines(): string[] {
    return this.#screen.logicalScreenLines();
  }

  /**
   * The last `n` logical lines that have text (not empty after stripping trailing spaces),
   * oldest first, from the normal scrollback followed by the visible screen. A logical line that
   * wraps over more than 50 rows (or 12,000 cells: 30 rows at 400 columns) keeps only its end,
   * after a "…".
   */
  lastLines(n: number): string[] {
    return this.#screen.lastLines(n);
  }

  /** The state in the shape of the corpus `oracle` object. */
  snapshot(): TerminalSnapshot {
    const buf = this.#screen.buf;
    const modes = {} as Record<string, unknown>;
    for (const k of ORACLE_MODE_KEYS) modes[k] = this.#modes[k];
    const wrappedRows: number[] = [];
    const cellWidths: Record<string, string> = {};
    buf.lines.forEach((l, y) => {
      if (l.wrapped) wrappedRows.push(y);
      const w = l.widths();
      if (w !== null) cellWidths[String(y)] = w;
    });
    const scrollback: string[] = [];
    const sb = this.#screen.normal.scrollback!;
    for (let i = 0; i < sb.length; i++) scrollback.push(sb.get(i).text());
    const snap: TerminalSnapshot = {
      screen: this.screenLines(),
      scrollback,
      wrappedRows,
      cursor: { x: buf.x, y: buf.y },
      activeBuffer: this.activeBuffer,
      modes: modes as TerminalSnapshot["modes"],
      title: this.#title,
      bells: this.#bells,
      cellWidths,
    };
    if (buf === this.#screen.alt) {
      snap.normalScreen = this.#screen.normal.lines.map((l) => l.text());
    }
    return snap;
  }

  // ---------------------------------------------------------------- parser

  #malformed(): void {
    if (this.#replaceMalformed) this.#feed(0xfffd);
  }

  #feed(cp: number): void {
    const t = TRANSITIONS[this.#state << 8 | (cp < 0xa0 ? cp : NON_ASCII_PRINTABLE)];
    let next = t & 15;
    const action = t >> 4;
    if (action !== Action.print) this.#screen.inPrintRun = false;
    switch (action) {
      case Action.print:
        this.#pristine = false;
        this.#screen.printCp(cp);
        break;
      case Action.execute:
        this.#pristine = false;
        this.#execute(cp);
        this.#screen.joinWidth = 0;
        break;
      case Action.csiDispatch:
        this.#pristine = false;
        this.#csiDispatch(this.#collect << 8 | cp);
        this.#screen.joinWidth = 0;
        break;
      case Action.param:
        this.#paramByte(cp);
        break;
      case Action.collect:
        this.#collect = (this.#collect << 8) | cp;
        break;
      case Action.escDispatch:
        if (cp !== 0x63 || this.#collect !== 0) this.#pristine = false; // ESC c is RIS
        this.#escDispatch(this.#collect << 8 | cp);
        this.#screen.joinWidth = 0;
        break;
      case Action.clear:
        this.#clearParams();
        break;
      case Action.oscStart:
        this.#oscId = -1;
        this.#oscMode = 1;
        this.#oscData = "";
        this.#oscOverflow = false;
        break;
      case Action.oscPut:
        this.#oscPut(cp);
        break;
      case Action.oscEnd:
        this.#oscEnd(cp);
        this.#clearParams();
        this.#screen.joinWidth = 0;
        if (cp === 0x1b) next = State.escape;
        break;
      case Action.dcsHook:
        this.#dcsIdent = this.#collect << 8 | cp;
        this.#dcsData = "";
        break;
      case Action.dcsPut:
        if (this.#dcsIdent === (_DOLLAR | _C("q")) && this.#dcsData.length < 64) {
          this.#dcsData += String.fromCodePoint(cp);
        }
        break;
      case Action.dcsUnhook:
        if (cp !== 0x18 && cp !== 0x1a && this.#dcsIdent === (_DOLLAR | _C("q"))) {
          this.#emitQuery({ kind: "DECRQSS", setting: this.#dcsData });
        }
        this.#dcsIdent = 0;
        this.#clearParams();
        this.#screen.joinWidth = 0;
        if (cp === 0x1b) next = State.escape;
        break;
        // ignore, error: nothing
    }
    this.#state = next;
  }

  #clearParams(): void {
    this.#params[0] = 0;
    this.#paramCount = 1;
    this.#paramSub = false;
    this.#paramReject = false;
    this.#collect = 0;
  }

  #paramByte(cp: number): void {
    if (cp === 0x3b) {
      this.#paramSub = false;
      if (this.#paramCount >= _MAX_PARAMS) this.#paramReject = true;
      else this.#params[this.#paramCount++] = 0;
    } else if (cp === 0x3a) {
      this.#paramSub = true; // sub-parameters are parsed over, not kept
    } else if (!this.#paramSub && !this.#paramReject) {
      const k = this.#paramCount - 1;
      const v = this.#params[k] * 10 + (cp - 0x30);
      this.#params[k] = v > _MAX_PARAM_VALUE ? _MAX_PARAM_VALUE : v;
    }
  }

  #oscPut(cp: number): void {
    if (this.#oscMode === 3) return;
    if (this.#oscMode === 1) {
      if (cp === 0x3b) {
        this.#oscMode = 2;
        return;
      }
      if (cp < 0x30 || cp > 0x39) {
        this.#oscMode = 3;
        return;
      }
      this.#oscId = (this.#oscId === -1 ? 0 : this.#oscId * 10) + cp - 0x30;
      if (this.#oscId > 1_000_000) this.#oscMode = 3;
      return;
    }
    const id = this.#oscId;
    if (id > 2 && id !== 10 && id !== 11 && id !== 12) return; // payload not needed
    if (this.#oscData.length >= _OSC_LIMIT) {
      this.#oscOverflow = true;
      return;
    }
    this.#oscData += cp < 0x10000 ? String.fromCharCode(cp) : String.fromCodePoint(cp);
  }

  #oscEnd(terminator: number): void {
    const mode = this.#oscMode;
    this.#oscMode = 0;
    // CAN/SUB abort the string; BEL, ST and ESC end it
    if (mode === 0 || mode === 3 || terminator === 0x18 || terminator === 0x1a) return;
    if (this.#oscOverflow) return;
    const id = this.#oscId;
    const data = this.#oscData;
    if (id === 0 || id === 2) {
      this.#title = data;
    } else if (id === 10 || id === 11 || id === 12) {
      // "?" queries; a list such as "10;?;?" asks for 10 and 11
      const slots = data.split(";");
      for (let k = 0; k < slots.length && id + k <= 12; k++) {
        if (slots[k] === "?") {
          this.#emitQuery({
            kind: "OSC_COLOR",
            osc: (id + k) as 10 | 11 | 12,
            terminator: terminator === 0x07 ? "BEL" : "ST",
          });
        }
      }
    }
  }

  #emitQuery(q: Query): void {
    for (const l of this.#queryListeners) l(q);
  }

  #setMode<K extends ModeName>(mode: K, value: Modes[K]): void {
    if (this.#modes[mode] === value) return;
    this.#modes[mode] = value;
    this.#modesChanged = true;
    for (const l of this.#modeListeners) l({ mode, value });
  }

  #kittyChanged(): void {
    this.#modesChanged = true;
    const value = [...this.#modes.kittyKeyboardFlags];
    for (const l of this.#modeListeners) l({ mode: "kittyKeyboardFlags", value });
  }

  // ---------------------------------------------------------------- C0/C1, ESC

  #execute(code: number): void {
    const buf = this.#screen.buf;
    switch (code) {
      case 0x07:
        this.#bells++;
        break;
      case 0x0a:
      case 0x0b:
      case 0x0c:
        this.#screen.lineFeed();
        break;
      case 0x0d:
        buf.x = 0;
        break;
      case 0x08:
        this.#screen.backspace();
        break;
      case 0x09:
        if (buf.x < this.#screen.cols) buf.x = buf.nextStop(buf.x);
        break;
      case 0x0e:
        this.#screen.setGLevel(1);
        break;
      case 0x0f:
        this.#screen.setGLevel(0);
        break;
      case 0x84:
        this.#screen.index();
        break;
      case 0x85:
        buf.x = 0;
        this.#screen.index();
        break;
      case 0x88:
        buf.setStop(buf.x);
        break;
    }
  }

  #escDispatch(ident: number): void {
    const buf = this.#screen.buf;
    const final = ident & 0xff;
    const collect = ident >>> 8;
    if (collect === 0) {
      switch (final) {
        case 0x37: // 7
          return this.#screen.saveCursor();
        case 0x38: // 8
          return this.#screen.restoreCursor();
        case 0x44: // D
          return this.#screen.index();
        case 0x45: // E
          buf.x = 0;
          return this.#screen.index();
        case 0x48: // H
          buf.setStop(buf.x);
          return;
        case 0x4d: // M
          return this.#screen.reverseIndex();
        case 0x3d: // =
          return this.#setMode("applicationKeypad", true);
        case 0x3e: // >
          return this.#setMode("applicationKeypad", false);
        case 0x63: // c
          return this.#fullReset();
        case 0x6e: // n
          return this.#screen.setGLevel(2);
        case 0x6f: // o
        case 0x7c: // |
          return this.#screen.setGLevel(3);
        case 0x7d: // }
          return this.#screen.setGLevel(2);
        case 0x7e: // ~
          return this.#screen.setGLevel(1);
      }
      return;
    }
    if (collect === _C("%")) {
      if (final === _C("@") || final === _C("G")) {
        this.#screen.setGLevel(0);
        this.#screen.setGCharset(0, null);
      }
      return;
    }
    if (collect === _C("#") && final === _C("8")) return this.#screen.screenAlignment();
    const g = "()*+-.".indexOf(String.fromCharCode(collect));
    if (g >= 0) {
      const charset = charsetFor(final);
      if (charset !== undefined) this.#screen.setGCharset([0, 1, 2, 3, 1, 2][g], charset);
    }
  }

  #fullReset(): void {
    if (this.#pristine) return;
    this.#pristine = true;
    this.#screen.resetBuffers();
    this.#screen.convertEol = false;
    this.#screen.resetCharsets();
    if (!this.#modesChanged) return;
    this.#modesChanged = false;
    // modes back to their defaults in place, listeners told of each change afterwards
    const modes = this.#modes as unknown as Record<string, unknown>;
    let changed: ModeName[] | null = null;
    for (const k of _MODE_NAMES) {
      // xterm.js keeps cursorHidden across RIS; the kitty stack is compared by length
      if (k === "cursorHidden") continue;
      if (k === "kittyKeyboardFlags") {
        if (this.#modes.kittyKeyboardFlags.length === 0) continue;
        this.#modes.kittyKeyboardFlags = [];
      } else if (modes[k] !== _DEFAULT_MODES[k]) modes[k] = _DEFAULT_MODES[k];
      else continue;
      (changed ??= []).push(k);
    }
    for (const k of changed ?? []) {
      if (k === "kittyKeyboardFlags") this.#kittyChanged();
      else for (const l of this.#modeListeners) l({ mode: k, value: this.#modes[k] });
    }
  }

  // ---------------------------------------------------------------- CSI

  #csiDispatch(ident: number): void {
    const p = this.#params;
    const p0 = p[0];
    const n1 = p0 || 1;
    const buf = this.#screen.buf;
    switch (ident) {
      case 0x40: // @ ICH
        this.#screen.restrictCursor();
        this.#screen.insertCells(buf.lines[buf.y], buf.x, n1);
        return;
      case 0x41: { // A CUU
        const d = buf.y - buf.scrollTop;
        return this.#screen.moveCursor(0, -(d >= 0 ? Math.min(d, n1) : n1));
      }
      case 0x42: { // B CUD
        const d = buf.scrollBottom - buf.y;
        return this.#screen.moveCursor(0, d >= 0 ? Math.min(d, n1) : n1);
      }
      case 0x43: // C CUF
      case 0x61: // a HPR
        return this.#screen.moveCursor(n1, 0);
      case 0x44: // D CUB
        return this.#screen.moveCursor(-n1, 0);
      case 0x45: // E CNL
        this.#csiDispatch(0x42);
        buf.x = 0;
        return;
      case 0x46: // F CPL
        this.#csiDispatch(0x41);
        buf.x = 0;
        return;
      case 0x47: // G CHA
      case 0x60: // ` HPA
        return this.#screen.setCursor(n1 - 1, buf.y);
      case 0x48: // H CUP
      case 0x66: // f HVP
        return this.#screen.setCursor(this.#paramCount >= 2 ? (p[1] || 1) - 1 : 0, n1 - 1);
      case 0x49: // I CHT
        if (buf.x >= this.#screen.cols) return;
        for (let k = Math.min(n1, this.#screen.cols); k > 0; k--) buf.x = buf.nextStop(buf.x);
        return;
      case 0x5a: // Z CBT
        if (buf.x >= this.#screen.cols) return;
        for (let k = Math.min(n1, this.#screen.cols); k > 0; k--) buf.x = buf.prevStop(buf.x);
        return;
      case 0x4a: // J ED
      case _Q | 0x4a: // ? J DECSED
        return this.#screen.eraseInDisplay(p0);
      case 0x4b: // K EL
      case _Q | 0x4b:
        return this.#screen.eraseInLine(p0);
      case 0x4c: // L IL
      case 0x4d: { // M DL
        this.#screen.restrictCursor();
        if (buf.y > buf.scrollBottom || buf.y < buf.scrollTop) return;
        const n = Math.min(n1, buf.scrollBottom - buf.y + 1);
        if (ident === 0x4c) this.#screen.shiftLines(buf.scrollBottom, buf.y, n);
        else this.#screen.shiftLines(buf.y, buf.scrollBottom, n);
        buf.x = 0;
        return;
      }
      case 0x50: // P DCH
        this.#screen.restrictCursor();
        this.#screen.deleteCells(buf.lines[buf.y], buf.x, n1);
        return;
      case 0x53: { // S SU
        const n = Math.min(n1, buf.scrollBottom - buf.scrollTop + 1);
        this.#screen.shiftLines(buf.scrollTop, buf.scrollBottom, n);
        return;
      }
      case 0x54: { // T SD
        const n = Math.min(n1, buf.scrollBottom - buf.scrollTop + 1);
        this.#screen.shiftLines(buf.scrollBottom, buf.scrollTop, n);
        return;
      }
      case 0x58: // X ECH
        this.#screen.restrictCursor();
        this.#screen.eraseCells(buf.y, buf.x, buf.x + n1, false);
        return;
      case 0x62: // b REP
        return this.#screen.repeat(n1);
      case 0x63: // c DA1
        if (p0 === 0) this.#emitQuery({ kind: "DA1" });
        return;
      case _GT | 0x63: // > c DA2
        if (p0 === 0) this.#emitQuery({ kind: "DA2" });
        return;
      case 0x64: // d VPA
        return this.#screen.setCursor(buf.x, n1 - 1);
      case 0x65: // e VPR
        return this.#screen.moveCursor(0, n1);
      case 0x67: // g TBC
        if (p0 === 0) buf.clearStop(buf.x);
        else if (p0 === 3) buf.clearStops();
        return;
      case 0x68: // h SM
      case 0x6c: // l RM
        for (let k = 0; k < this.#paramCount; k++) {
          if (p[k] === 4) this.#setMode("insert", ident === 0x68);
          else if (p[k] === 20) this.#screen.convertEol = ident === 0x68;
        }
        return;
      case _Q | 0x68: // ? h DECSET
        for (let k = 0; k < this.#paramCount; k++) this.#decset(p[k], true);
        return;
      case _Q | 0x6c: // ? l DECRST
        for (let k = 0; k < this.#paramCount; k++) this.#decset(p[k], false);
        return;
      case 0x6e: // n DSR
        if (p0 === 5) this.#emitQuery({ kind: "DSR" });
        else if (p0 === 6) this.#emitQuery({ kind: "CPR", private: false });
        return;
      case _Q | 0x6e:
        if (p0 === 6) this.#emitQuery({ kind: "CPR", private: true });
        return;
      case (_C("!") << 8) | 0x70: // ! p DECSTR
        return this.#softReset();
      case 0x72: { // r DECSTBM
        const top = p0 || 1;
        let bottom = p[1];
        if (this.#paramCount < 2 || bottom > this.#screen.rows || bottom === 0) {
          bottom = this.#screen.rows;
        }
        if (bottom > top) {
          buf.scrollTop = top - 1;
          buf.scrollBottom = bottom - 1;
          this.#screen.setCursor(0, 0);
        }
        return;
      }
      case 0x73: // s SCOSC
        return this.#screen.saveCursor();
      case 0x75: // u SCORC
        return this.#screen.restoreCursor();
      case _Q | 0x75: // ? u kitty flags query
        return this.#emitQuery({ kind: "KITTY_FLAGS" });
      case _GT | 0x75: { // > u kitty push
        const stack = this.#modes.kittyKeyboardFlags;
        stack.push(p0);
        if (stack.length > _KITTY_STACK_LIMIT) stack.shift();
        return this.#kittyChanged();
      }
      case _LT | 0x75: { // < u kitty pop
        const stack = this.#modes.kittyKeyboardFlags;
        if (stack.length === 0) return;
        stack.splice(Math.max(0, stack.length - n1));
        return this.#kittyChanged();
      }
      case _EQ | 0x75: { // = u kitty set top
        const stack = this.#modes.kittyKeyboardFlags;
        const mode = this.#paramCount >= 2 ? (p[1] || 1) : 1;
        const top = stack.length ? stack[stack.length - 1] : 0;
        const value = mode === 1 ? p0 : mode === 2 ? top | p0 : mode === 3 ? top & ~p0 : top;
        if (stack.length) stack[stack.length - 1] = value;
        else stack.push(value);
        return this.#kittyChanged();
      }
      case _GT | 0x6d: // > m XTMODKEYS
        if (p0 === 4) {
          this.#setMode("modifyOtherKeys", this.#paramCount >= 2 ? p[1] : 0);
        }
        return;
      case _GT | 0x6e: // > n XTMODKEYS reset
        if (p0 === 4) this.#setMode("modifyOtherKeys", 0);
        return;
      case _GT | 0x71: // > q XTVERSION
        if (p0 === 0) this.#emitQuery({ kind: "XTVERSION" });
        return;
      case _DOLLAR | 0x70: // $ p DECRQM (ANSI)
        return this.#emitQuery({ kind: "DECRQM", mode: p0, private: false });
      case (_C("?") << 16) | _DOLLAR | 0x70: // ? $ p DECRQM (private)
        return this.#emitQuery({ kind: "DECRQM", mode: p0, private: true });
      case _SP | 0x40: // SP @ SL
      case _SP | 0x41: { // SP A SR
        if (buf.y > buf.scrollBottom || buf.y < buf.scrollTop) return;
        for (let y = buf.scrollTop; y <= buf.scrollBottom; y++) {
          const line = buf.lines[y];
          if (ident === (_SP | 0x40)) this.#screen.deleteCells(line, 0, n1);
          else this.#screen.insertCells(line, 0, n1);
          line.wrapped = false;
        }
        return;
      }
      case (_C("'") << 8) | 0x7d: // ' } DECIC
      case (_C("'") << 8) | 0x7e: { // ' ~ DECDC
        if (buf.y > buf.scrollBottom || buf.y < buf.scrollTop) return;
        for (let y = buf.scrollTop; y <= buf.scrollBottom; y++) {
          const line = buf.lines[y];
          if ((ident & 0xff) === 0x7d) this.#screen.insertCells(line, buf.x, n1);
          else this.#screen.deleteCells(line, buf.x, n1);
          line.wrapped = false;
        }
        return;
      }
        // m SGR and everything else: no effect on text
    }
  }

  #decset(mode: number, on: boolean): void {
    switch (mode) {
      case 1:
        return this.#setMode("applicationCursorKeys", on);
      case 2:
        if (on) { for (let g = 0; g < 4; g++) this.#screen.setGCharset(g, null); }
        return;
      case 6:
        this.#setMode("origin", on);
        return this.#screen.setCursor(0, 0);
      case 7:
        return this.#setMode("wraparound", on);
      case 45:
        return this.#setMode("reverseWraparound", on);
      case 66:
        return this.#setMode("applicationKeypad", on);
      case 9:
        return this.#setMode("mouseTracking", on ? "x10" : "none");
      case 1000:
        return this.#setMode("mouseTracking", on ? "vt200" : "none");
      case 1002:
        return this.#setMode("mouseTracking", on ? "drag" : "none");
      case 1003:
        return this.#setMode("mouseTracking", on ? "any" : "none");
      case 1004:
        return this.#setMode("sendFocus", on);
      case 1006:
        return this.#setMode("mouseEncoding", on ? "SGR" : "DEFAULT");
      case 1016:
        return this.#setMode("mouseEncoding", on ? "SGR_PIXELS" : "DEFAULT");
      case 25:
        return this.#setMode("cursorHidden", !on);
      case 1048:
        return on ? this.#screen.saveCursor() : this.#screen.restoreCursor();
      case 1049:
      case 47:
      case 1047:
        if (on) {
          if (mode === 1049) this.#screen.saveCursor();
          this.#screen.activateAlt();
          this.#setMode("altScreen", true);
        } else {
          this.#screen.activateNormal();
          this.#setMode("altScreen", false);
          if (mode === 1049) this.#screen.restoreCursor();
        }
        return;
      case 2004:
        return this.#setMode("bracketedPaste", on);
      case 2026:
        return this.#setMode("synchronizedOutput", on);
      case 2031:
        return this.#setMode("colorSchemeUpdates", on);
    }
  }

  #softReset(): void {
    const buf = this.#screen.buf;
    this.#setMode("cursorHidden", false);
    buf.scrollTop = 0;
    buf.scrollBottom = this.#screen.rows - 1;
    this.#setMode("insert", false);
    this.#setMode("applicationCursorKeys", false);
    this.#setMode("applicationKeypad", false);
    this.#setMode("bracketedPaste", false);
    this.#setMode("origin", false);
    this.#setMode("reverseWraparound", false);
    this.#setMode("sendFocus", false);
    this.#setMode("synchronizedOutput", false);
    this.#setMode("wraparound", true);
    this.#screen.resetCharsets();
    buf.savedX = 0;
    buf.savedY = buf.base;
    buf.savedCharset = null;
  }
}

/** `n` rounded down into [min, max] (NaN becomes min). */
function _clamp(n: number, min: number, max: number): number {
  const v = Math.floor(n);
  return v >= max ? max : v >= min ? v : min;
}
