/**
 * Crush (`crush`, Charm): no interactive initial prompt, so a handoff arrives by paste only. Limits
 * show as an `ERROR` tag titled `Too Many Requests` with the provider's message on the next row
 * (reported), or `No credits` / `Payment Required` / `Monthly quota reached` [from source]. Not run
 * for real here (its npm package downloads its binary from GitHub): only reported screens test it.
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { refuseResume, requireRoad } from "./launch_rules.ts";
import { noInitialPrompt } from "./proof.ts";
import { CRUSH_ERROR, CRUSH_USAGE_TITLES, USAGE_WORDS } from "./limit_messages.ts";
import { hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["paste"];

function _launch(req: LaunchRequest): Launch {
  if (req.handoff !== null) {
    requireRoad("crush", req.road, _ROADS);
    refuseResume("crush", req.extraArgs, ["-s", "--session", "-C", "--continue"]);
  }
  return { argv: [req.bin, ...req.extraArgs] };
}

// Crush's side panel (LSPs, MCPs) shares the rows of its chat, two or more spaces to the right.
const _SIDE_PANEL = /\s{3,}(?:●|MCPs\b|LSPs\b|Modified Files\b).*$/;

/**
 * Crush's limit: its `ERROR` tag titled "Too Many Requests", "No credits", … at the start of a
 * row (at most four columns in; prose that mentions the words is mid-row), with the provider
 * message on the next non-blank row. The side panel's text on the same rows is cut off.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered).map((r) => r.replace(_SIDE_PANEL, ""));
  for (let i = rows.length - 1; i >= 0; i--) {
    if (!/^ {0,4}\S/.test(rows[i])) continue;
    const m = CRUSH_ERROR.exec(normalizeSpace(rows[i]));
    if (!m) continue;
    let j = i + 1;
    while (j < rows.length && rows[j].trim() === "") j++;
    const next = rows[j] ? normalizeSpace(rows[j]) : "";
    const message = next && !/\bERROR\b/.test(next) ? `${m[1]} ${next}` : m[1];
    const usage = CRUSH_USAGE_TITLES.test(m[1]) || USAGE_WORDS.test(message);
    return limitHit(usage ? "usage" : "rate", message, opts, { final: true });
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
