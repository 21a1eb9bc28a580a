/**
 * Qwen Code (`qwen`): prompt road (`-i`; the positional prompt is one-shot), paste road. Limits
 * show as `✕ [API Error: 429 …] (Retrying in 37s… (attempt 1/10))` after silent retries (stall
 * rule, `busyPattern`), or `Quota exhausted: …`.
 *
 * @module
 */
import type { Adapter, DetectOptions, LimitHit, Road } from "./adapter.ts";
import { detectApiErrorLine } from "./gemini.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import {
  hideDelivered,
  limitHit,
  type LimitRule,
  matchRule,
  normalizeSpace,
} from "./screen_text.ts";
import { ESC_TO_CANCEL_SPINNER } from "./stall.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-c", "--continue", "-r", "--resume", "--session-id", "--fork-session"];

const _API_RULES: readonly LimitRule[] = [
  { re: /quota|exhausted|billing|free tier has been discontinued/i, kind: "usage" },
  { re: /\b429\b|rate limit/i, kind: "rate", final: true },
];
const _LINE_RULES: readonly LimitRule[] = [
  { re: /^Quota exhausted: /, kind: "usage" },
  { re: /^Qwen OAuth (?:quota exceeded|free tier has been discontinued)/, kind: "usage" },
];

const _launch = optionPromptLaunch("qwen", "--prompt-interactive", _ROADS, _RESUME);

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  const api = detectApiErrorLine(rows, _API_RULES, opts);
  if (api) return api;
  for (let i = rows.length - 1; i >= 0; i--) {
    const text = normalizeSpace(rows[i]).replace(/^✕\s*/, "");
    const rule = matchRule(text, _LINE_RULES);
    if (rule) {
      return limitHit(rule.kind, text, opts);
    }
  }
  return null;
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
  proveInitialPrompt: (help) =>
    proveByHelpLine(help, [/^\s+-i, --prompt-interactive\b/], "'-i, --prompt-interactive'"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  busyPattern: ESC_TO_CANCEL_SPINNER,
};
