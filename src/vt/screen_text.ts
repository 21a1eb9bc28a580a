/**
 * Reading a screen as text: its rows, its logical lines (soft-wrapped rows joined), and the last
 * lines with text from the scrollback and the screen. A logical line is joined from at most
 * {@link MAX_JOINED_ROWS} rows and {@link MAX_JOINED_CELLS} cells; a longer one keeps its end,
 * after a "…", so reading the screen during a flood makes no MB strings.
 *
 * @module
 */
import type { Line } from "./line.ts";
import type { Screen } from "./screen.ts";

/** Most rows of one logical line joined. */
export const MAX_JOINED_ROWS = 50;
/** Most cells of one logical line joined (50 rows of 240 columns; 30 rows at 400 columns). */
export const MAX_JOINED_CELLS = 12_000;

/** Visible rows of the buffer shown, trailing spaces stripped. */
export function screenLines(screen: Screen): string[] {
  return screen.buf.lines.map((l) => l.text());
}

/** Visible rows with soft-wrap continuations joined into one line each (bounded, see above). */
export function logicalScreenLines(screen: Screen): string[] {
  const out: string[] = [];
  const lines = screen.buf.lines;
  const most = _joinedRows(screen.cols);
  let start = 0;
  for (let y = 1; y <= lines.length; y++) {
    if (y < lines.length && lines[y].wrapped) continue;
    const from = Math.max(start, y - most);
    out.push((from > start ? "…" : "") + _joinRows(lines, from, y));
    start = y;
  }
  return out;
}

/**
 * The last `n` logical lines that have text (not empty after stripping trailing spaces),
 * oldest first, from the normal scrollback followed by the visible screen (bounded, see above).
 */
export function lastLines(screen: Screen, n: number): string[] {
  const sb = screen.normal.scrollback;
  const rowsShown = screen.buf.lines;
  const sbLength = sb?.length ?? 0;
  const total = sbLength + rowsShown.length;
  const at = (i: number): Line => i < sbLength ? sb!.get(i) : rowsShown[i - sbLength];
  const most = _joinedRows(screen.cols);
  const out: string[] = [];
  let i = total - 1;
  while (i >= 0 && out.length < n) {
    // one logical line: rows start..i, where rows start+1..i are continuations
    let start = i;
    while (start > 0 && at(start).wrapped) start--;
    // A logical line longer than that (a soft-wrapped flood) keeps its end.
    const from = Math.max(start, i - most + 1);
    const rows: Line[] = [];
    for (let k = from; k <= i; k++) rows.push(at(k));
    const text = (from > start ? "…" : "") + _joinRows(rows, 0, rows.length);
    if (text.trim() !== "") out.push(text);
    i = start - 1;
  }
  return out.reverse();
}

/** How many rows of one logical line are joined at most, at `cols` columns. */
function _joinedRows(cols: number): number {
  return Math.max(1, Math.min(MAX_JOINED_ROWS, Math.floor(MAX_JOINED_CELLS / cols)));
}

/** Text of rows [start, end) joined: all but the last row untrimmed, trailing spaces stripped. */
function _joinRows(lines: Line[], start: number, end: number): string {
  let text = "";
  for (let k = start; k < end; k++) {
    const line = lines[k];
    text += k < end - 1 ? line.text(false, line.cells.length) : line.text();
  }
  let n = text.length;
  while (n > 0 && text.charCodeAt(n - 1) === 0x20) n--;
  return text.slice(0, n);
}
