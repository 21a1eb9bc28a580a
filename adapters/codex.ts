/**
 * Codex CLI (`codex`): prompt road (positional prompt, always `--no-daemon` so nothing outlives the
 * TUI), paste road. Limit messages start with the red `■ ` marker; Codex wraps them itself and
 * shows its composer (`› `) again below.
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { refuseResume, requireArgFits, requireRoad } from "./launch_rules.ts";
import { CODEX_CHANNEL, codexChannelArgs } from "./channels/codex.ts";
import { withChannel } from "./channels/launch.ts";
import { helpLineProof } from "./proof.ts";
import { limitRules, limitVetoes } from "./limit_data.ts";
import {
  hideDelivered,
  idleInputBelow,
  joinRows,
  matchRule,
  paragraphFrom,
  ruleHit,
} from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["resume", "fork", "--last"];

// The road's launch, with the channel's trusted hooks when the request turns it on.
function _launch(req: LaunchRequest): Launch {
  const launch = _roadLaunch(req);
  return req.channel ? withChannel(launch, { args: codexChannelArgs(req.channel) }) : launch;
}

function _roadLaunch(req: LaunchRequest): Launch {
  const base = [req.bin, "--no-daemon", ...req.extraArgs];
  if (req.handoff === null) return { argv: base };
  requireRoad("codex", req.road, _ROADS);
  refuseResume("codex", req.extraArgs, _RESUME);
  if (req.road === "paste") return { argv: base };
  requireArgFits("codex", req.handoff);
  // `--` ends options, so `-i/--image <FILE>...` in extraArgs cannot swallow the prompt. Its
  // first UserPromptSubmit is this text: uuldana's, not the user's.
  return { argv: [...base, "--", req.handoff], opening: req.handoff };
}

// Its messages in a `■` history cell.
const _RULES = limitRules("codex", "cell");
const _VETOES = limitVetoes("codex", "cell");

// The composer and the echo of a submitted turn: `› ` at column 0.
const _isPrompt = (rows: readonly string[], i: number) => /^›(?:\s|$)/.test(rows[i]);

/**
 * Codex's limit: a `■ ` history cell at column 0 (exec output and echoed text are indented) after
 * the latest prompt echo, with the composer back below it and no "Working" row between.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    if (!rows[i].startsWith("■ ")) continue;
    if (idleInputBelow(rows, i, _isPrompt) < 0) return null;
    const para = paragraphFrom(rows, i, (l) => /^\s*[■›•─]/.test(l));
    const message = joinRows(para, opts.cols).replace(/^■\s*/, "");
    const rule = matchRule(message, _RULES, _VETOES);
    return rule ? ruleHit(rule, message, opts) : null;
  }
  return null;
}

/**
 * Rows Codex 0.171.0 draws about itself, never the model's words (its real runs, 2026-12-02): the
 * row after a turn (`  Worked for <1s • 4:26`, `Worked for 1m 03s • …`), its spinner while it
 * works or reconnects to a failing server (`• Working (3s • esc to interrupt)`, `◦ Reconnecting...
 * 2/5 (3s • esc to interrupt)`), and the hints under its composer (`← for agents · ? for
 * shortcuts`, `tab to queue message`, `⚠ 2 warnings · f2 to view`). Its model's text starts with
 * `• ` too, but never as a spinner row with `esc to interrupt` in parentheses.
 */
export const CODEX_CHROME_ROWS: readonly RegExp[] = [
  /^\s*Worked for <?\d+[hms](?: \d+[hms])*(?: • .*)?\s*$/,
  /^[•◦] (?:Working|Reconnecting\.\.\.[^(]*)\s*\([^)]*esc to interrupt\)\s*$/,
  /^\s*(?:← for agents · )?\? for shortcuts\b/,
  /^\s*tab to queue message\s*$/,
  /^\s*⚠ \d+ warnings? · f\d+ to view\s*$/,
];

/** The Codex CLI adapter. */
export const codex: Adapter = {
  name: "codex",
  displayName: "Codex CLI",
  binNames: ["codex"],
  installHint: "npm install -g @openai/codex",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  proveInitialPrompt: helpLineProof(
    /^Usage: codex \[OPTIONS\] \[PROMPT\]/,
    "Usage: codex [OPTIONS] [PROMPT]",
  ),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  // 0.171.0 prints OSC 7501 on every TTY: `working` in a turn, `error` when it fails (a usage
  // limit or a server error alike).
  programStatus: "osc7501",
  chromeRows: CODEX_CHROME_ROWS,
  channel: CODEX_CHANNEL,
};
