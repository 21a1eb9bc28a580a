/**
 * Limit detection for OpenCode and its forks (Kilo): the retry footer below the input box
 * (`<provider text>[ (click to expand)] [retrying in 13s attempt #1]`, however it wraps), the final
 * `┃` error block the turn ends with once they stop retrying, and the "Free/Go limit reached"
 * dialogs. Pure.
 *
 * @module
 */
import type { DetectOptions, LimitHit } from "./adapter.ts";
import { OPENCODE_DIALOG_TITLES } from "./limit_messages.ts";
import { type SurfaceRules, surfaceRules, surfaces } from "./limit_data.ts";
import { parseDuration } from "./reset_time.ts";
import { hideDelivered, matchRule, normalizeSpace, ruleHit, stripBorders } from "./screen_text.ts";

// `[retrying in 13s attempt #1]`; at 120 columns real OpenCode 1.18.33 and Kilo 7.7.7 break it
// over two rows and lose the end of `attempt`: `[retrying attemp` / `#1]`, `[retrying in 1s` / `#1]`.
const _RETRY = /\[retrying(?: in (.+?))?(?: a(?:t(?:t(?:e(?:m(?:p(?:t)?)?)?)?)?)?)? ?#(\d+)\]/;
// Their progress bar is drawn over the footer's first cells, spaces of the text included.
const _BAR_CELLS = /[■⬝]/g;
// The input box's bottom edge; the footer is below it, the transcript above its `┃` rows.
const _BOX_BOTTOM = /^\s*╹▀/;
const _BAR = /^\s*┃/;
// The assistant message's metadata row ("▣  Build · Mock Model · 1.2s").
const _META = /^\s*▣\s/;
// The footer's right-hand hint, on whichever row it lands.
const _HINT = /\s{2,}(?:esc interrupt|tab agents\s+ctrl\+p commands)\s*$/;
// The busy footer: a progress bar of `■`/`⬝` cells.
const _BUSY = /^\s*[■⬝]{4,}(?:\s|$)/;

/** The detector for OpenCode, or a fork (`agent`) with its own limit data. */
export function openCodeDetector(
  agent = "opencode",
): (lines: readonly string[], opts: DetectOptions) => LimitHit | null {
  const provider = surfaceRules(agent, "provider");
  // Kilo 7.7.7's TUI has no usage dialogs (its web console does); OpenCode's has two.
  const dialog = surfaces(agent).includes("dialog") ? surfaceRules(agent, "dialog") : null;
  return (lines, opts) => {
    const rows = hideDelivered(lines, opts.delivered);
    let box = -1;
    for (let i = rows.length - 1; i >= 0 && box < 0; i--) if (_BOX_BOTTOM.test(rows[i])) box = i;
    const footer = box < 0 ? [] : rows.slice(box + 1).filter((r) => r.trim() !== "");
    return _retryFooter(footer, provider, opts) ??
      (dialog ? _dialog(rows, dialog, opts) : null) ??
      (box >= 0 && !footer.some((r) => _BUSY.test(r))
        ? _errorBlock(rows, box, provider, opts)
        : null);
  };
}

// The footer rows joined (it wraps at 120 columns: `… (click to expand) [retrying in` / `…]`).
function _retryFooter(
  footer: readonly string[],
  messages: SurfaceRules,
  opts: DetectOptions,
): LimitHit | null {
  const joined = normalizeSpace(footer.map((r) => r.replace(_HINT, "")).join(" "));
  const retry = _RETRY.exec(joined);
  if (!retry) return null;
  const before = normalizeSpace(joined.slice(0, retry.index).replace(_BAR_CELLS, " "))
    .replace(/^[^\p{L}\p{N}]+/u, "")
    .replace(/\s*\(click to expand\)\s*$/, "");
  const rule = matchRule(before, messages.rules, messages.vetoes);
  if (!rule) return null;
  // OpenCode draws `[retrying in 2s attempt #3]` while it counts down and `[retrying attempt #3]`
  // (no `in`) once the countdown is over and the request is out: a wait of 0, it is working.
  const wait = retry[1] ? parseDuration(retry[1]) : 0;
  return {
    ...ruleHit(rule, before, opts),
    message: normalizeSpace(`${before} ${retry[0]}`),
    attempt: Number(retry[2]),
    ...(wait !== null ? { waitSeconds: wait } : {}),
  };
}

// A "Free limit reached" / "Go limit reached" dialog: its text within a few rows of its title.
function _dialog(
  rows: readonly string[],
  messages: SurfaceRules,
  opts: DetectOptions,
): LimitHit | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (!OPENCODE_DIALOG_TITLES.test(normalizeSpace(stripBorders(rows[i])))) continue;
    const text = normalizeSpace(rows.slice(i + 1, i + 8).map(stripBorders).join(" "));
    const rule = matchRule(text, messages.rules, messages.vetoes);
    if (rule) return ruleHit(rule, text.slice(text.search(rule.re)), opts);
  }
  return null;
}

// The turn's final `┃` block next to the assistant's `▣` row, right above the input box: the
// error the turn ended with once retrying stopped.
function _errorBlock(
  rows: readonly string[],
  box: number,
  messages: SurfaceRules,
  opts: DetectOptions,
): LimitHit | null {
  let i = box - 1;
  while (i >= 0 && _BAR.test(rows[i])) i--; // the input box's own `┃` rows
  let meta = false;
  for (; i >= 0 && (rows[i].trim() === "" || _META.test(rows[i])); i--) {
    if (_META.test(rows[i])) meta = true;
  }
  const end = i + 1;
  while (i >= 0 && _BAR.test(rows[i])) i--;
  if (i + 1 === end) return null;
  let above = i;
  while (above >= 0 && rows[above].trim() === "") above--;
  if (!meta && !(above >= 0 && _META.test(rows[above]))) return null;
  const text = normalizeSpace(rows.slice(i + 1, end).map((r) => r.replace(_BAR, "")).join(" "));
  const rule = matchRule(text, messages.rules, messages.vetoes);
  return rule ? ruleHit(rule, text, opts, { final: true }) : null;
}
