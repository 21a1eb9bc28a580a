/**
 * Auggie (`auggie`, Augment Code): prompt road, paste road. On the prompt road the handoff goes in
 * a private file named by `--instruction-file` (its documented way to start a session from a
 * file), not in `--instruction TEXT`: any local user can read a process's arguments, and only the
 * user can read a 0600 file in the 0700 scratch directory. Limits: the retry line
 * `Rate limit reached. Retrying in 12s…` and the final `❌ Rate limit exceeded: …` [from binary];
 * the account rows users reported (`⚠️ You have run out of usage for account …`). Not run for real
 * here: it stops at its login (no Augment account), so only reported and recorded screens test it.
 *
 * @module
 */
import { join } from "node:path";
import type { Adapter, DetectOptions, Launch, LaunchRequest, LimitHit, Road } from "./adapter.ts";
import { optionWithValue, refuseResume, requireRoad } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import { AUGGIE_ACCOUNT, AUGGIE_FINAL, AUGGIE_RETRY, USAGE_WORDS } from "./limit_messages.ts";
import { BUSY_ROW, hideDelivered, limitHit, normalizeSpace } from "./screen_text.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-c", "--continue", "-r", "--resume"];

/** The file in the launch's scratch directory that holds the handoff on the prompt road. */
export const AUGGIE_INSTRUCTION_FILE = "instruction.md";

function _launch(req: LaunchRequest): Launch {
  if (req.handoff === null) return { argv: [req.bin, ...req.extraArgs] };
  requireRoad("auggie", req.road, _ROADS);
  refuseResume("auggie", req.extraArgs, _RESUME);
  if (req.road === "paste") return { argv: [req.bin, ...req.extraArgs] };
  const file = join(req.scratchDir, AUGGIE_INSTRUCTION_FILE);
  return {
    argv: [req.bin, ...req.extraArgs, optionWithValue("auggie", "--instruction-file", file)],
    files: [{ path: file, content: req.handoff, mode: 0o600 }],
  };
}

// Rows of the live bottom of the screen that may hold Auggie's own state.
const _LIVE_ROWS = 8;

/**
 * Auggie's limit: its `❌ Rate limit exceeded:` row, its retry row, or a `⚠️` account row (out of
 * usage, subscription inactive), at column 0 (a quote in a reply is indented or mid-line), among
 * the last rows of the screen with no spinner after it.
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  const shown = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.trim() !== "");
  for (const { r, i } of shown.slice(-_LIVE_ROWS).reverse()) {
    if (/^\s/.test(r)) continue;
    const text = normalizeSpace(r);
    const account = AUGGIE_ACCOUNT.exec(text);
    if (account) {
      if (rows.slice(i + 1).some((l) => BUSY_ROW.test(l))) return null;
      return limitHit("usage", account[1], opts, { final: true });
    }
    const final = AUGGIE_FINAL.exec(text);
    if (final) {
      if (rows.slice(i + 1).some((l) => BUSY_ROW.test(l))) return null;
      const message = final[1];
      return limitHit(USAGE_WORDS.test(message) ? "usage" : "rate", message, opts, {
        final: true,
      });
    }
    const retry = AUGGIE_RETRY.exec(text);
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
  proveInitialPrompt: helpLineProof(
    /^\s+-if, --instruction-file <p>/,
    "-if, --instruction-file <p>",
  ),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
};
