/**
 * The VT interpreter: bytes in, screen/scrollback/modes/title out. Pure (no I/O). A `Terminal`
 * is the public face of three parts: the parser (`parser.ts`: UTF-8, the state machine,
 * parameters, strings), the interpreter it calls (`interpreter.ts`: tables of named handlers
 * for controls, CSI, ESC, OSC and DCS) and the screen those handlers drive (`screen.ts`: the
 * buffers, the cursor rules, printing and editing).
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
import { Interpreter } from "./interpreter.ts";
import { type ModeChange, type Modes, ORACLE_MODE_KEYS } from "./modes.ts";
import { Parser } from "./parser.ts";
import type { Query } from "./query.ts";
import type { Screen } from "./screen.ts";
import { lastLines, logicalScreenLines, screenLines } from "./screen_text.ts";
import { restoreTerminalState, saveTerminalState, type TerminalState } from "./terminal_state.ts";
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

/** A VT/xterm terminal emulator without I/O: feed it output bytes, read its state. */
export class Terminal {
  readonly #vt: Interpreter;
  readonly #screen: Screen;
  readonly #parser: Parser;
  readonly #encoder = new TextEncoder();

  constructor(opts: TerminalOptions) {
    this.#vt = new Interpreter(
      _clamp(opts.cols, 1, MAX_COLS),
      _clamp(opts.rows, 1, MAX_ROWS),
      _clamp(opts.scrollback ?? 10_000, 0, MAX_SCROLLBACK),
    );
    this.#screen = this.#vt.screen;
    this.#parser = new Parser(this.#vt, { replaceMalformed: opts.replaceMalformed ?? false });
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
    return this.#vt.modes.copy();
  }

  /** Whether a synchronized update (?2026) is open; cheap enough to ask after every chunk. */
  get inSynchronizedUpdate(): boolean {
    return this.#vt.modes.current.synchronizedOutput;
  }

  /**
   * Whether what was written so far ended between sequences and characters: bytes of another
   * writer (uuldana's notifications) inserted now cannot land inside one of the program's.
   */
  get betweenSequences(): boolean {
    return this.#parser.atRest;
  }

  /** Last title set with OSC 0/2 ("" before any). */
  get title(): string {
    return this.#vt.title ?? "";
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
    return this.#vt.modes.listen(cb);
  }

  /**
   * Calls `cb` for every terminal query in the output, synchronously while parsing (so
   * `cursor`/`modes` are those at the query). Returns the unsubscribe function.
   */
  onQuery(cb: (query: Query) => void): () => void {
    return this.#vt.listenQueries(cb);
  }

  /**
   * Calls `cb` with the text (after the first `;`) of every complete OSC `id` string in the
   * output, synchronously while parsing: a string the model does not act on (an agent's own
   * status, OSC 7501) read by the parser that reads everything else. Returns the unsubscribe.
   */
  onOsc(id: number, cb: (data: string) => void): () => void {
    return this.#vt.listenOsc(id, cb);
  }

  /** Feeds output bytes (or a string, encoded as UTF-8). */
  write(data: Uint8Array | string): void {
    this.#parser.advance(typeof data === "string" ? this.#encoder.encode(data) : data);
  }

  /** Resizes (clamped to the limits); content is kept (no reflow), the cursor is clamped. */
  resize(cols: number, rows: number): void {
    cols = _clamp(cols, 1, MAX_COLS);
    rows = _clamp(rows, 1, MAX_ROWS);
    if (cols !== this.#screen.cols || rows !== this.#screen.rows) {
      this.#screen.resize(cols, rows);
      this.#vt.pristine = false;
    }
  }

  /** Visible rows of the active buffer, trailing spaces stripped. */
  screenLines(): string[] {
    return screenLines(this.#screen);
  }

  /**
   * Visible rows with soft-wrap continuations joined into one line each. A logical line of more
   * than 50 rows (or 12,000 cells: 30 rows at 400 columns) keeps only its end, after a "…".
   */
  logicalScreenLines(): string[] {
    return logicalScreenLines(this.#screen);
  }

  /**
   * The last `n` logical lines that have text (not empty after stripping trailing spaces),
   * oldest first, from the normal scrollback followed by the visible screen. A logical line that
   * wraps over more than 50 rows (or 12,000 cells: 30 rows at 400 columns) keeps only its end,
   * after a "…".
   */
  lastLines(n: number): string[] {
    return lastLines(this.#screen, n);
  }

  /**
   * The whole state as JSON data (terminal_state.ts), or null while a sequence or character is
   * half read (save again after the next write).
   */
  saveState(): TerminalState | null {
    return saveTerminalState(this.#vt, this.#parser);
  }

  /**
   * Puts back a state {@link saveState} returned. The terminal must be new: made with the
   * state's size and the scrollback of the one saved, nothing written yet.
   */
  restoreState(state: TerminalState): void {
    restoreTerminalState(this.#vt, this.#parser, state);
  }

  /** The state in the shape of the corpus `oracle` object. */
  snapshot(): TerminalSnapshot {
    const buf = this.#screen.buf;
    const modes = {} as Record<string, unknown>;
    for (const k of ORACLE_MODE_KEYS) modes[k] = this.#vt.modes.current[k];
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
      title: this.#vt.title,
      bells: this.#vt.bells,
      cellWidths,
    };
    if (buf === this.#screen.alt) {
      snap.normalScreen = this.#screen.normal.lines.map((l) => l.text());
    }
    return snap;
  }
}

/** `n` rounded down into [min, max] (NaN becomes min). */
function _clamp(n: number, min: number, max: number): number {
  const v = Math.floor(n);
  return v >= max ? max : v >= min ? v : min;
}
