/**
 * Test screens for the limit detectors, built from the agents' real recordings (the corpus,
 * reached through `tests/_paths.ts`): each agent's own frame (header, prompt echo, input box or
 * menu, footer) around the rows a test puts where that agent draws a limit — or a quote of one.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CORPUS_DIR } from "../tests/_paths.ts";

const _CORPUS = AGENT_CORPUS_DIR;

interface _Recording {
  oracle: { screen: string[] };
  checkpoints: { offset: number; screen: string[] }[];
}

function _recording(name: string): _Recording {
  return JSON.parse(readFileSync(join(_CORPUS, `${name}.json`), "utf8"));
}

/** The final screen of corpus recording `name` (rows trimmed on the right). */
export function finalScreen(name: string): string[] {
  return _recording(name).oracle.screen.map((r) => r.trimEnd());
}

/** The screen of recording `name` at checkpoint `offset`. */
export function checkpointScreen(name: string, offset: number): string[] {
  const cp = _recording(name).checkpoints.find((c) => c.offset === offset);
  if (!cp) throw new Error(`${name}: no checkpoint at ${offset}`);
  return cp.screen.map((r) => r.trimEnd());
}

const _blankless = (rows: string[]) => rows.filter((r, i) => r !== "" || rows[i - 1] !== "");

/**
 * Claude Code 2.1.197: its header, the prompt echo `❯ hello from handoff` and then `turn` (the rows
 * that answer it), ending in `idle`: "menu" (the limit recording's `/rate-limit-options` menu),
 * "input" (the input box of the not-logged-in recording) or "busy" (its spinner, no input box).
 */
export function claudeScreen(turn: string[], idle: "menu" | "input" | "busy" = "input"): string[] {
  const limit = finalScreen("claude-limit-session");
  const login = finalScreen("claude-seeded-notloggedin");
  const tail = idle === "menu"
    ? limit.slice(15, 27)
    : idle === "input"
    ? login.slice(15, 22)
    : ["", "✻ Sautéing… (esc to interrupt)"];
  return _blankless([...limit.slice(0, 14), ...turn, ...tail]);
}

/** How Claude Code 2.1.332's screen ends under the turn (see {@linkcode claude332Screen}). */
export type Claude332Tail = "waiting" | "idle" | "busy" | "menu" | { footer: string[] };

/**
 * Claude Code 2.1.332 (from its recordings): its banner, the echo `❯ add a --dry-run flag to
 * deploy.sh` (none when `echo` is false: scrolled away), then `turn`, then, at the bottom of its
 * full-screen frame: "waiting" (the input box and the limit recording's footer: `⚠ Usage limit
 * reached · limit resets 1:15am` / `Continuing automatically at 1:15am · Esc to cancel`), "idle"
 * (the box and the startup's footer), "busy" (a spinner row above the box, `esc to interrupt` in
 * the footer), "menu" (the weekly recording's menu) or the box with `footer` rows under it.
 */
export function claude332Screen(
  turn: string[],
  tail: Claude332Tail = "idle",
  echo = true,
): string[] {
  const limit = finalScreen("claude-2.1.332-limit");
  const startup = finalScreen("claude-2.1.332-startup");
  const head = [...limit.slice(0, 10), ...(echo ? [limit[10]] : []), ...turn];
  const box = limit.slice(34, 37);
  const bottom = tail === "waiting"
    ? [...box, ...limit.slice(37, 40)]
    : tail === "idle"
    ? [startup[35], ...box, startup[39]]
    : tail === "busy"
    ? [
      "✢ Marinating… (4s · ↓ 10 tokens)",
      "",
      ...box,
      "  ⏵⏵ auto mode on (shift+tab to cycle) · esc to interrupt",
    ]
    : tail === "menu"
    ? finalScreen("claude-2.1.332-limit-weekly").slice(32, 40)
    : [...box, ...tail.footer];
  const fill = Array.from({ length: Math.max(1, 40 - head.length - bottom.length) }, () => "");
  return [...head, ...fill, ...bottom];
}

/**
 * Codex CLI 0.171: the limit recording's screen with `turn` where its `■` message was, below the
 * echo `› hello from handoff`; `busy` adds its "Working" row above the composer.
 */
export function codexScreen(turn: string[], busy = false): string[] {
  const s = checkpointScreen("codex-limit", 7522);
  return [
    ...s.slice(0, 7),
    ...turn,
    ...(busy ? ["• Working (3s • esc to interrupt)"] : []),
    ...s.slice(35),
  ];
}

/** Gemini CLI 0.61: its quota dialog with `body` as the dialog's text. */
export function geminiDialog(body: string[]): string[] {
  const s = finalScreen("gemini-limit-quota-dialog");
  const width = s[17].length;
  const boxed = body.map((b) => `│ ${b}`.padEnd(width - 1) + "│");
  return [...s.slice(0, 18), ...boxed, ...s.slice(20)];
}

/**
 * Gemini CLI 0.61: header, the echo band ` > hello from handoff`, then `turn`, then its idle input
 * band and footer (from the capacity recording), or its spinner when `busy`.
 */
export function geminiScreen(turn: string[], busy = false): string[] {
  const limit = finalScreen("gemini-limit-quota-dialog");
  const idle = checkpointScreen("gemini-capacity-silent-retry", 6725);
  return [
    ...limit.slice(0, 15),
    ...turn,
    "",
    ...(busy ? ["⠙ Thinking... (esc to cancel, 26s)", ""] : []),
    ...idle.slice(14, 22),
  ];
}

/**
 * OpenCode 1.18: the retry recording's screen (user block `┃ say hello`, the `▣` row, the input
 * box) with `transcript` after the `▣` row and `footer` as the rows under the input box.
 */
export function opencodeScreen(transcript: string[], footer: string[]): string[] {
  const s = finalScreen("opencode-mock-429-retry");
  return [...s.slice(0, 6), ...transcript, "", ...s.slice(33, 38), ...footer];
}

/** OpenCode's idle footer (from the imported-session recording). */
export const OPENCODE_IDLE_FOOTER: string = finalScreen("opencode-imported-session")[38];

/** Kilo 7.7.7: the OpenCode session frame with Kilo's own input-box model row. */
export function kiloScreen(transcript: string[], footer: string[]): string[] {
  const model = finalScreen("kilo-startup")[19].trim();
  return opencodeScreen(transcript, footer).map((r) =>
    r.startsWith("  ┃  Build · ") ? `  ${model}` : r
  );
}

const _RULE = "─".repeat(120);

// A turn between an agent's recorded notices and an input box drawn between rules.
function _ruledTurn(
  notices: string[],
  prompt: string,
  turn: string[],
  busy: string | null,
  status: string,
): string[] {
  return [
    ...notices,
    "",
    `${prompt}hello from handoff`,
    "",
    ...turn,
    "",
    ...(busy ? [busy, ""] : []),
    _RULE,
    prompt,
    _RULE,
    status,
  ];
}

/**
 * GitHub Copilot CLI 1.0.102: its banner and notices, the echo `❯ hello from handoff`, `turn`, and
 * an input box between rules (as its trust dialog is drawn; the idle prompt is not recorded).
 */
export function copilotScreen(turn: string[], busy = false): string[] {
  return _ruledTurn(
    finalScreen("copilot-startup").slice(0, 12),
    "❯ ",
    turn,
    busy ? "◐ Thinking (Esc to cancel)" : null,
    " ~/proj2".padEnd(100) + "claude-sonnet-4.5",
  );
}

/** Qwen Code 0.24.4: its notices, the echo `> hello from handoff`, `turn`, its input box. */
export function qwenScreen(turn: string[], busy = false): string[] {
  return _ruledTurn(
    finalScreen("qwen-startup").slice(0, 5),
    "> ",
    turn,
    busy ? "⠋ Thinking… (esc to cancel, 12s)" : null,
    " ~/proj2".padEnd(100) + "qwen3-coder-plus",
  );
}

/**
 * Qwen Code 0.24.4 as the real-agent matrix showed it (issue 17): the same screen with its turn
 * drawn at column 2, the echo `  > hello from handoff` included.
 */
export function qwenScreenAtColumn2(turn: string[], busy = false): string[] {
  return qwenScreen(turn, busy).map((r) => (r === "> hello from handoff" ? `  ${r}` : r));
}

/**
 * pi 0.73.1 (its quota recording): header, the echo ` hello from handoff`, then `turn` (rows at
 * column 1, as pi draws replies and its own `Error:` rows), then `status` (its spinner row:
 * `⠴ Retrying (1/3) in 2s... (escape to cancel)` or `⠙ Working...`) and its input box between
 * two rules with the folder and model footer.
 */
export function piScreen(turn: string[], status: string | null = null): string[] {
  const s = finalScreen("pi-limit-quota");
  return [
    ...s.slice(0, 9),
    " hello from handoff",
    "",
    "",
    ...turn,
    "",
    ...(status ? [` ${status}`, ""] : []),
    ...s.slice(33, 38),
  ];
}
