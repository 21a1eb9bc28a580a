/**
 * Terminal queries found in an agent's output, and the replies a terminal would send.
 *
 * @module
 */
import type { Modes } from "./modes.ts";

/** A query the program asked its terminal (seen while parsing its output). */
export type Query =
  /** Primary device attributes, `CSI c`. */
  | { kind: "DA1" }
  /** Secondary device attributes, `CSI > c`. */
  | { kind: "DA2" }
  /** Device status report, `CSI 5 n`. */
  | { kind: "DSR" }
  /** Cursor position report, `CSI 6 n` (or `CSI ? 6 n` when `private`). */
  | { kind: "CPR"; private: boolean }
  /** Request mode, `CSI ? Ps $ p` (`private`) or `CSI Ps $ p`. */
  | { kind: "DECRQM"; mode: number; private: boolean }
  /** Terminal name and version, `CSI > q`. */
  | { kind: "XTVERSION" }
  /** Kitty keyboard protocol flags, `CSI ? u`. */
  | { kind: "KITTY_FLAGS" }
  /** Dynamic colour query, `OSC 10 ; ?` (foreground), 11 (background) or 12 (cursor). */
  | { kind: "OSC_COLOR"; osc: 10 | 11 | 12; terminator: "BEL" | "ST" }
  /** Request status string, `DCS $ q Pt ST`. */
  | { kind: "DECRQSS"; setting: string };

/** What a reply may depend on: the cursor and modes at the time of the query. */
export interface ReplyState {
  /** 0-based cursor position. */
  cursor: { x: number; y: number };
  /** Current modes. */
  modes: Readonly<Modes>;
}

const _encoder = new TextEncoder();

/**
 * The bytes an xterm-compatible terminal would answer to `query`, or null when it would not
 * answer. Pure: whether the answer is actually sent is decided by the caller.
 */
export function replyTo(query: Query, state: ReplyState): Uint8Array | null {
  const text = _replyText(query, state);
  return text === null ? null : _encoder.encode(text);
}

function _replyText(query: Query, state: ReplyState): string | null {
  switch (query.kind) {
    case "DA1":
      return "\x1b[?1;2c";
    case "DA2":
      return "\x1b[>0;276;0c";
    case "DSR":
      return "\x1b[0n";
    case "CPR":
      return `\x1b[${query.private ? "?" : ""}${state.cursor.y + 1};${state.cursor.x + 1}R`;
    case "DECRQM": {
      const value = query.private
        ? _privateModeValue(query.mode, state.modes)
        : _ansiModeValue(query.mode, state.modes);
      return `\x1b[${query.private ? "?" : ""}${query.mode};${value}$y`;
    }
    case "XTVERSION":
      return "\x1bP>|uuldana\x1b\\";
    case "KITTY_FLAGS": {
      const stack = state.modes.kittyKeyboardFlags;
      return `\x1b[?${stack.length ? stack[stack.length - 1] : 0}u`;
    }
    case "OSC_COLOR": {
      const color = query.osc === 11 ? "rgb:0000/0000/0000" : "rgb:ffff/ffff/ffff";
      return `\x1b]${query.osc};${color}${query.terminator === "BEL" ? "\x07" : "\x1b\\"}`;
    }
    case "DECRQSS":
      if (query.setting === "m") return "\x1bP1$r0m\x1b\\";
      return "\x1bP0$r\x1b\\";
  }
}

// DECRPM values: 0 not recognized, 1 set, 2 reset, 3 permanently set, 4 permanently reset.
function _ansiModeValue(mode: number, modes: Readonly<Modes>): number {
  if (mode === 4) return modes.insert ? 1 : 2;
  if (mode === 2) return 4;
  if (mode === 12) return 3;
  if (mode === 20) return 2;
  return 0;
}

function _privateModeValue(mode: number, m: Readonly<Modes>): number {
  const b = (v: boolean) => v ? 1 : 2;
  switch (mode) {
    case 1:
      return b(m.applicationCursorKeys);
    case 6:
      return b(m.origin);
    case 7:
      return b(m.wraparound);
    case 8:
      return 3;
    case 9:
      return b(m.mouseTracking === "x10");
    case 25:
      return b(!m.cursorHidden);
    case 45:
      return b(m.reverseWraparound);
    case 66:
      return b(m.applicationKeypad);
    case 67:
    case 1005:
    case 1015:
      return 4;
    case 1000:
      return b(m.mouseTracking === "vt200");
    case 1002:
      return b(m.mouseTracking === "drag");
    case 1003:
      return b(m.mouseTracking === "any");
    case 1004:
      return b(m.sendFocus);
    case 1006:
      return b(m.mouseEncoding === "SGR");
    case 1016:
      return b(m.mouseEncoding === "SGR_PIXELS");
    case 1048:
      return 1;
    case 47:
    case 1047:
    case 1049:
      return b(m.altScreen);
    case 2004:
      return b(m.bracketedPaste);
    case 2026:
      return b(m.synchronizedOutput);
    default:
      return 0;
  }
}
