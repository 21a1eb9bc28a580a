/**
 * Claude Code (`claude`): hook road (SessionStart `additionalContext` via inline `--settings`),
 * prompt road (positional prompt), paste road. Limit messages sit on the `⎿` line under the
 * prompt echo.
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
import { refuseResume, requireArgFits, requireRoad, RoadError } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import {
  hideDelivered,
  limitHit,
  type LimitRule,
  matchRule,
  normalizeSpace,
} from "./screen_text.ts";

/** Claude's SessionStart `additionalContext` ceiling, in characters. */
export const CLAUDE_HOOK_CAP = 10_000;

/** Name of the hook-output file written into the scratch directory. */
export const CLAUDE_HOOK_FILE = "claude-session-start.json";

const _ROADS: readonly Road[] = ["hook", "prompt", "paste"];
const _RESUME = ["-r", "--resume", "-c", "--continue", "--fork-session", "--session-id"];

// Anchored at the start of the `⎿` text: tool results sit on `⎿` rows too, and may quote these.
const _RULES: readonly LimitRule[] = [
  { re: /^You['’]ve hit your (?:[\w'’ .-]+? )?limit\b/, kind: "usage" },
  { re: /^You['’]re out of (?:extra )?usage credits/, kind: "usage" },
  {
    re: /^(?:\d+-hour|[Ww]eekly|Opus(?: weekly)?|Sonnet(?: weekly)?) limit reached/,
    kind: "usage",
  },
  { re: /^Claude (?:AI )?usage limit reached/, kind: "usage" },
  { re: /^API Error: Request rejected \(429\)/, kind: "rate", final: true },
];
// Claude's own wording for a server-side throttle that is not the user's limit.
const _NOT_A_LIMIT = /not your usage limit/;

/** The one-line prompt that starts the turn on the hook road. */
export function claudeKickoff(handoffFile?: string): string {
  const where = handoffFile ? ` (full text: ${handoffFile})` : "";
  return `Continue the work described in the uuldana handoff in your session context${where}.`;
}

/** The `--settings` JSON that makes a `startup` SessionStart hook `cat` the hook-output file. */
export function claudeHookSettings(hookFile: string): string {
  return JSON.stringify({
    hooks: {
      SessionStart: [{
        matcher: "startup",
        hooks: [{ type: "command", command: `cat ${_shellQuote(hookFile)}`, timeout: 30 }],
      }],
    },
  });
}

function _shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

function _launch(req: LaunchRequest): Launch {
  if (req.handoff === null) return { argv: [req.bin, ...req.extraArgs] };
  requireRoad("claude", req.road, _ROADS);
  refuseResume("claude", req.extraArgs, _RESUME);
  if (req.road === "paste") return { argv: [req.bin, ...req.extraArgs] };
  if (req.road === "prompt") {
    requireArgFits("claude", req.handoff);
    // `--` ends options, so a variadic flag in extraArgs cannot swallow the prompt.
    return { argv: [req.bin, ...req.extraArgs, "--", req.handoff] };
  }
  if ([...req.handoff].length > CLAUDE_HOOK_CAP) {
    throw new RoadError(
      `the handoff for claude's hook road is ${[...req.handoff].length} characters, ` +
        `more than Claude's ${CLAUDE_HOOK_CAP}-character hook context`,
      "compose it with the hook road's cap",
    );
  }
  const hookFile = join(req.scratchDir, CLAUDE_HOOK_FILE);
  const output = JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: req.handoff },
  });
  const kickoff = claudeKickoff(req.handoffFile);
  return {
    argv: [req.bin, ...req.extraArgs, "--settings", claudeHookSettings(hookFile), "--", kickoff],
    files: [{ path: hookFile, content: output, mode: 0o600 }],
  };
}

function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = /^\s*⎿\s+(.*)$/.exec(rows[i]);
    if (!m) continue;
    // A long message continues on rows indented under the text.
    const parts = [m[1]];
    for (let j = i + 1; j < rows.length && /^\s{4,}\S/.test(rows[j]); j++) {
      if (/^\s*[⎿❯⏺✻●]/.test(rows[j])) break;
      parts.push(rows[j]);
    }
    const message = normalizeSpace(parts.join(" "));
    const rule = matchRule(message, _RULES, _NOT_A_LIMIT);
    if (!rule) continue;
    return limitHit(rule.kind, message, opts, rule.final ? { final: true } : {});
  }
  return null;
}

/**
 * Claude Code 2.x's input box: between two full-width rules, `❯` and a no-break space before the
 * first row and two
 * spaces before the others; `Try "…"` while empty; a long paste collapsed to
 * `[Pasted text #1 +40 lines]`. `\` then Enter is its newline where Shift+Enter cannot be told
 * apart (tmux). Its built-in slash commands run locally and never reach the model.
 */
export const CLAUDE_INPUT_BOX: InputBox = {
  prompt: "❯ ",
  continuation: "  ",
  // While Up recalls history the rule above is titled: `─── History 18/18 ───…`.
  above: /^─{3,}(?: [^─]+ ─+)?\s*$/,
  below: /^─{8,}\s*$/,
  sideBorders: false,
  // The footer, a notice, and the @-path or slash-command suggestions under the box.
  maxRowsBelow: 12,
  placeholders: [/^Try "[^"]*"\s*$/],
  collapsedPaste: /\[Pasted text #\d+(?: \+\d+ lines)?\]/g,
  // From its bundled source: over 800 characters or more than min(rows - 10, 2) newlines.
  collapseAbove: { chars: 800, newlines: 2 },
  backslashEnter: true,
  trimsSubmission: true,
  localCommands: [
    "/help",
    "/clear",
    "/config",
    "/cost",
    "/usage",
    "/status",
    "/context",
    "/doctor",
    "/model",
    "/permissions",
    "/memory",
    "/agents",
    "/mcp",
    "/hooks",
    "/ide",
    "/theme",
    "/vim",
    "/terminal-setup",
    "/release-notes",
    "/resume",
    "/rewind",
    "/export",
    "/add-dir",
    "/login",
    "/logout",
    "/rate-limit-options",
    "/exit",
    "/quit",
  ],
};

/** The Claude Code adapter. */
export const claude: Adapter = {
  name: "claude",
  displayName: "Claude Code",
  binNames: ["claude"],
  installHint: "npm install -g @anthropic-ai/claude-code",
  resumeFlags: _RESUME,
  roads: _ROADS,
  defaultRoad: "hook",
  roadCap: (road) => (road === "hook" ? CLAUDE_HOOK_CAP : null),
  proveInitialPrompt: (help) =>
    proveByHelpLine(
      help,
      [/^Usage: claude \[options\] \[command\] \[prompt\]/],
      "'Usage: claude [options] [command] [prompt]'",
    ),
  launch: _launch,
  detectLimit: _detect,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  inputBox: CLAUDE_INPUT_BOX,
};
