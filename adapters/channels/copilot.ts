/**
 * GitHub Copilot CLI's channel: a plugin of uuldana's own, loaded with `--plugin-dir` from the
 * launch's scratch folder (`plugin.json` naming `hooks.json`; the user's plugins and settings
 * still load), whose command hooks run the relay. Verified live on 1.0.102
 * (testdata/channels/copilot-1.0.102/): the hooks run once the folder is trusted (Copilot's own
 * dialog, as without uuldana); nothing is shown on screen.
 *
 * - `userPromptSubmitted`: `prompt`, the submitted text.
 * - `agentStop`: `stopReason` only (no reply text: the reply stays with the screen).
 * - `errorOccurred`: for every failed model call (`errorContext: "model_call"`, `recoverable`),
 *   about 1 s after the provider's answer: `error.message` is the provider's error body
 *   (`{"message":…,"type":"insufficient_quota","code":"insufficient_quota"}`). Copilot retries five
 *   times (about a minute) and then shows `✗ Failed to get response …`, with no hook.
 * - An interrupted turn (Esc) fires nothing.
 *
 * @module
 */
import { join } from "node:path";
import type {
  AgentChannel,
  ChannelEvent,
  ChannelParseOptions,
  ChannelParser,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import type { LaunchFile } from "../adapter.ts";
import { USAGE_WORDS } from "../limit_messages.ts";
import { limitHit, normalizeSpace } from "../screen_text.ts";
import { statedExitCode, toolAction } from "./tool_action.ts";

/** The hooks uuldana's plugin declares. */
export const COPILOT_CHANNEL_EVENTS = [
  "sessionStart",
  "userPromptSubmitted",
  "agentStop",
  "errorOccurred",
  "postToolUse",
  "sessionEnd",
] as const;

/** The plugin's folder in the launch's scratch folder. */
export const COPILOT_PLUGIN_DIR = "copilot-plugin";

/** Seconds Copilot may wait for our hook (it returns in milliseconds). */
const _TIMEOUT_S = 5;

/** The plugin's files and the arguments that load it. */
export function copilotChannelLaunch(
  relay: ChannelRelay,
  scratchDir: string,
): { args: string[]; files: LaunchFile[] } {
  const dir = join(scratchDir, COPILOT_PLUGIN_DIR);
  const hooks: Record<string, unknown> = {};
  for (const event of COPILOT_CHANNEL_EVENTS) {
    hooks[event] = [{ type: "command", bash: relay.command(event), timeoutSec: _TIMEOUT_S }];
  }
  return {
    args: ["--plugin-dir", dir],
    files: [
      {
        path: join(dir, "plugin.json"),
        content: JSON.stringify({ name: "uuldana-channel", version: "1.0.0", hooks: "hooks.json" }),
        mode: 0o600,
      },
      {
        path: join(dir, "hooks.json"),
        content: JSON.stringify({ version: 1, hooks }),
        mode: 0o600,
      },
    ],
  };
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function _rec(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" ? v as Record<string, unknown> : {};
}

const _RATE = /rate.?limit|too many requests|\b429\b/i;

/**
 * What a failed model call means: a usage limit when the provider's error names a quota, billing
 * or credits; a rate limit (Copilot retries it) when it says so; else not a limit (null: Copilot
 * retries a server error, and its turn fails only later, on screen).
 */
export function copilotModelError(
  error: unknown,
  recoverable: boolean,
  opts: ChannelParseOptions,
): ChannelEvent | null {
  const raw = _str(_rec(error).message) ?? "";
  let body: Record<string, unknown> = {};
  try {
    body = _rec(JSON.parse(raw));
  } catch { /* not the provider's JSON body */ }
  const message = normalizeSpace(_str(body.message) ?? raw);
  const code = _str(body.code) ?? _str(body.type) ?? undefined;
  const provider = code ? { code } : {};
  // The provider's code says it first: OpenAI's rate-limit text mentions billing too.
  const usage = code ? USAGE_WORDS.test(code) : USAGE_WORDS.test(message);
  const rate = code ? _RATE.test(code) : _RATE.test(message);
  if (usage) return { type: "limit", ...limitHit("usage", message, opts), ...provider };
  if (rate) {
    const final = recoverable ? {} : { final: true };
    return { type: "limit", ...limitHit("rate", message, opts, final), ...provider };
  }
  return recoverable
    ? null
    : { type: "error", message: message || "the model call failed", ...provider };
}

class _CopilotParser implements ChannelParser {
  parse(record: ChannelRecord, opts: ChannelParseOptions): ChannelEvent[] {
    const d = _rec(record.data);
    switch (record.name) {
      case "sessionStart":
        return [{ type: "session", phase: "start", detail: _str(d.source) ?? undefined }];
      case "userPromptSubmitted": {
        const prompt = _str(d.prompt);
        return prompt === null ? [] : [{ type: "prompt", text: prompt }, { type: "busy" }];
      }
      case "agentStop":
        return [{ type: "idle" }];
      case "errorOccurred": {
        if (_str(d.errorContext) !== "model_call") return [];
        const event = copilotModelError(d.error, d.recoverable !== false, opts);
        return event ? [event] : [];
      }
      case "postToolUse": {
        // {toolName, toolArgs (a JSON string), toolResult: {resultType, textResultForLlm}}.
        const tool = _str(d.toolName);
        if (!tool) return [];
        let args: unknown = d.toolArgs;
        if (typeof args === "string") {
          try {
            args = JSON.parse(args);
          } catch { /* kept as the text it is */ }
        }
        const result = _rec(d.toolResult);
        const failed = result.resultType === "failure" || result.resultType === "denied";
        const exitCode = statedExitCode(_str(result.textResultForLlm)?.slice(-400));
        return [{ type: "tool", ...toolAction(tool, args, { failed, exitCode }) }];
      }
      case "sessionEnd":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
    }
    return [];
  }
}

/** Copilot CLI's channel declaration. */
export const COPILOT_CHANNEL: AgentChannel = {
  kind: "hooks",
  // It reports a limit at the provider's error (a retry, a failed call, a stop on a quota).
  reportsLimits: true,
  enables: "a plugin of uuldana's own loaded with --plugin-dir (sessionStart, " +
    "userPromptSubmitted, agentStop, errorOccurred, sessionEnd), each running uuldana's relay",
  events: COPILOT_CHANNEL_EVENTS,
  offReason: () => null,
  parser: () => new _CopilotParser(),
};
