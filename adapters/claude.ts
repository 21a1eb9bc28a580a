/**
 * Claude Code (`claude`): hook road (SessionStart `additionalContext` via inline `--settings`),
 * prompt road (positional prompt), paste road. Its screen (limit detection, input box) is read in
 * `claude_screen.ts`.
 *
 * @module
 */
import { join } from "node:path";
import type { Adapter, Launch, LaunchRequest, Road } from "./adapter.ts";
import { shellQuote } from "./channel.ts";
import { CLAUDE_CHANNEL, claudeChannelHooks, type ClaudeHookGroup } from "./channels/claude.ts";
import { refuseResume, requireArgFits, requireRoad, RoadError } from "./launch_rules.ts";
import { helpLineProof } from "./proof.ts";
import {
  CLAUDE_CHROME_ROWS,
  CLAUDE_INPUT_BOX,
  detectClaudeLimit,
  detectClaudeWarning,
} from "./claude_screen.ts";

export { CLAUDE_INPUT_BOX };

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
    return {
      argv: [req.bin, ...req.extraArgs, ...settings, "--", req.handoff],
      opening: req.handoff,
    };
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
    opening: kickoff,
  };
}

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
  proveInitialPrompt: helpLineProof(
    /^Usage: claude \[options\] \[command\] \[prompt\]/,
    "Usage: claude [options] [command] [prompt]",
  ),
  launch: _launch,
  detectLimit: detectClaudeLimit,
  detectWarning: detectClaudeWarning,
  quitKeys: ["\x03", "\x03"],
  submitKey: "\r",
  inputBox: CLAUDE_INPUT_BOX,
  chromeRows: CLAUDE_CHROME_ROWS,
  // Its footer while a turn runs (2.1.332; 2.1.197 on its spinner row); "Esc to cancel" is the
  // wait for a limit's reset, not work.
  workingRow: /\besc to interrupt\b/i,
  channel: CLAUDE_CHANNEL,
};
