/**
 * Gemini CLI (`gemini`): prompt road (`-i`), paste road. Limits show in a rounded dialog box
 * ("Usage limit reached for … / Access resets at …" then `● 1. Keep trying`) or as a `✕ [API Error:`
 * line; capacity errors retry silently (stall rule, `busyPattern`).
 *
 * @module
 */
import type { Adapter, DetectOptions, InputBox, LimitHit, Road } from "./adapter.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import { limitRules, limitVetoes } from "./limit_data.ts";
import {
  anyShown,
  hideDelivered,
  idleInputBelow,
  isBoxEdge,
  isRule,
  joinRows,
  limitHit,
  type LimitRule,
  matchRule,
  normalizeSpace,
  promptAbove,
  stripBorders,
} from "./screen_text.ts";
import { ESC_TO_CANCEL_SPINNER } from "./stall.ts";
import { GEMINI_DEBUG_LOG } from "./channels/gemini_log.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-r", "--resume", "--session-file"];

/**
 * Cuts a joined dialog paragraph to the limit sentence and, when it follows, the reset sentence.
 */
export function cutLimitSentences(joined: string, start: number): string {
  const s = joined.slice(start);
  const reset = /(?:resets? at|reset after|reset in)\s.*?\.(?=\s|$)/i.exec(s);
  if (reset) return s.slice(0, reset.index + reset[0].length);
  const end = /\.(?=\s|$)/.exec(s);
  return end ? s.slice(0, end.index + 1) : s;
}

// The selected option of a dialog's choice list (`● 1. Keep trying`): what makes a box a dialog
// rather than a tool's output box, which may show any text.
const _SELECTED_OPTION = /^\s*●\s*\d+\.\s/;

/**
 * Finds a limit in a bordered dialog (rows between a `╭─`/`┌─` and a `╰─`/`└─` edge that offer a
 * choice, `● 1. …`): the box's paragraphs, borders stripped and rows re-joined, matched against
 * `rules`; a paragraph `vetoes` match is not a limit.
 */
export function detectInDialogs(
  rows: readonly string[],
  rules: readonly LimitRule[],
  opts: DetectOptions,
  isPrompt: PromptTest = isGeminiPrompt,
  vetoes: readonly RegExp[] = [],
): LimitHit | null {
  for (let end = rows.length - 1; end >= 0; end--) {
    if (!isBoxEdge(rows[end], "bottom")) continue;
    let top = end - 1;
    while (top >= 0 && !isBoxEdge(rows[top], "top")) top--;
    if (top < 0) break;
    const inner = rows.slice(top + 1, end).map(stripBorders);
    if (!inner.some((r) => _SELECTED_OPTION.test(r))) {
      end = top;
      continue;
    }
    // The dialog replaces the input box; a prompt row below it is a turn submitted after it.
    for (let i = end + 1; i < rows.length; i++) if (isPrompt(rows, i)) return null;
    let para: string[] = [];
    const paragraphs: string[][] = [];
    for (const r of [...inner, ""]) {
      if (r.trim() === "") {
        if (para.length) paragraphs.push(para);
        para = [];
      } else para.push(r);
    }
    for (const p of paragraphs) {
      const joined = normalizeSpace(joinRows(p));
      const rule = matchRule(joined, rules, vetoes);
      if (!rule) continue;
      const message = cutLimitSentences(joined, joined.search(rule.re));
      return limitHit(rule.kind, message, opts, rule.final ? { final: true } : {});
    }
    end = top;
  }
  return null;
}

/** Tells whether row `i` is the agent's prompt (an echo of a submitted turn or its input box). */
export type PromptTest = (rows: readonly string[], i: number) => boolean;

/**
 * Gemini's prompt rows, the echo of a turn and the input box alike: ` > ` under a `▄▄▄` band, a
 * rule or a box's top edge.
 */
export const isGeminiPrompt: PromptTest = (rows, i) =>
  i > 0 && /^\s?>\s/.test(stripBorders(rows[i])) &&
  (/^\s*▄{8,}/.test(rows[i - 1]) || isRule(rows[i - 1]) || isBoxEdge(rows[i - 1], "top"));

// The retry notice Gemini and Qwen show while they wait out a 429: the agent's own state.
const _RETRY_NOTICE = /^\s*↻ Retrying in .*\(attempt \d+\/\d+\)/;

/**
 * Finds the latest `✕ [API Error: …]` row (column 0 or 1; a quote in a reply or code block is
 * indented) that names a quota or rate limit, after the latest prompt echo, with the agent idle
 * below it (its input box back) or showing its retry notice; null when `vetoes` match a row of the
 * turn (the agent goes on by itself) or `textVetoes` the error's text (not a limit).
 */
export function detectApiErrorLine(
  rows: readonly string[],
  rules: readonly LimitRule[],
  opts: DetectOptions,
  isPrompt: PromptTest,
  vetoes: readonly RegExp[] = [],
  textVetoes: readonly RegExp[] = [],
): LimitHit | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = /^ ?✕\s+(\[API Error:.*)$/.exec(rows[i]);
    if (!m) continue;
    const retrying = rows.slice(i + 1).some((r) => _RETRY_NOTICE.test(r));
    if (!retrying && idleInputBelow(rows, i, isPrompt) < 0) return null;
    if (anyShown(rows.slice(promptAbove(rows, i, isPrompt) + 1), vetoes)) return null;
    const rest: string[] = [m[1]];
    for (let j = i + 1; j < rows.length && /^\s{2,}\S/.test(rows[j]); j++) {
      if (/^\s*[✕↻●>]/.test(rows[j])) break;
      rest.push(rows[j]);
    }
    const message = normalizeSpace(rest.join(" "));
    const rule = matchRule(message, rules, textVetoes);
    if (!rule) return null;
    const attempt = /\(attempt (\d+)\/\d+\)/.exec(message);
    const wait = /Retrying in (\d+)s/.exec(message);
    return limitHit(rule.kind, message, opts, {
      ...(attempt ? { attempt: Number(attempt[1]) } : {}),
      ...(wait ? { waitSeconds: Number(wait[1]) } : {}),
      ...(rule.final && !attempt ? { final: true } : {}),
    });
  }
  return null;
}

// Its messages: in its limit dialog, on its `✕ [API Error: …]` row, and its own notices in the
// turn (a switch to another model it made itself: it goes on, none of the turn is a limit).
const _DIALOG_RULES = limitRules("gemini", "dialog");
const _DIALOG_VETOES = limitVetoes("gemini", "dialog");
const _ERROR_RULES = limitRules("gemini", "error");
const _ERROR_VETOES = limitVetoes("gemini", "error");
const _INFO_VETOES = limitVetoes("gemini", "info");

const _launch = optionPromptLaunch("gemini", "--prompt-interactive", _ROADS, _RESUME);

/**
 * Gemini's limit: its limit dialog (a box offering `● 1. …`, with no later prompt below), or its
 * `✕ [API Error: …]` row after the latest turn with the input box back; never one shown before
 * Gemini says it switched to another model by itself or is retrying (it went on after it).
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  // What its turn showed up to its latest own notice is over; a limit after it still counts.
  let wentOn = rows.length - 1;
  while (wentOn >= 0 && !_INFO_VETOES.some((v) => v.test(rows[wentOn]))) wentOn--;
  if (wentOn >= 0) rows.fill("", promptAbove(rows, wentOn, isGeminiPrompt) + 1, wentOn + 1);
  return detectInDialogs(rows, _DIALOG_RULES, opts, isGeminiPrompt, _DIALOG_VETOES) ??
    detectApiErrorLine(rows, _ERROR_RULES, opts, isGeminiPrompt, [], _ERROR_VETOES);
}

/**
 * Gemini CLI 0.61's input box, as its recordings show it: ` > ` between a row of `▄` and a row of
 * `▀`, `Type your message or @path/to/file` while empty. Its echoes of earlier turns look the
 * same, so only a box near the bottom of the screen counts. Its other conventions (newline keys,
 * collapsed pastes, trimming) are not verified against the real CLI and are left out.
 */
export const GEMINI_INPUT_BOX: InputBox = {
  prompt: " > ",
  continuation: "   ",
  above: /^▄{8,}\s*$/,
  below: /^▀{8,}\s*$/,
  sideBorders: false,
  maxRowsBelow: 6,
  placeholders: [/^\s*Type your message or @path\/to\/file\s*$/],
  collapsedPaste: null,
  collapseAbove: null,
  backslashEnter: false,
  trimsSubmission: false,
  localCommands: [
    "/help",
    "/clear",
    "/stats",
    "/model",
    "/auth",
    "/about",
    "/theme",
    "/settings",
    "/tools",
    "/mcp",
    "/memory",
    "/chat",
    "/privacy",
    "/docs",
    "/editor",
    "/extensions",
    "/vim",
    "/quit",
    "/exit",
  ],
};

/**
 * The spinner row Gemini CLI 0.61.0 animates while it waits on its model with nothing to show
 * (its loading indicator: `⠇ Thinking... (esc to cancel, 2m 56s)`, or its retry phrases
 * `This is taking a bit longer, we're still on it.` / `Trying to reach gemini-2.5-pro (Attempt
 * 3/10)`), not while a thought's subject or a tool is shown: what the retry-loop rule lets move.
 */
export const GEMINI_WAITING_ROW: RegExp =
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (?:Thinking\.\.\.|This is taking a bit longer, we['’]re still on it\.|Trying to reach \S+ \(Attempt \d+\/\d+\))(?: .*)?\(esc to cancel, [^)]*\)/;

/** The Gemini CLI adapter. */
export const gemini: Adapter = {
  name: "gemini",
  displayName: "Gemini CLI",
  binNames: ["gemini"],
  installHint: "npm install -g @google/gemini-cli",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  // Its launcher starts itself a second time (seconds); the probes do not need that.
  probeEnv: { GEMINI_CLI_NO_RELAUNCH: "true" },
  proveInitialPrompt: helpLineProof(/^\s+-i, --prompt-interactive\b/, "-i, --prompt-interactive"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  inputBox: GEMINI_INPUT_BOX,
  busyPattern: ESC_TO_CANCEL_SPINNER,
  waitingRow: GEMINI_WAITING_ROW,
  // Its hooks need a root-owned settings file; its debug log tells the 429s it retries.
  debugLog: GEMINI_DEBUG_LOG,
};
