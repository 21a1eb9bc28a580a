/**
 * Cell width of a code point (0, 1 or 2), Unicode 11 exactly as xterm.js uses it
 * (`@xterm/addon-unicode11` 0.9.0 with `@xterm/headless` 6.0.0). The widths are data:
 * `unicode11_widths.json`, every code point as runs `[first, last, width]`, generated from
 * xterm.js' own width function by `tools/xterm-oracle/widths.ts` (which `--check`s it, as
 * `tools/xterm-oracle/sidecar_test.ts` does).
 *
 * @module
 */
import table from "./unicode11_widths.json" with { type: "json" };

// Direct lookup for planes 0–3 (BMP, emoji, CJK extensions): 256 KiB, built once at load.
const _DIRECT_LIMIT = 0x40000;
const _direct = new Uint8Array(_DIRECT_LIMIT).fill(1);
// Runs not of width 1 above the direct table, flattened as `first, last, width` triples.
const _high: number[] = [];
for (const [first, last, width] of table.ranges) {
  if (width === 1) continue;
  if (first < _DIRECT_LIMIT) _direct.fill(width, first, Math.min(last, _DIRECT_LIMIT - 1) + 1);
  if (last >= _DIRECT_LIMIT) _high.push(Math.max(first, _DIRECT_LIMIT), last, width);
}

/**
 * Number of terminal cells the code point `cp` occupies on its own: 0 for combining marks and
 * other zero-width characters (they join the preceding cell), 2 for wide (East Asian wide,
 * most emoji), otherwise 1. C0/C1 controls report 0.
 *
 * @example
 * ```ts
 * charWidth(0x41); // 1: "A"
 * charWidth(0x6f22); // 2: "漢"
 * charWidth(0x301); // 0: a combining acute accent
 * ```
 */
export function charWidth(cp: number): number {
  if (cp < _DIRECT_LIMIT) return _direct[cp];
  let lo = 0;
  let hi = _high.length / 3 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < _high[mid * 3]) hi = mid - 1;
    else if (cp > _high[mid * 3 + 1]) lo = mid + 1;
    else return _high[mid * 3 + 2];
  }
  return 1;
}
