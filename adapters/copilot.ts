/**
 * GitHub Copilot CLI (`copilot`): prompt road (`-i, --interactive <prompt>`), paste road. Limits
 * show after the `✗` error marker ("You've hit your rate limit.", "Your limit resets …").
 *
 * @module
 */
import type { Adapter, DetectOptions, LimitHit, Road } from "./adapter.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import { parseResetTime } from "./reset_time.ts";
import { hideDelivered, type LimitRule, matchRule, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-r", "--resume", "--continue", "--session-id"];

const _RULES: readonly LimitRule[] = [
  {
    re:
      /you(?:['’]ve| have) (?:hit (?:your|the|a) (?:session )?rate limit|reached your weekly rate limit|been rate[- ]limited|run out of your (?:included )?AI credits|exceeded your \d+ hour session limits|reached the spending limit)/i,
    kind: "usage",
  },
  { re: /user_(?:weekly|global|model)_rate_limited/, kind: "usage" },
];

const _launch = optionPromptLaunch("copilot", "--interactive", _ROADS, _RESUME);

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = /^\s*✗\s+(.*)$/.exec(rows[i]);
    if (!m) continue;
    const parts = [m[1]];
    for (let j = i + 1; j < rows.length && /^\s{2,}\S/.test(rows[j]); j++) {
      if (/^\s*[✗●❯]/.test(rows[j])) break;
      parts.push(rows[j]);
    }
    const message = normalizeSpace(parts.join(" "));
    const rule = matchRule(message, _RULES);
    if (!rule) continue;
    return { kind: rule.kind, message, resetsAt: parseResetTime(message, opts.now, opts.timeZone) };
  }
  return null;
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
  proveInitialPrompt: (help) =>
    proveByHelpLine(help, [/^\s+-i, --interactive <prompt>/], "'-i, --interactive <prompt>'"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
};
