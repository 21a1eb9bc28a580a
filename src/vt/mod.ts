/**
 * uuldana's VT interpreter: a pure xterm-compatible terminal emulator (bytes in, screen,
 * scrollback, modes and title out), the replies to terminal queries, and the sequence that
 * restores a user's terminal.
 *
 * @module
 */
export { Terminal, type TerminalOptions, type TerminalSnapshot } from "./terminal.ts";
export type { TerminalState } from "./terminal_state.ts";
export {
  copyModes,
  defaultModes,
  type ModeChange,
  type ModeName,
  type Modes,
  type MouseEncoding,
  type MouseTracking,
  ORACLE_MODE_KEYS,
} from "./modes.ts";
export { type Query, type ReplyState, replyTo } from "./query.ts";
export { restoreSequence } from "./restore.ts";
export { charWidth } from "./width.ts";
export { MAX_COLS, MAX_ROWS, MAX_SCROLLBACK } from "./limits.ts";
