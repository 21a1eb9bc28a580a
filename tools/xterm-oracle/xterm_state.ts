/**
 * The reference terminal: `@xterm/headless` 6 with `@xterm/addon-unicode11` (Unicode 11 widths,
 * as in VS Code's terminal), fed a byte stream, read back in the shape of our `TerminalSnapshot`.
 * Dev-only (tests, benchmarks, `tools/xterm-oracle/`): never import this from `mod.ts`'s graph.
 *
 * @module
 */
import { Terminal as XtermTerminal } from "@xterm/headless/lib-headless/xterm-headless.mjs";
import { Unicode11Addon } from "@xterm/addon-unicode11/lib/addon-unicode11.mjs";

/** What the corpus files name as the oracle. */
export const ORACLE_NAME = "@xterm/headless@6.0.0";

/** xterm.js' state in the shape of `TerminalSnapshot`. */
export interface XtermState {
  screen: string[];
  scrollback: string[];
  wrappedRows: number[];
  cursor: { x: number; y: number };
  activeBuffer: "normal" | "alternate";
  modes: Record<string, unknown>;
  title: string | null;
  bells: number;
  cellWidths: Record<string, string>;
  normalScreen?: string[];
}

/** Bytes per `write()`: xterm.js discards input above ~50 MB pending, so each chunk is awaited. */
const CHUNK = 65536;

/** A fresh xterm.js terminal with the title and bells it has seen. */
interface Oracle {
  // deno-lint-ignore no-explicit-any
  term: any;
  title: string | null;
  bells: number;
}

function openOracle(cols: number, rows: number, scrollback: number): Oracle {
  const term = new XtermTerminal({
    cols,
    rows,
    scrollback,
    allowProposedApi: true,
    logLevel: "off",
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  const oracle: Oracle = { term, title: null, bells: 0 };
  term.onTitleChange((t: string) => (oracle.title = t));
  term.onBell(() => oracle.bells++);
  return oracle;
}

// deno-lint-ignore no-explicit-any
function write(term: any, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

async function feed(oracle: Oracle, bytes: Uint8Array): Promise<void> {
  for (let i = 0; i < bytes.length; i += CHUNK) {
    await write(oracle.term, bytes.subarray(i, i + CHUNK));
  }
  await write(oracle.term, "");
}

/** Rows as text with trailing U+0020 stripped (printed or erased alike, as the corpus compares). */
// deno-lint-ignore no-explicit-any
function dump(buf: any, rows: number) {
  const lines: string[] = [];
  const wrapped: number[] = [];
  for (let y = 0; y < buf.length; y++) {
    const l = buf.getLine(y);
    lines.push(l ? l.translateToString(true).replace(/ +$/, "") : "");
    if (l?.isWrapped && y >= buf.baseY) wrapped.push(y - buf.baseY);
  }
  return {
    scrollback: lines.slice(0, buf.baseY),
    screen: lines.slice(buf.baseY, buf.baseY + rows),
    wrapped,
  };
}

function readState(oracle: Oracle): XtermState {
  const { term } = oracle;
  const cols: number = term.cols;
  const rows: number = term.rows;
  const active = term.buffer.active;
  const normal = dump(term.buffer.normal, rows);
  const main = active.type === "normal" ? normal : dump(active, rows);
  const cellWidths: Record<string, string> = {};
  const cell = active.getNullCell();
  for (let r = 0; r < rows; r++) {
    const l = active.getLine(active.baseY + r);
    if (!l) continue;
    let w = "";
    for (let x = 0; x < cols; x++) w += l.getCell(x, cell).getWidth();
    if (/[^1]/.test(w)) cellWidths[String(r)] = w;
  }
  const m = term.modes;
  const state: XtermState = {
    screen: main.screen,
    scrollback: normal.scrollback,
    wrappedRows: main.wrapped,
    cursor: { x: active.cursorX, y: active.cursorY },
    activeBuffer: active.type,
    modes: {
      applicationCursorKeys: m.applicationCursorKeysMode,
      applicationKeypad: m.applicationKeypadMode,
      bracketedPaste: m.bracketedPasteMode,
      insert: m.insertMode,
      mouseTracking: m.mouseTrackingMode,
      origin: m.originMode,
      reverseWraparound: m.reverseWraparoundMode,
      sendFocus: m.sendFocusMode,
      synchronizedOutput: m.synchronizedOutputMode,
      wraparound: m.wraparoundMode,
      // Not in xterm.js' public API: best effort from its internals.
      mouseEncoding: term._core?.coreMouseService?.activeEncoding ?? null,
      cursorHidden: term._core?.coreService?.isCursorHidden ?? null,
    },
    title: oracle.title,
    bells: oracle.bells,
    cellWidths,
  };
  if (active.type === "alternate") state.normalScreen = normal.screen;
  return state;
}

/** Feeds `bytes` to a fresh xterm.js terminal (64 KiB chunks, awaited) and reads its state. */
export async function xtermState(
  bytes: Uint8Array,
  cols: number,
  rows: number,
  scrollback = 100_000,
): Promise<XtermState> {
  const oracle = openOracle(cols, rows, scrollback);
  await feed(oracle, bytes);
  const state = readState(oracle);
  oracle.term.dispose();
  return state;
}

/**
 * The states after the first `offset` bytes for each of `offsets` (ascending), and the final
 * state, in one pass: the terminal is read at each offset and fed on, which is what a fresh
 * terminal fed that prefix shows (a split UTF-8 sequence waits in the decoder either way).
 */
export async function xtermStatesAt(
  bytes: Uint8Array,
  cols: number,
  rows: number,
  offsets: readonly number[],
  scrollback = 100_000,
): Promise<{ at: XtermState[]; final: XtermState }> {
  const oracle = openOracle(cols, rows, scrollback);
  const at: XtermState[] = [];
  let fed = 0;
  for (const offset of offsets) {
    if (offset < fed || offset > bytes.length) {
      throw new RangeError(`checkpoint offset ${offset} is out of order or past the end`);
    }
    await feed(oracle, bytes.subarray(fed, offset));
    fed = offset;
    at.push(readState(oracle));
  }
  await feed(oracle, bytes.subarray(fed));
  const final = readState(oracle);
  oracle.term.dispose();
  return { at, final };
}

/**
 * xterm.js' width of every lone code point as runs `[first, last, width]` (0 joins the cell
 * before; C0/C1 controls never reach the width lookup). Read from its private unicode service,
 * the function its input handler prints with.
 */
export function xtermWidthRanges(): [number, number, number][] {
  const { term } = openOracle(80, 24, 0);
  const wcwidth: (cp: number) => number = term._core.unicodeService.wcwidth.bind(
    term._core.unicodeService,
  );
  const ranges: [number, number, number][] = [];
  let start = 0;
  let current = wcwidth(0);
  for (let cp = 1; cp <= 0x110000; cp++) {
    const w = cp <= 0x10ffff ? wcwidth(cp) : -1;
    if (w !== current) {
      ranges.push([start, cp - 1, current]);
      start = cp;
      current = w;
    }
  }
  term.dispose();
  return ranges;
}
