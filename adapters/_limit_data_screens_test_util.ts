/**
 * Draws a text of an agent's limit data (`adapters/limits/<agent>.json`) where that agent draws
 * it, inside its real screen (the frames of `_limit_screens_test_util.ts`, cut from the corpus
 * recordings): once as the agent shows it when its turn ended (idle: the input box, menu or
 * dialog waiting), once while it still works (busy: its spinner). The data-driven tests use it so
 * that a message added to the data is tested without new test code.
 *
 * @module
 */
import {
  claude332Screen,
  claudeScreen,
  codexScreen,
  copilotScreen,
  geminiDialog,
  geminiScreen,
  kiloScreen,
  OPENCODE_IDLE_FOOTER,
  opencodeScreen,
  piScreen,
  qwenScreen,
  qwenScreenAtColumn2,
} from "./_limit_screens_test_util.ts";

/** The width every screen is drawn at (the tests' `cols`). */
export const COLS = 120;

/**
 * Word-wraps `text` as a TUI does: rows of at most `width - 1` columns (never exactly full, which
 * the detectors would read as a cut mid-word), the first after `first`, the rest after `rest`; a
 * word longer than a row is cut.
 */
export function wrapText(text: string, width: number, first: string, rest: string): string[] {
  const rows: string[] = [];
  let row = first;
  let empty = true;
  const limit = width - 1;
  for (let word of text.split(" ")) {
    while ((empty ? row.length : row.length + 1) + word.length > limit) {
      if (!empty) {
        rows.push(row);
        row = rest;
        empty = true;
        continue;
      }
      const room = limit - row.length;
      rows.push(row + word.slice(0, room));
      word = word.slice(room);
      row = rest;
    }
    row += (empty ? "" : " ") + word;
    empty = false;
  }
  rows.push(row);
  return rows;
}

/**
 * The agent's state in a drawn screen: its turn ended on the text (idle: a hard message is a
 * limit there), it still works (busy: never a limit), or it retries with the text in its retry
 * notice (a hard message may be a limit there, by its kind and attempt; the others never).
 */
export type ScreenState = "idle" | "busy" | "retrying";

/** A screen to test: what it shows, and the agent's state in it. */
export interface DrawnScreen {
  /** Where and how it was drawn, for failure messages. */
  name: string;
  /** The rows. */
  rows: string[];
  /** The agent's state. */
  state: ScreenState;
}

type _Draw = (text: string) => DrawnScreen[];

const _w = wrapText;

// Claude Code's `⎿` row (2.1.332 idle and busy, 2.1.197 with its limit menu).
const _claudeRow: _Draw = (text) => {
  const row = _w(text, COLS, "  ⎿  ", "     ");
  return [
    { name: "2.1.332 idle", rows: claude332Screen(row, "idle"), state: "idle" },
    { name: "2.1.197 menu", rows: claudeScreen(row, "menu"), state: "idle" },
    { name: "2.1.332 busy", rows: claude332Screen(row, "busy"), state: "busy" },
    { name: "2.1.197 busy", rows: claudeScreen(row, "busy"), state: "busy" },
  ];
};

// Claude Code 2.1.332's footer under its input box, after a finished turn.
const _claudeFooter: _Draw = (text) => {
  const footer = _w(text, COLS, "  ⚠ ", "    ");
  const turn = ["● Done: deploy.sh takes --dry-run now."];
  return [
    { name: "2.1.332 footer", rows: claude332Screen(turn, { footer }), state: "idle" },
    {
      name: "2.1.332 footer, busy",
      rows: claude332Screen(["✢ Marinating… (4s · ↓ 10 tokens)"], {
        footer: [...footer, "  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt"],
      }),
      state: "busy",
    },
  ];
};

// Codex's `■` history cell (column 0; wrapped rows at column 0 too).
const _codexCell: _Draw = (text) => {
  const cell = _w(text, COLS, "■ ", "");
  return [
    { name: "0.171 idle", rows: codexScreen(cell), state: "idle" },
    { name: "0.171 busy", rows: codexScreen(cell, true), state: "busy" },
  ];
};

// Gemini's limit dialog (its inner width), its `✕ [API Error: …]` row, its `ℹ` notices.
const _geminiDialog: _Draw = (text) => {
  const inner = geminiDialog([""])[18].length - 4;
  const body = _w(text, inner + 1, "", "");
  return [{ name: "0.61 dialog", rows: geminiDialog(body), state: "idle" }];
};
const _geminiRow = (mark: string): _Draw => (text) => {
  const row = _w(text, COLS, `${mark} `, "  ");
  return [
    { name: "0.61 idle", rows: geminiScreen(row), state: "idle" },
    { name: "0.61 busy", rows: geminiScreen(row, true), state: "busy" },
  ];
};
// Its `ℹ` notices in the turn, also right after a limit row: it went on after that limit.
const _geminiNotice: _Draw = (text) => [
  ..._geminiRow("ℹ")(text),
  {
    name: "0.61 after a limit row",
    rows: geminiScreen([
      "✕ [API Error: You have exhausted your daily quota on this model.]",
      ..._w(text, COLS, "ℹ ", "  "),
    ]),
    state: "idle",
  },
];
// Its debug log's retry lines are never drawn; the provider's text they carry may show on its
// screen only in a reply quoting it (a `✦` row), and that never counts.
const _geminiLog: _Draw = (text) => _geminiRow("✦")(text);

// Qwen's `✕` rows, at column 0 and at column 2 (0.24.4).
const _qwenRow: _Draw = (text) => {
  const row = _w(text, COLS, "✕ ", "  ");
  const at2 = _w(text, COLS, "  ✕ ", "    ");
  return [
    { name: "idle", rows: qwenScreen(row), state: "idle" },
    { name: "0.24.4 idle (column 2)", rows: qwenScreenAtColumn2(at2), state: "idle" },
    { name: "busy", rows: qwenScreen(row, true), state: "busy" },
  ];
};

// Copilot's `✗` row.
const _copilotRow: _Draw = (text) => {
  const row = _w(text, COLS, "✗ ", "  ");
  return [
    { name: "1.0.102 idle", rows: copilotScreen(row), state: "idle" },
    { name: "1.0.102 busy", rows: copilotScreen(row, true), state: "busy" },
  ];
};

// OpenCode / Kilo: the provider's text in the turn's final `┃` error block (idle footer), and in
// the retry footer while it retries.
const _openCodeProvider = (frame: typeof opencodeScreen): _Draw => (text) => {
  const block = ["", "  ┃", ..._w(text, COLS - 6, "  ┃  ", "  ┃  "), "  ┃"];
  const footer = [`   ⬝⬝⬝⬝⬝⬝⬝⬝ ${text.slice(0, 60)} [retrying in 13s attempt #1]`];
  return [
    { name: "final error block", rows: frame(block, [OPENCODE_IDLE_FOOTER]), state: "idle" },
    { name: "retry footer", rows: frame([], footer), state: "retrying" },
  ];
};
// OpenCode's limit dialogs (not recorded; drawn from its source): a title ("Free limit reached",
// "Go limit reached") over the text.
const _openCodeDialog = (frame: typeof opencodeScreen): _Draw => (text) => {
  const title = /^Go\b/.test(text) ? "Go limit reached" : "Free limit reached";
  const box = [
    `  ┃  ${title}`.padEnd(100) + "esc",
    "  ┃",
    ..._w(text, 100, "  ┃  ", "  ┃  "),
  ];
  return [{ name: `dialog "${title}"`, rows: frame(box, [OPENCODE_IDLE_FOOTER]), state: "idle" }];
};

// pi's `Error: …` row above its input box (idle), with its "Working" spinner (busy).
const _piError: _Draw = (text) => {
  const row = _w(`Error: ${text}`, COLS, " ", " ");
  return [
    { name: "0.73 idle", rows: piScreen(row), state: "idle" },
    { name: "0.73 busy", rows: piScreen(row, "⠙ Working..."), state: "busy" },
  ];
};

/** Each agent's surfaces (as its data names them) and how to draw a text on each. */
export const SURFACES: Record<string, Record<string, _Draw>> = {
  claude: { row: _claudeRow, footer: _claudeFooter },
  codex: { cell: _codexCell },
  gemini: {
    dialog: _geminiDialog,
    error: _geminiRow("✕"),
    info: _geminiNotice,
    log: _geminiLog,
  },
  qwen: { api: _qwenRow, line: _qwenRow },
  copilot: { row: _copilotRow },
  opencode: {
    provider: _openCodeProvider(opencodeScreen),
    dialog: _openCodeDialog(opencodeScreen),
  },
  // Kilo 7.7.7's TUI has no usage dialogs.
  kilo: { provider: _openCodeProvider(kiloScreen) },
  pi: { error: _piError },
};
