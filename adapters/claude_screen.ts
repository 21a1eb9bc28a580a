/**
 * How Claude Code's screen shows a usage limit (the fallback when its hooks are off) and its input
 * box. Three places, read from the bottom up, each drawn by Claude itself, never by a model's reply
 * or a tool's output:
 *
 * - the footer under the input box (2.1.332 while it waits for its own reset: `⚠ Usage limit
 *   reached · limit resets 9:44pm` / `Continuing automatically at 9:44pm · Esc to cancel`);
 * - its limit menu in place of the input box (`1. Stop and wait for limit to reset`), opened by
 *   itself (2.1.197 after `/rate-limit-options`, 2.1.332 at a weekly limit) under the turn's
 *   limit row;
 * - the `⎿` row at column 2 that answers the latest prompt echo (`⎿  You've hit your 5-hour
 *   limit · resets 9:44pm (UTC)`), when nothing but Claude's own notices follows it (2.1.332:
 *   `● Usage limit reached · set to continue automatically at …`, `● Automatic continue
 *   cancelled · …`) and Claude is idle with its input box back.
 *
 * A screen that is busy (a spinner above the box, `esc to interrupt`) is never a limit. Pure.
 *
 * @module
 */
import type { DetectOptions, InputBox, LimitHit, LimitWarning } from "./adapter.ts";
import { CLAUDE_NOTICES, CLAUDE_WAITS_FOR_RESET } from "./limit_messages.ts";
import { limitRules, limitVetoes } from "./limit_data.ts";
import { warningIn } from "./limit_warning.ts";
import { findInputBox } from "./input_box.ts";
import {
  BUSY_ROW,
  hideDelivered,
  isRule,
  limitHit,
  matchRule,
  normalizeSpace,
  promptAbove,
  ruleHit,
} from "./screen_text.ts";

// The prompt row at column 0: the echo of a submitted turn, or the input box (`❯` and a
// no-break space in 2.1.332).
const _PROMPT = /^❯(?:\s|$)/;
// Claude opens its limit menu by running this command itself: its echo is part of the menu.
const _LIMIT_MENU_ECHO = /^❯ \/rate-limit-options\s*$/;
const _LIMIT_MENU = /^\s*(?:❯\s*)?\d\. Stop and wait for limit to reset/;
// The row above a menu: a rule (2.1.197) or a row of upper blocks (2.1.332's `▔▔▔`).
const _MENU_TOP = /^\s*(?:[─━]{8,}|▔{8,})\s*$/;
// A message header: `⏺` (macOS) or `●` (Linux); a tool call's names the tool, then `(`.
const _HEADER = /^[⏺●] /;
const _TOOL_CALL = /^[⏺●] [\w.:-]+(?: [\w.: -]*)?\(/;
// The row after a turn: "✻ Sautéed for 0s" (2.1.197), "✻ Worked for 1s · done 9:38 PM" (2.1.332).
const _TURN_TIME = /^[✻✶✳✢✽·*]\s+\S+ for \d/;
// A row drawn against the right edge above the input box ("◐ medium · /effort", "20 tokens",
// "automatic continue cancelled"): Claude's status, not the turn.
const _RIGHT_ALIGNED = /^ {20,}\S/;
// Claude 2.1.332 is busy: its spinner row ("✢ Marinating… (4s · ↓ 10 tokens)") above the box and
// `esc to interrupt` in the footer (2.1.197: in the spinner row, which BUSY_ROW catches).
const _SPINNER = /^[✻✶✳✢✽·*]\s+\S+…/;
const _INTERRUPT = /\besc to interrupt\b/i;
// The messages of its `⎿` row, and of its footer (which shows the row's wordings too).
const _ROW_RULES = limitRules("claude", "row");
const _ROW_VETOES = limitVetoes("claude", "row");
const _FOOTER_RULES = [...limitRules("claude", "footer"), ..._ROW_RULES];
const _FOOTER_VETOES = [..._ROW_VETOES, ...limitVetoes("claude", "footer")];
// The footer's own marker before a notice.
const _FOOTER_MARK = /^\s*(?:⚠\s*)?/;

const _isPrompt = (rows: readonly string[], i: number) =>
  _PROMPT.test(rows[i]) && !_LIMIT_MENU_ECHO.test(rows[i]);

/** Where Claude is idle: its limit menu, or its input box (a `❯` row under a rule). */
interface _Idle {
  /** First row of that region (the menu's top, or the rule above the box). */
  top: number;
  /** The menu is open. */
  menu: boolean;
  /** The rows under the input box (its footer); empty for the menu. */
  footer: readonly string[];
}

function _idleRegion(rows: readonly string[]): _Idle | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (_LIMIT_MENU.test(rows[i])) {
      let top = i;
      while (top > 0 && !_MENU_TOP.test(rows[top]) && !_LIMIT_MENU_ECHO.test(rows[top])) top--;
      return { top, menu: true, footer: [] };
    }
    if (_PROMPT.test(rows[i]) && i > 0 && isRule(rows[i - 1])) {
      const box = findInputBox(rows.slice(i - 1), CLAUDE_INPUT_BOX);
      const footer = box ? rows.slice(i - 1 + box.to + 1) : [];
      return { top: i - 1, menu: false, footer };
    }
  }
  return null;
}

/**
 * Claude Code's limit on the screen's logical lines, or null: see the module doc. The message is
 * the turn's limit row when it has one (it names the limit and the reset's zone), else the
 * footer's.
 */
export function detectClaudeLimit(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  const idle = _idleRegion(rows);
  if (!idle) return null;
  const echo = promptAbove(rows, idle.top, _isPrompt);
  const turn = echo < 0 ? [] : rows.slice(echo + 1, idle.top);
  if (turn.some((r) => BUSY_ROW.test(r) || _SPINNER.test(r))) return null;
  if (idle.footer.some((r) => _INTERRUPT.test(r))) return null;
  const row = echo < 0 ? null : _limitRow(rows, echo, idle.top, false);
  const footer = _footerLimit(idle.footer, row !== null);
  if (row && (footer || row.last)) return ruleHit(row.rule, row.message, opts);
  const apiError = _apiErrorBlock(turn);
  if (apiError) return ruleHit(apiError.rule, apiError.message, opts);
  if (!footer) return null;
  const shown = echo < 0 ? null : _limitRow(rows, echo, idle.top, true);
  return shown ? ruleHit(shown.rule, shown.message, opts) : limitHit("usage", footer, opts);
}

/**
 * Claude Code's usage warning on the screen's logical lines, or null. 2.1.332 draws its
 * `rate-limit-warning` notice against the right edge right above its input box (`You've used 91%
 * of your 5-hour limit · resets 9:13pm (UTC)`, seen against the mock's `allowed_warning` answer,
 * testdata/screens/claude-2.1.332-warning.txt), for some seconds; older releases drew it on a `⎿`
 * row of the turn, and a notice may sit in the footer under the box. Busy or idle alike (the
 * warning comes with the model's answer). Never a limit.
 */
export function detectClaudeWarning(
  lines: readonly string[],
  opts: DetectOptions,
): LimitWarning | null {
  const rows = hideDelivered(lines, opts.delivered);
  const box = _idleRegion(rows);
  if (!box || box.menu) return null;
  const read = (text: string, surface: string) =>
    text ? warningIn("claude", surface, normalizeSpace(text), opts.now, opts.timeZone) : null;
  for (const r of box.footer) {
    // The footer shows the row's texts too (as its limit reading has it).
    const text = r.replace(_FOOTER_MARK, "");
    const found = read(text, "footer") ?? read(text, "row");
    if (found) return found;
  }
  const echo = promptAbove(rows, box.top, _isPrompt);
  for (let at = box.top - 1; at > echo && at >= 0; at--) {
    const row = /^ {2}⎿\s+(.*)$/.exec(rows[at]);
    const found = row
      ? read(row[1], "row")
      : _RIGHT_ALIGNED.test(rows[at])
      ? read(rows[at].trim(), "row") // the notice above the box: the row's texts
      : null;
    if (found) return found;
  }
  return null;
}

// An API error Claude does not retry is the turn's only message, on a `●` row of its own, not a
// `⎿` row: `● API Error: 400 This organization has been disabled.` (2.1.332, the error matrix).
// A limit when its text is one of the row's; the prompt's continuation rows may come before it and
// only Claude's status after it, indented deeper than any message (right-aligned, or its notice
// above the input box inside tmux: `tmux focus-events off · add 'set -g focus-events on' …` at
// column 18): a reply the model wrote in those words ends with the turn-time row (`✻ Cogitated for
// 0s · done 6:13 PM`), an error does not.
function _apiErrorBlock(turn: readonly string[]): Omit<_LimitRow, "last"> | null {
  const at = turn.findIndex((r) => _HEADER.test(r));
  if (at < 0 || !/^[⏺●] API Error: /.test(turn[at])) return null;
  if (turn.slice(0, at).some((r) => r.trim() !== "" && !/^ {2}\S/.test(r))) return null;
  const parts = [turn[at].slice(2)];
  let k = at + 1;
  while (k < turn.length && /^ {2}\S/.test(turn[k]) && !/^ {2}⎿/.test(turn[k])) {
    parts.push(turn[k++]);
  }
  for (; k < turn.length; k++) {
    const r = turn[k];
    if (r.trim() !== "" && !/^ {8,}\S/.test(r)) return null;
  }
  const message = normalizeSpace(parts.join(" "));
  const rule = matchRule(message, _ROW_RULES, _ROW_VETOES);
  return rule ? { rule, message } : null;
}

/** The turn's limit row: its rule, message, and whether only Claude's notices follow it. */
interface _LimitRow {
  rule: NonNullable<ReturnType<typeof matchRule>>;
  message: string;
  last: boolean;
}

// The `⎿` limit row of the turn whose echo is at `echo`, above row `end`: the lowest `⎿` row at
// column 2 that reads as a limit and answers the turn (see _answersTurn; `anyBlock`: or hangs off
// any block of it, as under 2.1.332's collapsed "Ran 1 shell command", when the footer already
// says Claude is at its limit). `last`: nothing but blank rows, the turn-time row, right-aligned
// status and Claude's own `●` notices follow it.
function _limitRow(
  rows: readonly string[],
  echo: number,
  end: number,
  anyBlock: boolean,
): _LimitRow | null {
  for (let at = end - 1; at > echo; at--) {
    if (!/^ {2}⎿/.test(rows[at])) continue;
    const found = _readLimitRow(rows, at, end);
    if (!found) continue;
    let last = true;
    for (let k = found.stop; k < end && last; k++) last = _isTrailer(rows, k);
    if (_answersTurn(rows, echo, at) || (anyBlock && last)) {
      return { rule: found.rule, message: found.message, last };
    }
  }
  return null;
}

// The limit row at `at` and where its message ends (exclusive), or null when it is not one.
function _readLimitRow(
  rows: readonly string[],
  at: number,
  end: number,
): { rule: _LimitRow["rule"]; message: string; stop: number } | null {
  const m = /^ {2}⎿\s+(.*)$/.exec(rows[at]);
  if (!m) return null;
  // The message's continuation rows are indented 4 or more ("/upgrade to increase your usage
  // limit." under 2.1.332's limit row once its automatic continue is cancelled).
  const parts = [m[1]];
  let stop = at + 1;
  while (stop < end && /^\s{4,}\S/.test(rows[stop]) && !_RIGHT_ALIGNED.test(rows[stop])) {
    parts.push(rows[stop++]);
  }
  const message = normalizeSpace(parts.join(" "));
  const rule = matchRule(message, _ROW_RULES, _ROW_VETOES);
  return rule ? { rule, message, stop } : null;
}

// A row after the limit row that leaves it the last thing the turn shows.
function _isTrailer(rows: readonly string[], i: number): boolean {
  const r = rows[i];
  if (r.trim() === "" || _TURN_TIME.test(r) || _LIMIT_MENU_ECHO.test(r)) return true;
  if (_RIGHT_ALIGNED.test(r)) return true;
  // Claude's own notice and its continuation rows (indented 2).
  if (_HEADER.test(r)) return CLAUDE_NOTICES.test(r.slice(2));
  if (/^ {2}\S/.test(r) && !/^ {2}⎿/.test(r)) {
    for (let k = i - 1; k >= 0 && !/^\s*$/.test(rows[k]); k--) {
      if (_HEADER.test(rows[k])) return CLAUDE_NOTICES.test(rows[k].slice(2));
      if (!/^ {2}\S/.test(rows[k])) return false;
    }
  }
  return false;
}

// The `⎿` row at `at` answers the turn whose echo is at `echo`: the header above it (the first row
// not indented, over continuation rows) is the echo itself, or a `⏺`/`●` tool call (`● Bash(…`,
// `● ctx7 - resolve (MCP)(…`; a reply's first line rarely opens so) whose own `⎿` output block
// comes first (the first `⎿` under a tool call is the tool's output).
function _answersTurn(rows: readonly string[], echo: number, at: number): boolean {
  let earlierResult = false;
  for (let i = at - 1; i >= echo; i--) {
    const r = rows[i];
    if (i === echo) return true;
    if (r.trim() === "") return false;
    if (/^ {2}⎿/.test(r)) {
      earlierResult = true;
      continue;
    }
    if (/^\s{2,}\S/.test(r)) continue;
    return _TOOL_CALL.test(r) && earlierResult;
  }
  return false;
}

// The footer's limit, as one message, or null: a row that reads as a limit reached (the `⚠` row),
// or Claude saying it will continue by itself at the reset when a limit row is on screen too.
// Suggestions under the box (`/usage  Show plan usage limits`, `@src/`) are not the footer.
function _footerLimit(footer: readonly string[], limitRowShown: boolean): string | null {
  const texts = footer.map((r) => normalizeSpace(r.replace(_FOOTER_MARK, "")))
    .filter((t) => t && !/^[/@]/.test(t));
  const limit = texts.findIndex((t) => matchRule(t, _FOOTER_RULES, _FOOTER_VETOES) !== null);
  const waits = texts.findIndex((t) => CLAUDE_WAITS_FOR_RESET.test(t));
  if (limit < 0 && !(waits >= 0 && limitRowShown)) return null;
  return [limit, waits].filter((i) => i >= 0).sort((a, b) => a - b).map((i) => texts[i])
    .join(" · ");
}

/**
 * Claude Code 2.x's input box: between two full-width rules, `❯` and a no-break space before the
 * first row and two spaces before the others; `Try "…"` while empty (2.1.197), or after an error a
 * hint (2.1.332: `Once fixed, resend your message`); a long paste collapsed to
 * `[Pasted text #1 +40 lines]`. `\` then Enter is its newline where Shift+Enter cannot be told
 * apart (tmux). Its built-in slash commands run locally and never reach the model. Under it, the
 * footer (mode, hints, 2.1.332's limit notice) and suggestions.
 */
export const CLAUDE_INPUT_BOX: InputBox = {
  prompt: "❯ ",
  continuation: "  ",
  // While Up recalls history the rule above is titled: `─── History 18/18 ───…`.
  above: /^─{3,}(?: [^─]+ ─+)?\s*$/,
  below: /^─{8,}\s*$/,
  sideBorders: false,
  // The footer, a notice, and the @-path or slash-command suggestions under the box.
  maxRowsBelow: 12,
  placeholders: [
    /^Try "[^"]*"\s*$/,
    // 2.1.332 after a failed turn (from its bundled source).
    /^(?:Once fixed, resend your message|Resend your message to try again|Run \/rewind to go back)\s*$/,
  ],
  collapsedPaste: /\[Pasted text #\d+(?: \+\d+ lines)?\]/g,
  // From its bundled source: over 800 characters or more than min(rows - 10, 2) newlines.
  collapseAbove: { chars: 800, newlines: 2 },
  backslashEnter: true,
  trimsSubmission: true,
  localCommands: [
    "/help",
    "/clear",
    "/config",
    "/cost",
    "/usage",
    "/status",
    "/context",
    "/doctor",
    "/model",
    "/permissions",
    "/memory",
    "/agents",
    "/mcp",
    "/hooks",
    "/ide",
    "/theme",
    "/vim",
    "/terminal-setup",
    "/release-notes",
    "/resume",
    "/rewind",
    "/export",
    "/add-dir",
    "/login",
    "/logout",
    "/rate-limit-options",
    "/exit",
    "/quit",
  ],
};

/**
 * Rows Claude draws about itself above its input box, never the model's words (found in the real
 * 2.1.332 and 2.1.197 runs of `tools/real-agents/check_claude_capture.sh`, where a handoff carried
 * them as `Agent:` entries): the row after a turn (`✻ Crunched for 0s · done 2:21 AM`, 2.1.197
 * `✻ Worked for 3s`), its spinner while it works (`✢ Marinating… (4s · ↓ 10 tokens)`, `* Booping…
 * (running Stop hook · 0s)`), the tip under the spinner (`⎿  Tip: …`), the notice after Esc
 * (`⎿  Interrupted · What should Claude do instead?`), `Waiting for permission…`, and its effort
 * level drawn against the right edge (`◐ medium · /effort`). Claude starts the model's text at `●`
 * or two spaces in, never with one of these at column 0. The run's screen lines keep them.
 */
export const CLAUDE_CHROME_ROWS: readonly RegExp[] = [
  _TURN_TIME,
  _SPINNER,
  /^\s*⎿\s+(?:Tip: |Interrupted\b)/,
  /^\s*Waiting for permission…\s*$/,
  /^\s*[◐◑◒◓○●◔◕]\s+(?:low|medium|high|max|xhigh)\s+·\s+\/effort\s*$/,
];
