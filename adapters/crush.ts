/**
 * Crush (`crush`, Charm): no interactive initial prompt, so a handoff arrives by paste only. Limits
 * show as an `ERROR` tag titled `Too many requests` with the provider's message [from source].
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { refuseResume, requireRoad } from "./launch_rules.ts";
import { noInitialPrompt } from "./proof.ts";
import { CRUSH_ERROR, USAGE_WORDS } from "./limit_messages.ts";
import { hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["paste"];

function _launch(req: LaunchRequest): Launch {
  if (req.handoff !== null) {
    requireRoad("crush", req.road, _ROADS);
    refuseResume("crush", req.extraArgs, ["-s", "--session", "-C", "--continue"]);
  }
  return { argv: [req.bin, ...req.extraArgs] };
}

/**
 * Crush's limit: its `ERROR` tag titled "Too many requests" at the start of a row (at most two
 * columns in; prose that mentions the words is mid-row or indented further), with the provider
 * message on the next row.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    if (!/^ {0,2}\S/.test(rows[i])) continue;
    const m = CRUSH_ERROR.exec(normalizeSpace(rows[i]));
    if (!m) continue;
    const next = rows[i + 1] ? normalizeSpace(rows[i + 1]) : "";
    const message = next && !/\bERROR\b/.test(next) ? `${m[1]} ${next}` : m[1];
    return limitHit(USAGE_WORDS.test(message) ? "usage" : "rate", message, opts, {
      final: true,
    });
  }
  return null;
}

/** The Crush adapter (paste road only). */
export const crush: Adapter = {
  name: "crush",
  displayName: "Crush",
  binNames: ["crush"],
  installHint: "npm install -g @charmland/crush",
  resumeFlags: [],
  roads: _ROADS,
  defaultRoad: "paste",
  roadCap: () => null,
  proveInitialPrompt: () => noInitialPrompt("crush"),
  launch: _launch,
  detectLimit: _detect,
  // Ctrl-C opens Crush's quit dialog; "y" confirms [unverified].
  quitKeys: ["\x03", "y"],
  submitKey: "\r",
};
