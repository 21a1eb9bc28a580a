/**
 * The largest terminal the VT interpreter models. Memory is cells × 4 bytes per screen buffer
 * plus scrollback lines × columns × 4 bytes, so an absurd size (100000x100000 is 40 GB) is
 * refused by `debug screen` and clamped wherever a size enters the interpreter (a resize from
 * the user's terminal included). `uuldana run --cols/--rows` accept the same range.
 *
 * @module
 */

/** Most columns the interpreter models. */
export const MAX_COLS = 1000;
/** Most rows the interpreter models. */
export const MAX_ROWS = 1000;
/** Most scrollback lines a terminal keeps. */
export const MAX_SCROLLBACK = 100_000;
