/**
 * Test-only harness around `@xterm/headless` 6 + `@xterm/addon-unicode11`, the reference the
 * corpus was made with. Never import this from non-test code.
 *
 * @module
 */
import { Terminal as XtermTerminal } from "@xterm/headless/lib-headless/xterm-headless.mjs";
import { Unicode11Addon } from "@xterm/addon-unicode11/lib/addon-unicode11.mjs";

/** xterm.js' final state in the shape of `TerminalSnapshot` (without `bells`). */
export interface XtermState {
  screen: string[];
  scrollback: string[];
  wrappedRows: number[];
  cursor: { x: number; y: number };
  activeBuffer: "normal" | "alternate";
  modes: Record<string, unknown>;
  title: string | null;
  cellWidths: Record<string, string>;
  normalScreen?: string[];
}

/** Feeds `bytes` to a fresh xterm.js terminal (64 KiB chunks, awaited) and reads its state. */
export async function xtermState(
  bytes: Uint8Array,
  cols: number,
  rows: number,
  scrollback = 100_000,
): Promise<XtermState> {
  // deno-lint-ignore no-explicit-any
  const term: any = new XtermTerminal({
    cols,
    rows,
    scrollback,
    allowProposedApi: true,
    logLevel: "off",
  });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = "11";
  let title: string | null = null;
  term.onTitleChange((t: string) => (title = t));
  const write = (d: Uint8Array | string) => new Promise<void>((r) => term.write(d, r));
  for (let i = 0; i < bytes.length; i += 65536) await write(bytes.subarray(i, i + 65536));
  await write("");
  // deno-lint-ignore no-explicit-any
  const dump = (buf: any) => {
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
  };
  const active = term.buffer.active;
  const normal = dump(term.buffer.normal);
  const main = active.type === "normal" ? normal : dump(active);
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
      mouseEncoding: term._core?.coreMouseService?.activeEncoding ?? null,
      cursorHidden: term._core?.coreService?.isCursorHidden ?? null,
    },
    title,
    cellWidths,
  };
  if (active.type === "alternate") state.normalScreen = normal.screen;
  term.dispose();
  return state;
}
