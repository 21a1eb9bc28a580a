/**
 * GitHub Copilot CLI (`copilot`): prompt road (`-i, --interactive <prompt>`), paste road. Limits
 * show after the `✗` error marker ("You've hit your rate limit.", "Your limit resets …"), then
 * the input box is back.
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { COPILOT_CHANNEL, copilotChannelLaunch } from "./channels/copilot.ts";
import { withChannel } from "./channels/launch.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import { limitRules, limitVetoes } from "./limit_data.ts";
import {
  hideDelivered,
  isBoxEdge,
  isRule,
  markedRowHit,
  stripBorders,
  turnsAtColumnZero,
} from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-r", "--resume", "--continue", "--session-id"];

const _roadLaunch = optionPromptLaunch("copilot", "--interactive", _ROADS, _RESUME);

// The road's launch, with the channel's plugin when the request turns it on.
function _launch(req: LaunchRequest): Launch {
  const launch = _roadLaunch(req);
  return req.channel
    ? withChannel(launch, copilotChannelLaunch(req.channel, req.scratchDir))
    : launch;
}

// Copilot's prompt rows: `❯ ` at column 0 (echoes and the input box), or an input box drawn as a
// box (`│ ❯ …` or `│ > …` right under its top edge or a rule); not a menu choice (`❯ 1. Yes`).
const _isPrompt = (rows: readonly string[], i: number) =>
  /^❯(?:\s|$)/.test(rows[i]) ||
  (i > 0 && (isBoxEdge(rows[i - 1], "top") || isRule(rows[i - 1])) &&
    /^\s?[❯>](?:\s|$)(?!\s*\d+\.)/.test(stripBorders(rows[i])));

// Copilot CLI 1.0.102 draws its turn at column 1 (` ❯ …`, ` ● …`, ` ✗ …`, wrapped rows at 3), as
// the real-agent matrix showed; at column 0 in the screens it was first read from.
const _ECHO = /^( ?)❯ \S/;

// Its messages on its own `✗` row.
const _RULES = limitRules("copilot", "row");
const _VETOES = limitVetoes("copilot", "row");

/**
 * Copilot's limit: its own `✗` row at column 0 (or its echo's column) whose text starts with a
 * limit message (a failed tool call is a `✗` row too, and its output below it is not read), after
 * the latest turn, with the input box back below.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = turnsAtColumnZero(hideDelivered(lines, opts.delivered), _ECHO);
  // The message wraps onto rows indented by two; tool output sits in a `│`/`└` frame.
  return markedRowHit(rows, /^✗\s+(.*)$/, /^ {2}[^\s│└├╰●✗❯]/, _RULES, opts, _isPrompt, _VETOES);
}

/** The GitHub Copilot CLI adapter. */
export const copilot: Adapter = {
  name: "copilot",
  displayName: "GitHub Copilot CLI",
  binNames: ["copilot"],
  installHint: "npm install -g @github/copilot",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  proveInitialPrompt: helpLineProof(/^\s+-i, --interactive <prompt>/, "-i, --interactive <prompt>"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  // 1.0.102's footer while a turn waits on the model (also while it retries a quota 429 for a
  // minute): ` ◉ Working esc esc edit prompt`, its glyph cycling ◉ ◎ ○ ● every 90 ms.
  waitingRow: /^ ?[◉◎○●] Working(?: |$)/,
  channel: COPILOT_CHANNEL,
};
