/**
 * Qwen Code (`qwen`): prompt road (`-i`; the positional prompt is one-shot), paste road. Limits
 * show as `✕ [API Error: 429 …] (Retrying in 37s… (attempt 1/10))` after silent retries (stall
 * rule, `busyPattern`), or `✕ Quota exhausted: …`; then its input box or retry notice.
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { QWEN_CHANNEL, qwenChannelLaunch } from "./channels/qwen.ts";
import { withChannel } from "./channels/launch.ts";
import { detectApiErrorLine, isGeminiPrompt, type PromptTest } from "./gemini.ts";
import { limitRules, limitVetoes } from "./limit_data.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import {
  hideDelivered,
  isRule,
  markedRowHit,
  stripBorders,
  turnsAtColumnZero,
} from "./screen_text.ts";
import { ESC_TO_CANCEL_SPINNER } from "./stall.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-c", "--continue", "-r", "--resume", "--session-id", "--fork-session"];

// Qwen's prompt rows: `> ` at column 0 (or ` > ` in a band, as Gemini draws it).
const _isPrompt: PromptTest = (rows, i) =>
  /^>(?:\s|$)/.test(rows[i]) || isGeminiPrompt(rows, i) ||
  (i > 0 && isRule(rows[i - 1]) && /^\s?>(?:\s|$)/.test(stripBorders(rows[i])));

const _roadLaunch = optionPromptLaunch("qwen", "--prompt-interactive", _ROADS, _RESUME);

// The road's launch, with the channel's system-defaults file when the request turns it on.
function _launch(req: LaunchRequest): Launch {
  const launch = _roadLaunch(req);
  return req.channel ? withChannel(launch, qwenChannelLaunch(req.channel, req.scratchDir)) : launch;
}

// Qwen Code 0.24.4 draws its turn at column 2 (the echo `  > …`, its own `  ✕ …` rows, the
// `  ↻ Retrying in …` countdown; a reply's text at column 4); older versions at column 0.
const _ECHO = /^( {0,2})> \S/;

// Its messages: in its `✕ [API Error: …]` row, and on its other `✕` rows.
const _API_RULES = limitRules("qwen", "api");
const _API_VETOES = limitVetoes("qwen", "api");
const _LINE_RULES = limitRules("qwen", "line");
const _LINE_VETOES = limitVetoes("qwen", "line");

/**
 * Qwen's limit: its own `✕` row (column 0, or the column of its echo; text in a reply is indented
 * further or unmarked) after the latest turn, with its input box back or its retry notice below:
 * `✕ [API Error: …]` naming a quota or rate limit, or `✕ Quota exhausted: …` /
 * `✕ Qwen OAuth … quota exceeded`.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = turnsAtColumnZero(hideDelivered(lines, opts.delivered), _ECHO);
  const api = detectApiErrorLine(rows, _API_RULES, opts, _isPrompt, [], _API_VETOES);
  if (api) return api;
  return markedRowHit(rows, /^✕\s+(.*)$/, /^\s{2,}\S/, _LINE_RULES, opts, _isPrompt, _LINE_VETOES);
}

/** The Qwen Code adapter. */
export const qwen: Adapter = {
  name: "qwen",
  displayName: "Qwen Code",
  binNames: ["qwen"],
  installHint: "npm install -g @qwen-code/qwen-code (needs Node.js 22 or newer)",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  // Its launcher starts itself a second time (seconds); the probes do not need that.
  probeEnv: { QWEN_CODE_NO_RELAUNCH: "true" },
  proveInitialPrompt: helpLineProof(/^\s+-i, --prompt-interactive\b/, "-i, --prompt-interactive"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  busyPattern: ESC_TO_CANCEL_SPINNER,
  channel: QWEN_CHANNEL,
};
