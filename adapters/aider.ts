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
import { hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["paste"];

function _launch(req: LaunchRequest): Launch {
  if (req.handoff !== null) {
    requireRoad("aider", req.road, _ROADS);
    refuseResume("aider", req.extraArgs, ["--restore-chat-history"]);
  }
  return { argv: [req.bin, ...req.extraArgs] };
}

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    const text = normalizeSpace(rows[i]);
    const m = /((?:litellm\.)?RateLimitError: .*|The API provider has rate limited you\..*)$/.exec(
      text,
    );
    if (!m || /^>/.test(text)) continue;
    const message = m[1];
    const after = rows.slice(i + 1, i + 4).map(normalizeSpace).join(" ");
    const retry = /Retrying in (\d+(?:\.\d+)?) seconds/.exec(after);
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
