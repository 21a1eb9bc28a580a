/**
 * Terminal text helpers for the simulated agents: word wrapping, fitting a line into a width,
 * with the cell widths of uuldana's own VT interpreter. Pure.
 *
 * @module
 */
import { charWidth } from "../vt/width.ts";

/** Cells a string takes on one terminal row (no escapes inside). */
export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** Cuts `s` to at most `width` cells, ending with `…` when it was cut. */
export function fit(s: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(s) <= width) return s;
  let out = "";
  let w = 0;
  for (const ch of s) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** Pads `s` with spaces to exactly `width` cells (cutting it first when longer). */
export function pad(s: string, width: number): string {
  const f = fit(s, width);
  return f + " ".repeat(Math.max(0, width - textWidth(f)));
}

/**
 * Word-wraps one logical line into rows of at most `width` cells, like the real TUIs do: breaks
 * after a space, `/` or `-` when possible, else mid-word. Tabs become spaces. Always returns at
 * least one row.
 */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(1, width);
  const chars = [...line.replaceAll("\t", "    ")];
  const rows: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let cells = 0;
    let end = start;
    while (end < chars.length) {
      const cw = charWidth(chars[end].codePointAt(0)!);
      if (cells + cw > w) break;
      cells += cw;
      end++;
    }
    if (end >= chars.length) {
      rows.push(chars.slice(start).join(""));
      break;
    }
    if (end === start) end = start + 1; // a wide char in a 1-cell width
    let cut = end;
    for (let i = end; i > start; i--) {
      const prev = chars[i - 1];
      if (prev === " " || prev === "/" || prev === "-") {
        cut = i;
        break;
      }
    }
    if (chars[end] === " ") cut = end; // the break falls exactly on a space
    rows.push(chars.slice(start, cut).join("").trimEnd());
    start = cut;
    while (start < chars.length && chars[start] === " ") start++;
  }
  return rows.length ? rows : [""];
}

/** Word-wraps multi-line text (`\n`-separated) into rows of at most `width` cells. */
export function wrapText(text: string, width: number): string[] {
  return text.split("\n").flatMap((l) => wrapLine(l, width));
}

/** Collapses whitespace runs to one space and trims: a prompt as one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The first `n` code points of `s` (never splitting a surrogate pair). */
export function firstChars(s: string, n: number): string {
  return [...s].slice(0, n).join("");
}
