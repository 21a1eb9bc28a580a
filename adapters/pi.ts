/**
 * pi (`pi`, `@mariozechner/pi-coding-agent`): prompt road, paste road. Its opening prompt is the
 * files and messages after its options (`pi [options] [@files...] [messages...]`); uuldana puts
 * the handoff in a private file and passes `@FILE`, so the text is never in the process's
 * arguments (any local user can read those) and never parsed as a flag (a handoff starts with
 * `-----`, which pi's parser takes for an option). pi wraps a file as `<file name="…">…</file>`
 * and submits it at once. Its limit is the provider's error on its own `Error: …` row, right
 * above its input box, with its retry countdown (`Retrying (1/3) in 2s...`) between them while
 * it retries; `Error: Retry failed after 3 attempts: …` when it gave up. Its channel is uuldana's
 * extension, loaded with `-e` (`channels/pi.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type {
  Adapter,
  DetectOptions,
  InputBox,
  Launch,
  LaunchRequest,
  LimitHit,
  Road,
} from "./adapter.ts";
import { refuseResume, requireRoad } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import { hideDelivered, isRule, normalizeSpace } from "./screen_text.ts";
import { piErrorHit } from "./pi_limit.ts";
import { PI_CHANNEL } from "./channels/pi.ts";
import { PI_CHANNEL_ENV, PI_EXTENSION_FILE, PI_EXTENSION_SOURCE } from "./channels/pi_extension.ts";

const _ROADS: readonly Road[] = ["prompt", "paste"];
const _RESUME = ["-c", "--continue", "-r", "--resume", "--session", "--fork"];

/** The file in the launch's scratch directory that holds the handoff on the prompt road. */
export const PI_HANDOFF_FILE = "handoff.md";

// A fresh session: with a channel, uuldana's extension from the scratch folder (`-e FILE`), told
// by the environment where to write its records.
function _fresh(req: LaunchRequest): Launch {
  if (!req.channel) return { argv: [req.bin, ...req.extraArgs] };
  const ext = join(req.scratchDir, PI_EXTENSION_FILE);
  return {
    argv: [req.bin, "-e", ext, ...req.extraArgs],
    env: { [PI_CHANNEL_ENV]: req.channel.dir },
    files: [{ path: ext, content: PI_EXTENSION_SOURCE, mode: 0o600 }],
  };
}

function _launch(req: LaunchRequest): Launch {
  const fresh = _fresh(req);
  if (req.handoff === null) return fresh;
  requireRoad("pi", req.road, _ROADS);
  refuseResume("pi", req.extraArgs, _RESUME);
  if (req.road === "paste") return fresh;
  const file = join(req.scratchDir, PI_HANDOFF_FILE);
  return {
    ...fresh,
    argv: [...fresh.argv, `@${file}`],
    files: [...(fresh.files ?? []), { path: file, content: req.handoff, mode: 0o600 }],
  };
}

/**
 * pi 0.73.1's input box: its text at column 0 between two full-width rules, no prompt glyph; two
 * footer rows below (the folder, then tokens and the model), an autocomplete list at most.
 */
export const PI_INPUT_BOX: InputBox = {
  prompt: "",
  continuation: "",
  above: /^[─━]{8,}$/,
  below: /^[─━]{8,}$/,
  sideBorders: false,
  maxRowsBelow: 8,
  placeholders: [],
  // A paste of more than 10 lines or 1,000 characters shows as `[paste #1 +42 lines]`.
  collapsedPaste: /\[paste #\d+(?: (?:\+\d+ lines|\d+ chars))?\]/g,
  collapseAbove: { chars: 1000, newlines: 9 },
  backslashEnter: false,
  localCommands: [
    "/settings",
    "/model",
    "/scoped-models",
    "/resume",
    "/new",
    "/name",
    "/session",
    "/tree",
    "/fork",
    "/clone",
    "/compact",
    "/copy",
    "/export",
    "/share",
    "/reload",
    "/hotkeys",
    "/changelog",
    "/login",
    "/logout",
    "/quit",
  ],
  trimsSubmission: true,
};

// The status row above the input box: pi's spinner glyph, then what it is doing.
const _RETRY_ROW = /^\s?\S\s+Retrying \((\d+)\/(\d+)\) in (\d+)s\.\.\./;
const _BUSY_ROW = /^\s?\S\s+(?:Working|Compacting|Summarizing)\b.*\.\.\./;
// Its own error rows, at column 1 (or 0), and a wrapped row of one.
const _ERROR_ROW = /^ ?Error: (.*)$/;

/** The rows of pi's input box (top rule, bottom rule), the lowest on the screen, or null. */
function _box(rows: readonly string[]): { top: number; bottom: number } | null {
  for (let bottom = rows.length - 1; bottom > 0; bottom--) {
    if (!isRule(rows[bottom])) continue;
    if (rows.slice(bottom + 1).filter((r) => r.trim() !== "").length > PI_INPUT_BOX.maxRowsBelow) {
      return null;
    }
    for (let top = bottom - 1; top >= 0; top--) if (isRule(rows[top])) return { top, bottom };
    return null;
  }
  return null;
}

/**
 * pi's limit: the last thing above its input box (blank rows and its retry countdown aside; its
 * busy spinner means the turn goes on) is its own `Error: …` paragraph, whose provider text is a
 * quota (usage) or a rate limit (rate: the countdown's attempt and wait, `final` once it gave up).
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered).map((r) => r.trimEnd());
  const box = _box(rows);
  if (!box) return null;
  let retry: RegExpExecArray | null = null;
  let i = box.top - 1;
  for (; i >= 0; i--) {
    if (rows[i] === "") continue;
    if (_BUSY_ROW.test(rows[i])) return null;
    const r = _RETRY_ROW.exec(rows[i]);
    if (!r) break;
    retry = r;
  }
  // The paragraph ending at row i: its first row must be pi's own `Error: `.
  let start = i;
  while (start > 0 && rows[start - 1] !== "") start--;
  const first = _ERROR_ROW.exec(rows[start] ?? "");
  if (!first || start < 0) return null;
  const text = normalizeSpace([first[1], ...rows.slice(start + 1, i + 1)].join(" "));
  return piErrorHit(
    text,
    opts,
    retry ? { attempt: Number(retry[1]), waitSeconds: Number(retry[3]) } : {},
  );
}

/** The pi adapter. */
export const pi: Adapter = {
  name: "pi",
  displayName: "pi",
  binNames: ["pi"],
  installHint: "npm install -g @mariozechner/pi-coding-agent",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "prompt",
  roadCap: () => null,
  proveInitialPrompt: helpLineProof(
    /^\s+pi \[options\] \[@files\.\.\.\] \[messages\.\.\.\]\s*$/,
    "pi [options] [@files...] [messages...]",
  ),
  launch: _launch,
  detectLimit: _detect,
  // Ctrl-C clears its editor; a second one within 500 ms quits.
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  inputBox: PI_INPUT_BOX,
  // 0.73.1's row above its input box while a turn waits on the model (and while its provider's SDK
  // retries a 429): ` ⠋ Working...`, its Braille glyph turning every 80 ms.
  waitingRow: /^ ?[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Working\.\.\./,
  channel: PI_CHANNEL,
};
