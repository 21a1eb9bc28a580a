/**
 * Cell width of a code point (0, 1 or 2), Unicode 11 as xterm.js uses it.
 *
 * @module
 */
import { WIDE_RANGES, ZERO_WIDTH_RANGES } from "./width_table.ts";

// Direct lookup for planes 0–3 (BMP, emoji, CJK extensions): 256 KiB, built once at load.
const _DIRECT_LIMIT = 0x40000;
const _direct = new Uint8Array(_DIRECT_LIMIT).fill(1);
_fill(ZERO_WIDTH_RANGES, 0);
_fill(WIDE_RANGES, 2);
for (let cp = 0; cp < 0x20; cp++) _direct[cp] = 0;
for (let cp = 0x7f; cp < 0xa0; cp++) _direct[cp] = 0;

function _fill(ranges: readonly number[], width: number): void {
  for (let i = 0; i < ranges.length; i += 2) {
    const last = Math.min(ranges[i + 1], _DIRECT_LIMIT - 1);
    for (let cp = ranges[i]; cp <= last; cp++) _direct[cp] = width;
  }
}

function _inRanges(ranges: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < ranges[mid * 2]) hi = mid - 1;
    else if (cp > ranges[mid * 2 + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Number of terminal cells the code point `cp` occupies on its own: 0 for combining marks and
 * other zero-width characters (they join the preceding cell), 2 for wide (East Asian wide,
 * most emoji), otherwise 1. C0/C1 controls report 0.
 */
export function charWidth(cp: number): number {
  if (cp < _DIRECT_LIMIT) return _direct[cp];
  if (_inRanges(ZERO_WIDTH_RANGES, cp)) return 0;
  if (_inRanges(WIDE_RANGES, cp)) return 2;
  return 1;
}
