/**
 * Codex CLI (`codex`): prompt road (positional prompt, always `--no-daemon` so nothing outlives the
 * TUI), paste road. Limit messages start with the red `■ ` marker; Codex wraps them itself.
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { refuseResume, requireArgFits, requireRoad } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import {
  hideDelivered,
  joinRows,
  limitHit,
  type LimitRule,
  matchRule,
  paragraphFrom,
} from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["resume", "fork", "--last"];

const _RULES: readonly LimitRule[] = [
  { re: /You['’]ve hit your usage limit/, kind: "usage" },
  { re: /Usage limit reached\. You['’]ve reached your usage limit/, kind: "usage" },
  { re: /Quota exceeded\. Check your plan and billing details/, kind: "usage" },
  { re: /exceeded retry limit, last status: 429/, kind: "rate", final: true },
];

function _launch(req: LaunchRequest): Launch {
  const base = [req.bin, "--no-daemon", ...req.extraArgs];
  if (req.handoff === null) return { argv: base };
  requireRoad("codex", req.road, _ROADS);
  refuseResume("codex", req.extraArgs, _RESUME);
  if (req.road === "paste") return { argv: base };
  requireArgFits("codex", req.handoff);
  // `--` ends options, so `-i/--image <FILE>...` in extraArgs cannot swallow the prompt.
  return { argv: [...base, "--", req.handoff] };
}

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    // Codex prints `■ ` at column 0; echoed user text (quoting one) is indented under `› `.
    if (!rows[i].startsWith("■ ")) continue;
    const para = paragraphFrom(rows, i, (l) => /^\s*[■›•─]/.test(l));
    const message = joinRows(para, opts.cols).replace(/^■\s*/, "");
    const rule = matchRule(message, _RULES);
    if (!rule) continue;
    return limitHit(rule.kind, message, opts, rule.final ? { final: true } : {});
  }
  return null;
}

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
  proveInitialPrompt: (help) =>
    proveByHelpLine(
      help,
      [/^Usage: codex \[OPTIONS\] \[PROMPT\]/],
      "'Usage: codex [OPTIONS] [PROMPT]'",
    ),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
};
