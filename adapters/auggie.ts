/**
 * Auggie (`auggie`, Augment Code): prompt road (`--instruction`), paste road. Limits: the retry
 * line `Rate limit reached. Retrying in 12s…` and the final `❌ Rate limit exceeded: …` [from binary].
 *
 * @module
 */
import type { Adapter, DetectOptions, LimitHit, Road } from "./adapter.ts";
import { optionPromptLaunch } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import { hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-c", "--continue", "-r", "--resume"];

const _launch = optionPromptLaunch("auggie", "--instruction", _ROADS, _RESUME);

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    const text = normalizeSpace(rows[i]);
    const final = /^❌\s*(Rate limit exceeded: .*)$/.exec(text);
    if (final) {
      const message = final[1];
      return limitHit(/quota|credits|plan/i.test(message) ? "usage" : "rate", message, opts, {
        final: true,
      });
    }
    const retry = /^(?:\W+\s*)?(Rate limit reached\. Retrying in (\d+)s…?)/.exec(text);
    if (retry) {
      return { kind: "rate", message: retry[1], resetsAt: null, waitSeconds: Number(retry[2]) };
    }
  }
  return null;
}

/** The Auggie adapter. */
export const auggie: Adapter = {
  name: "auggie",
  displayName: "Auggie (Augment Code)",
  binNames: ["auggie"],
  installHint: "npm install -g @augmentcode/auggie",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  proveInitialPrompt: (help) =>
    proveByHelpLine(help, [/^\s+-i, --instruction <text>/], "'-i, --instruction <text>'"),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
};
