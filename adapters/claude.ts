/**
 * Claude Code (`claude`): hook road (SessionStart `additionalContext` via inline `--settings`),
 * prompt road (positional prompt), paste road. Limit messages sit on the `⎿` line under the
 * prompt echo; Claude then opens its limit menu or shows its input box again.
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
import { shellQuote } from "./channel.ts";
import { CLAUDE_CHANNEL, claudeChannelHooks, type ClaudeHookGroup } from "./channels/claude.ts";
import { refuseResume, requireArgFits, requireRoad, RoadError } from "./launch_rules.ts";
import { proveByHelpLine } from "./proof.ts";
import { CLAUDE_LIMITS, CLAUDE_NOT_LIMITS } from "./limit_messages.ts";
import {
  BUSY_ROW,
  hideDelivered,
  isRule,
  matchRule,
  normalizeSpace,
  promptAbove,
  ruleHit,
} from "./screen_text.ts";

/** Claude's SessionStart `additionalContext` ceiling, in characters. */
export const CLAUDE_HOOK_CAP = 10_000;

/** Name of the hook-output file written into the scratch directory. */
export const CLAUDE_HOOK_FILE = "claude-session-start.json";

const _ROADS: readonly Road[] = ["hook", "prompt", "paste"];
const _RESUME = ["-r", "--resume", "-c", "--continue", "--fork-session", "--session-id"];

/** The one-line prompt that starts the turn on the hook road. */
export function claudeKickoff(handoffFile?: string): string {
  const where = handoffFile ? ` (full text: ${handoffFile})` : "";
  return `Continue the work described in the uuldana handoff in your session context${where}.`;
}

/**
 * The inline `--settings` JSON uuldana passes: on the hook road a `startup` SessionStart hook that
 * `cat`s the hook-output file; with a channel, its hooks (beside the road's SessionStart).
 */
export function claudeSettings(
  opts: { hookFile?: string; channel?: (event: string) => string },
): string {
  const hooks: Record<string, ClaudeHookGroup[]> = opts.channel
    ? claudeChannelHooks(opts.channel)
    : {};
  if (opts.hookFile) {
    const road: ClaudeHookGroup = {
      matcher: "startup",
      hooks: [{ type: "command", command: `cat ${shellQuote(opts.hookFile)}`, timeout: 30 }],
    };
    hooks.SessionStart = [road, ...(hooks.SessionStart ?? [])];
  }
  return JSON.stringify({ hooks });
}

/** The `--settings` JSON that makes a `startup` SessionStart hook `cat` the hook-output file. */
export function claudeHookSettings(hookFile: string): string {
  return claudeSettings({ hookFile });
}

// The user's own `--settings` in the extra arguments: uuldana would replace it (Claude keeps one).
function _ownSettings(args: readonly string[]): boolean {
  return args.some((a) => a === "--settings" || a.startsWith("--settings="));
}

// The `--settings` arguments for this launch (none when there is nothing to add, or when the
// user passes their own and no road needs ours).
function _settingsArgs(req: LaunchRequest, hookFile?: string): string[] {
  const channel = req.channel && !_ownSettings(req.extraArgs) &&
      CLAUDE_CHANNEL.offReason({ extraArgs: req.extraArgs, env: {}, version: null }) === null
    ? req.channel.command
    : undefined;
  if (!hookFile && !channel) return [];
  return ["--settings", claudeSettings({ hookFile, channel })];
}

function _launch(req: LaunchRequest): Launch {
  const settings = _settingsArgs(req);
  if (req.handoff === null) return { argv: [req.bin, ...req.extraArgs, ...settings] };
  requireRoad("claude", req.road, _ROADS);
  refuseResume("claude", req.extraArgs, _RESUME);
  if (req.road === "paste") return { argv: [req.bin, ...req.extraArgs, ...settings] };
  if (req.road === "prompt") {
    requireArgFits("claude", req.handoff);
    // `--` ends options, so a variadic flag in extraArgs cannot swallow the prompt.
    return { argv: [req.bin, ...req.extraArgs, ...settings, "--", req.handoff] };
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
    argv: [req.bin, ...req.extraArgs, ..._settingsArgs(req, hookFile), "--", kickoff],
    files: [{ path: hookFile, content: output, mode: 0o600 }],
  };
}

// The prompt row at column 0: the echo of a submitted turn, or the input box (under a rule).
const _PROMPT = /^❯(?:\s|$)/;
// Claude opens its limit menu by running this command itself: its echo is part of the menu.
const _LIMIT_MENU_ECHO = /^❯ \/rate-limit-options\s*$/;
const _LIMIT_MENU = /^\s*(?:❯\s*)?\d\. Stop and wait for limit to reset/;
// A message header: `⏺` (macOS) or `●` (Linux, as real Claude 2.1.197 drew it in tmux).
const _TOOL_CALL = /^[⏺●] /;
// The row after a turn: "✻ Sautéed for 0s".
const _TURN_TIME = /^[✻✶✳✢✽·*]\s+\S+ for \d/;

const _isPrompt = (rows: readonly string[], i: number) =>
  _PROMPT.test(rows[i]) && !_LIMIT_MENU_ECHO.test(rows[i]);

/**
 * Where Claude is idle after a turn: its limit menu, or its input box (a `❯` row under a rule).
 * Returns the first row of that region, or -1 when Claude is still busy or shows neither.
 */
function _idleRegion(rows: readonly string[]): number {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (_LIMIT_MENU.test(rows[i])) {
      let top = i;
      while (top > 0 && !isRule(rows[top]) && !_LIMIT_MENU_ECHO.test(rows[top])) top--;
      return top;
    }
    if (_PROMPT.test(rows[i]) && i > 0 && isRule(rows[i - 1])) return i - 1;
  }
  return -1;
}

/**
 * Claude's limit: a `⎿` row at column 2 that answers the latest prompt echo directly (or follows
 * a tool result's own `⎿` block in that turn, never the first `⎿` under a `⏺` tool call, which is
 * the tool's output), is the last thing the turn shows, and Claude is idle below it (its input box
 * back or its limit menu open, no spinner).
 */
function _detect(lines: readonly string[], opts: DetectOptions): LimitHit | null {
  const rows = hideDelivered(lines, opts.delivered);
  const idle = _idleRegion(rows);
  if (idle < 0) return null;
  const echo = promptAbove(rows, idle, _isPrompt);
  if (echo < 0) return null;
  // The turn's last block: skip blank rows, the turn-time row, the limit menu's echo.
  let last = idle - 1;
  while (
    last > echo &&
    (rows[last].trim() === "" || _TURN_TIME.test(rows[last]) || _LIMIT_MENU_ECHO.test(rows[last]))
  ) last--;
  if (rows.slice(echo, idle).some((r) => BUSY_ROW.test(r))) return null;
  // Up from there over the message's continuation rows (indented 4 or more) to its `⎿` row.
  let at = last;
  while (at > echo && /^\s{4,}\S/.test(rows[at]) && !/^ {2}⎿/.test(rows[at])) at--;
  const m = /^ {2}⎿\s+(.*)$/.exec(rows[at]);
  if (!m || at <= echo) return null;
  if (!_answersTurn(rows, echo, at)) return null;
  const message = normalizeSpace([m[1], ...rows.slice(at + 1, last + 1)].join(" "));
  const rule = matchRule(message, CLAUDE_LIMITS, CLAUDE_NOT_LIMITS);
  return rule ? ruleHit(rule, message, opts) : null;
}

// The `⎿` row at `at` answers the turn whose echo is at `echo`: the header above it (the first row
// not indented, over continuation rows) is the echo itself, or a `⏺`/`●` tool call whose own `⎿`
// output block comes first.
function _answersTurn(rows: readonly string[], echo: number, at: number): boolean {
  let earlierResult = false;
  for (let i = at - 1; i >= echo; i--) {
    const r = rows[i];
    if (i === echo) return true;
    if (r.trim() === "") return false;
    if (/^ {2}⎿/.test(r)) {
      earlierResult = true;
      continue;
    }
    if (/^\s{2,}\S/.test(r)) continue;
    return _TOOL_CALL.test(r) && earlierResult;
  }
  return false;
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
  channel: CLAUDE_CHANNEL,
};
