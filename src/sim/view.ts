/**
 * What a simulated agent shows: its transcript items, input box, menus and footers, rendered as
 * terminal rows per persona (each row at most `cols` cells). Pure.
 *
 * @module
 */
import { fit, pad, textWidth, wrapLine, wrapText } from "./text.ts";
import { geminiLimitLines, opencodeRetryLine, qwenRetryNotice } from "./limit.ts";
import type { PersonaName } from "./persona.ts";

/** One block of the transcript. */
export type Item =
  | { kind: "header" }
  | { kind: "user"; text: string }
  | { kind: "reply"; lines: string[] }
  | { kind: "error"; text: string }
  | { kind: "note"; text: string }
  | { kind: "raw"; rows: string[] };

/** A choice dialog shown instead of the input box. */
export interface Menu {
  /** What the menu is for (decides what a choice does). */
  purpose: "claude-limit" | "gemini-limit";
  /** The choices. */
  options: readonly string[];
  /** Index of the highlighted choice. */
  selected: number;
}

/** Everything the screen shows. */
export interface ViewState {
  persona: PersonaName;
  version: string;
  cwd: string;
  cols: number;
  rows: number;
  items: Item[];
  input: string;
  busy: boolean;
  menu: Menu | null;
  /** OpenCode: the retry attempt shown in the footer. */
  retry: number | null;
  /** Qwen: its retry countdown under the error (seconds left, attempt), or null. */
  retryCountdown?: { seconds: number; attempt: number } | null;
  /**
   * Qwen Code 0.24.4's spinner while it retries silently (`⠋ Thinking... (3s · esc to cancel)`):
   * its frame and the seconds it shows; absent: its plain busy row.
   */
  spinner?: { frame: number; seconds: number };
  /** Copilot: the frame of its waiting glyph while busy (` ◉ Working` in its footer). */
  spin?: number;
  /** A transient hint (e.g. "Press Ctrl-C again to exit"). */
  hint: string | null;
  /** Claude: the title of the rule above the box while history is recalled, e.g. "History 2/3". */
  boxTitle?: string | null;
  /** A dialog shown instead of the input box until Esc (Claude's `/help`), or null. */
  panel: readonly string[] | null;
  /** Gemini dialog reset time (SIM_RESET_AT). */
  resetAt?: string;
  /** The provider's limit text (SIM_LIMIT_TEXT) where a persona shows one (OpenCode, Copilot). */
  limitText?: string;
  /**
   * Claude: a usage warning (SIM_WARN_AFTER), drawn as 2.1.332 draws its `rate-limit-warning`
   * notice: against the right edge, right above the input box.
   */
  notice?: string | null;
}

const RESET = "\x1b[0m";
const DIM = "\x1b[2m";
const RED = "\x1b[31m";
const BOLD = "\x1b[1m";
const CURSOR = "\x1b[7m \x1b[27m";

function _styled(sgr: string, text: string, cols: number): string {
  const t = fit(text, cols);
  return sgr ? sgr + t + RESET : t;
}

// Rows of `text` behind a first-row prefix and a continuation indent.
function _prefixed(first: string, rest: string, text: string, cols: number, sgr = ""): string[] {
  const w = Math.max(1, cols - textWidth(first));
  return wrapText(text, w).map((r, i) => _styled(sgr, (i === 0 ? first : rest) + r, cols));
}

// The input box rows: prompt, text with a block cursor at its end, at most `max` rows (the tail).
function _inputRows(
  prompt: string,
  input: string,
  placeholder: string,
  width: number,
  max: number,
  indent = " ".repeat(textWidth(prompt)),
): string[] {
  if (input === "") {
    return [prompt + CURSOR + DIM + fit(placeholder, width - 1 - textWidth(prompt)) + RESET];
  }
  const w = Math.max(2, width - textWidth(prompt) - 1);
  let rows = wrapText(input, w);
  let above = 0;
  if (rows.length > max) {
    above = rows.length - (max - 1);
    rows = rows.slice(above);
  }
  const out = rows.map((r, i) => (i === 0 && above === 0 ? prompt : indent) + r);
  out[out.length - 1] += CURSOR;
  if (above) out.unshift(indent + DIM + `[… ${above} more lines above]` + RESET);
  return out;
}

function _maxInputRows(s: ViewState): number {
  return Math.max(1, Math.min(12, s.rows - 10));
}

function _sizeTag(s: ViewState): string {
  return `sim ${s.cols}x${s.rows}`;
}

function _leftRight(left: string, right: string, cols: number): string {
  const gap = cols - textWidth(left) - textWidth(right);
  if (gap < 1) return fit(left + " " + right, cols);
  return left + " ".repeat(gap) + right;
}

function _box(lines: string[], cols: number, title = ""): string[] {
  const inner = Math.max(4, cols - 2);
  const top = title
    ? "╭─── " + title + " " + "─".repeat(Math.max(0, inner - 5 - textWidth(title))) + "╮"
    : "╮".padStart(inner + 1, "─").replace(/^/, "╭");
  return [
    fit(top, cols),
    ...lines.map((l) => "│" + pad(" " + l, inner) + "│"),
    "╰" + "─".repeat(inner) + "╯",
  ];
}

/** What Claude's `/help` dialog shows (shortened), in place of the input box until Esc. */
export const CLAUDE_HELP_PANEL: readonly string[] = [
  "  Claude Code v2.1.197-sim   general   commands   custom-commands",
  "",
  "  Claude understands your codebase, makes edits with your permission, and executes commands.",
  "",
  "  Shortcuts",
  "  ! for bash mode      double tap esc to clear input      \\⏎ for newline",
  "  / for commands       @ for file paths                    ctrl + _ to undo",
  "",
  "  Esc to cancel",
];

/** Rows of one transcript item for persona `s.persona`. */
export function renderItem(s: ViewState, item: Item): string[] {
  const c = s.cols;
  if (item.kind === "raw") return item.rows.map((r) => fit(r, c));
  switch (s.persona) {
    case "claude":
      switch (item.kind) {
        case "header":
          return [
            ..._box(
              [
                "Welcome back! (simulated agent)",
                "",
                "Sonnet (sim) · no account, no network",
                s.cwd,
              ],
              Math.min(c, 100),
              `Claude Code v${s.version}`,
            ),
            "",
          ];
        case "user":
          return ["", ..._prefixed("❯ ", "  ", item.text, c)];
        case "reply":
          return ["", ..._prefixed("⏺ ", "  ", item.lines.join("\n"), c)];
        case "error":
          return wrapLine(item.text, c).map((r) => _styled(RED, r, c));
        case "note":
          return _prefixed("  ⎿  ", "     ", item.text, c, DIM);
      }
      break;
    case "gemini":
      switch (item.kind) {
        case "header":
          return [
            "",
            ` ▝▜▄     ${BOLD}Gemini CLI v${s.version}${RESET}`,
            "   ▝▜▄",
            "  ▗▟▀    Simulated agent (no account, no network)",
            " ▝▀      Plan: none",
            "",
            "",
            "Tips for getting started:",
            "1. Create GEMINI.md files to customize your interactions",
            "2. /help for more information",
            "3. Ask coding questions, edit code or run commands",
            "4. Be specific for the best results",
          ];
        case "user":
          return [
            DIM + "▄".repeat(c) + RESET,
            ..._prefixed(" > ", "   ", item.text, c),
            DIM + "▀".repeat(c) + RESET,
          ];
        case "reply":
          return ["", ..._prefixed("✦ ", "  ", item.lines.join("\n"), c)];
        case "error":
          return ["", ..._prefixed("", "", item.text, c, RED)];
        case "note":
          return _prefixed("ℹ ", "  ", item.text, c, DIM);
      }
      break;
    case "codex":
      switch (item.kind) {
        case "header":
          return [
            "",
            `  ${BOLD}>_ OpenAI Codex${RESET}${DIM} (v${s.version})${RESET}`,
            fit(`     ${s.cwd}`, c),
            "",
          ];
        case "user":
          return ["", ..._prefixed("› ", "  ", item.text, c)];
        case "reply":
          return ["", ..._prefixed("• ", "  ", item.lines.join("\n"), c)];
        case "error":
          return ["", ...wrapText(item.text, c).map((r) => _styled(RED, r, c))];
        case "note":
          return _prefixed("  └ ", "    ", item.text, c, DIM);
      }
      break;
    case "opencode":
      switch (item.kind) {
        case "header":
          return [];
        case "user":
          return ["", "  ┃", ..._prefixed("  ┃  ", "  ┃  ", item.text, c), "  ┃"];
        case "reply":
          return [
            "",
            ..._prefixed("     ", "     ", item.lines.join("\n"), c),
            "",
            `     ${DIM}▣  Build · Sim Model${RESET}`,
          ];
        case "error":
          // The turn's error in a `┃` block, then the assistant message's metadata row.
          return [
            "",
            "  ┃",
            ..._prefixed("  ┃  ", "  ┃  ", item.text, c, RED),
            "  ┃",
            "",
            `     ${DIM}▣  Build · Sim Model${RESET}`,
          ];
        case "note":
          return _prefixed("     ", "     ", item.text, c, DIM);
      }
      break;
    case "qwen":
      switch (item.kind) {
        case "header":
          return [
            "",
            `${BOLD}Qwen Code${RESET} v${s.version} (simulated agent)`,
            fit(s.cwd, c),
            "",
          ];
        // Qwen Code 0.24.4 draws its turn at column 2 (the echo, its `◆` reply, its own `✕`
        // rows); a reply's text continues at column 4.
        case "user":
          return ["", ..._prefixed("  > ", "    ", item.text, c, DIM)];
        case "reply":
          return ["", ..._prefixed("  ◆ ", "    ", item.lines.join("\n"), c)];
        case "error":
          return _prefixed("", "    ", item.text, c, RED);
        case "note":
          return _prefixed("  ● ", "    ", item.text, c, DIM);
      }
      break;
    case "copilot":
      switch (item.kind) {
        case "header":
          return [
            "",
            ` ${BOLD}GitHub Copilot${RESET} v${s.version} (simulated agent)`,
            fit(` ${s.cwd}`, c),
            "",
          ];
        case "user":
          return ["", ..._prefixed("❯ ", "  ", item.text, c)];
        case "reply":
          return ["", ..._prefixed("● ", "  ", item.lines.join("\n"), c)];
        case "error":
          return ["", ..._prefixed("", "  ", item.text, c, RED)];
        case "note":
          return _prefixed("  ", "  ", item.text, c, DIM);
      }
  }
  return [];
}

/** Rows of the live region at the bottom: busy line, input box or menu, footer. */
export function renderLive(s: ViewState): string[] {
  const c = s.cols;
  const max = _maxInputRows(s);
  const rule = DIM + "─".repeat(c) + RESET;
  switch (s.persona) {
    case "claude": {
      if (s.panel) return ["", rule, ...s.panel.map((r) => fit(r, c))];
      if (s.menu) {
        return [
          "",
          rule,
          "  What do you want to do?",
          "",
          ...s.menu.options.map((o, i) =>
            fit(`  ${i === s.menu!.selected ? "❯" : " "} ${i + 1}. ${o}`, c)
          ),
          "",
          DIM + "  Enter to confirm · Esc to cancel" + RESET,
        ];
      }
      return [
        ...(s.busy ? ["", "\x1b[38;5;174m✻ Working… (esc to interrupt)" + RESET] : []),
        s.notice ? "\x1b[33m" + _leftRight("", s.notice, c) + RESET : "",
        s.boxTitle ? DIM + `─── ${s.boxTitle} `.padEnd(c, "─") + RESET : rule,
        ..._inputRows("❯\u00a0", s.input, "", c, max, "  "),
        rule,
        DIM + _leftRight("  " + (s.hint ?? "? for shortcuts"), _sizeTag(s), c) + RESET,
      ];
    }
    case "gemini": {
      if (s.menu) {
        const body = geminiLimitLines(s.resetAt);
        const opts = s.menu.options.map((o, i) =>
          `${i === s.menu!.selected ? "●" : " "} ${i + 1}. ${o}`
        );
        return ["", ..._box([...body, ...opts, "", ""], c)];
      }
      const inner = Math.max(4, c - 4);
      const rows = _inputRows(" > ", s.input, "  Type your message or @path/to/file", inner, max);
      return [
        ...(s.busy ? ["", "⠋ Thinking... (esc to cancel, 0s)"] : []),
        "",
        "╭" + "─".repeat(c - 2) + "╮",
        ...rows.map((r) => "│" + r + " ".repeat(Math.max(0, inner - _plainWidth(r))) + "  │"),
        "╰" + "─".repeat(c - 2) + "╯",
        DIM +
        _leftRight(
          " " + fit(s.cwd, Math.floor(c / 2)),
          (s.hint ?? "no sandbox") + "   " + _sizeTag(s) + " ",
          c,
        ) + RESET,
      ];
    }
    case "codex":
      return [
        ...(s.busy ? [fit("• Working (0s • esc to interrupt)", c), ""] : []),
        ..._inputRows("› ", s.input, "Ask Codex to do anything", c, max),
        "",
        DIM + fit(`  gpt-sim default · ${s.cwd} · ${_sizeTag(s)}`, c) + RESET,
        DIM + fit(`  ${s.hint ?? "? for shortcuts"}`, c) + RESET,
      ];
    case "opencode": {
      const bar = "  ┃  ";
      const rows = _inputRows(
        bar,
        s.input,
        'Ask anything… "Fix a TODO in the codebase"',
        c,
        max,
        bar,
      );
      const footer = s.retry !== null
        ? _retryFooter("   ⬝⬝⬝⬝⬝⬝⬝⬝ " + opencodeRetryLine(s.retry, s.limitText), c)
        : [
          s.busy ? _leftRight("   ■■■■⬝⬝⬝⬝", "esc interrupt", c) : _leftRight(
            `   ${s.cwd} · ${_sizeTag(s)}`,
            s.hint ?? "tab agents  ctrl+p commands",
            c,
          ),
        ];
      return [
        "  ┃",
        ...rows,
        "  ┃",
        `  ┃  Build · ${DIM}Sim Model OpenCode Sim${RESET}`,
        "  ╹" + "▀".repeat(Math.max(0, c - 3)),
        ...footer.map((f) => fit(f, c)),
      ];
    }
    case "qwen":
    case "copilot": {
      const prompt = s.persona === "qwen" ? "> " : "❯ ";
      const countdown = s.retryCountdown;
      return [
        ...(countdown ? [fit(qwenRetryNotice(countdown.seconds, countdown.attempt), c), ""] : []),
        ...(s.busy && s.persona === "qwen" ? [fit(_qwenBusyRow(s.spinner), c), ""] : []),
        rule,
        ..._inputRows(prompt, s.input, "Type your message", c, max),
        rule,
        // Copilot CLI 1.0.102 shows its turn in the footer: ` ◉ Working esc esc edit prompt`.
        s.busy && s.persona === "copilot"
          ? _leftRight(
            ` ${COPILOT_GLYPHS[(s.spin ?? 0) % 4]} Working esc esc edit prompt`,
            _sizeTag(s) + " ",
            c,
          )
          : DIM +
            _leftRight(" " + (s.hint ?? fit(s.cwd, Math.floor(c / 2))), _sizeTag(s) + " ", c) +
            RESET,
      ];
    }
  }
}

// Copilot's waiting glyph, one frame every 90 ms.
const COPILOT_GLYPHS = ["◉", "◎", "○", "●"];

// OpenCode's retry footer: a long provider text wraps at a space onto a second row (as real
// OpenCode does at 120 columns: `… (click to expand) [retrying in` / `16s attempt #4]`), the
// interrupt hint at the right of the last row.
function _retryFooter(text: string, cols: number): string[] {
  const hint = "esc interrupt";
  if (textWidth(text) + 2 + textWidth(hint) <= cols) return [_leftRight(text, hint, cols)];
  const cut = text.lastIndexOf(" ", cols);
  const first = cut > 0 ? text.slice(0, cut) : text.slice(0, cols);
  const rest = "   " + text.slice(first.length).trimStart();
  return [first, _leftRight(rest, hint, cols)];
}

// Width of a row that may hold SGR sequences.
function _plainWidth(row: string): number {
  // deno-lint-ignore no-control-regex
  return textWidth(row.replace(/\x1b\[[0-9;]*m/g, ""));
}

/** Visible width of a rendered row (SGR sequences excluded); exported for tests. */
export const rowWidth: (row: string) => number = _plainWidth;

const _QWEN_GLYPHS = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

// Qwen's busy row: 0.24.4's turning spinner with its seconds, or the plain row.
function _qwenBusyRow(spinner: ViewState["spinner"]): string {
  if (!spinner) return "⠋ Thinking… (esc to cancel)";
  const glyph = _QWEN_GLYPHS[spinner.frame % _QWEN_GLYPHS.length];
  return `${glyph} Thinking... (${spinner.seconds}s · esc to cancel)`;
}
