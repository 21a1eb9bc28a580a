/**
 * aider (`aider`): `-m`/`-f` exit after the reply, so a handoff arrives by paste only. Limits:
 * `litellm.RateLimitError: …` / `The API provider has rate limited you…`, then
 * `Retrying in 2.0 seconds...` while aider retries [from docs].
 *
 * @module
 */
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { refuseResume, requireRoad } from "./launch_rules.ts";
import { noInitialPrompt } from "./proof.ts";
import { AIDER_ERROR, AIDER_RETRY } from "./limit_messages.ts";
import { hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["paste"];

function _launch(req: LaunchRequest): Launch {
  if (req.handoff !== null) {
    requireRoad("aider", req.road, _ROADS);
    refuseResume("aider", req.extraArgs, ["--restore-chat-history"]);
  }
  return { argv: [req.bin, ...req.extraArgs] };
}

// aider's prompt row (`> ` at column 0, also the echo of a submitted turn).
const _PROMPT = /^(?:\w+ )?>(?:\s|$)/;
// aider's token report after a reply: the turn got an answer, so no error ended it.
const _TOKENS = /^Tokens: /;

/**
 * aider's limit: its error row at column 0 after the latest prompt echo, in a turn that got no
 * reply (no `Tokens:` report), followed only by its retry notice or the prompt back.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = AIDER_ERROR.exec(rows[i].trimEnd());
    if (!m) continue;
    let echo = i - 1;
    while (echo >= 0 && !_PROMPT.test(rows[echo])) echo--;
    if (rows.slice(echo + 1, i).some((r) => _TOKENS.test(r))) return null;
    const after = rows.slice(i + 1).filter((r) => r.trim() !== "");
    const settled = after.every((r, k) =>
      AIDER_RETRY.test(r) || (_PROMPT.test(r) && k === after.length - 1) || /^\s/.test(r)
    );
    if (!settled) return null;
    const message = normalizeSpace(m[1]);
    const retry = after.map((r) => AIDER_RETRY.exec(r)).find((x) => x);
    const usage = /quota|insufficient_quota|billing|credits/i.test(message) &&
      !/check your quotas/i.test(message);
    return limitHit(usage ? "usage" : "rate", message, opts, {
      ...(retry ? { waitSeconds: Math.round(Number(retry[1])) } : { final: true }),
    });
  }
  return null;
}

/** The aider adapter (paste road only). */
export const aider: Adapter = {
  name: "aider",
  displayName: "aider",
  binNames: ["aider"],
  installHint: "python -m pip install aider-install && aider-install",
  resumeFlags: [],
  roads: _ROADS,
  defaultRoad: "paste",
  roadCap: () => null,
  proveInitialPrompt: () => noInitialPrompt("aider"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x04"],
  submitKey: "\r",
};
