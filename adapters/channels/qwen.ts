/**
 * Qwen Code's channel: Claude-style command hooks in a system-defaults settings file uuldana
 * writes into the launch's scratch folder and names with `QWEN_CODE_SYSTEM_DEFAULTS_PATH` (the
 * lowest settings layer: the user's, the project's and an administrator's system settings all
 * still apply; never `QWEN_CODE_SYSTEM_SETTINGS_PATH`, which would replace the administrator's).
 * Verified live on 0.24.4 (testdata/channels/qwen-0.24.4/): no trust gate for this layer (hooks
 * fired in a folder never trusted, as root and as an unprivileged user), nothing shown on screen.
 *
 * - `UserPromptSubmit`: `prompt` and `submitted_prompt` (the text as typed), `prompt_id`.
 * - `MessageDisplay`: `message_id`, `displayed_text` (cumulative), `is_final`.
 * - `Stop`: `last_assistant_message` (`[no response text]` when there was none).
 * - `StopFailure`: `error` (Qwen's class: `billing_error` for a quota, `rate_limit`, …),
 *   `error_details` (`… (cause: insufficient_quota: 429 …)`), `last_assistant_message` (the text
 *   Qwen shows). It fires only when Qwen gives up: a 429 naming its reset fails fast (about 5 s of
 *   the OpenAI SDK's own retries), a plain 429 or a 5xx is retried silently for many minutes.
 * - `Notification` `idle_prompt`: the prompt is back; the only event of an interrupted turn.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import type {
  AgentChannel,
  ChannelCheck,
  ChannelEvent,
  ChannelParseOptions,
  ChannelParser,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import type { LaunchFile } from "../adapter.ts";
import { USAGE_WORDS } from "../limit_messages.ts";
import { limitRules } from "../limit_data.ts";
import { limitHit, matchRule, normalizeSpace, ruleHit } from "../screen_text.ts";

/** The hooks uuldana adds, in the order Qwen fires them. */
export const QWEN_CHANNEL_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "MessageDisplay",
  "Stop",
  "StopFailure",
  "Notification",
  "SessionEnd",
] as const;

/** The settings file uuldana writes into the launch's scratch folder. */
export const QWEN_DEFAULTS_FILE = "qwen-system-defaults.json";

/** Seconds Qwen may wait for our hook (it returns in milliseconds; this bounds a stuck one). */
const _TIMEOUT_S = 5;
/** A turn's displayed text kept, at most (code units). */
const _TURN_TEXT_MAX = 256 * 1024;

/** The system-defaults settings that add our hooks, one group per event. */
export function qwenDefaults(relay: ChannelRelay): string {
  const hooks: Record<string, unknown> = {};
  for (const event of QWEN_CHANNEL_EVENTS) {
    hooks[event] = [{
      hooks: [{ type: "command", command: relay.command(event), timeout: _TIMEOUT_S }],
    }];
  }
  return JSON.stringify({ hooks });
}

/** What turns the channel on for one launch: the defaults file and the variable naming it. */
export function qwenChannelLaunch(
  relay: ChannelRelay,
  scratchDir: string,
): { env: Record<string, string>; files: LaunchFile[] } {
  const path = join(scratchDir, QWEN_DEFAULTS_FILE);
  return {
    env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: path },
    files: [{ path, content: qwenDefaults(relay), mode: 0o600 }],
  };
}

// Where Qwen looks for the system files when no variable names them (0.24.4 `getSystemSettingsPath`).
function _systemSettingsPath(env: Readonly<Record<string, string>>): string {
  const named = env.QWEN_CODE_SYSTEM_SETTINGS_PATH ?? process.env.QWEN_CODE_SYSTEM_SETTINGS_PATH;
  if (named) return named;
  if (process.platform === "darwin") return "/Library/Application Support/QwenCode/settings.json";
  return "/etc/qwen-code/settings.json";
}

/**
 * Why the channel cannot be on for this launch: arguments that turn Qwen's hooks off, or a
 * system-defaults file someone else already provides (pointing Qwen at ours would hide it).
 */
export function qwenOffReason({ extraArgs, env }: ChannelCheck): string | null {
  const flag = extraArgs.find((a) => a === "--bare" || a === "--safe-mode");
  if (flag) return `${flag} turns Qwen's hooks off`;
  const named = env.QWEN_CODE_SYSTEM_DEFAULTS_PATH ?? process.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH;
  if (named) {
    return `QWEN_CODE_SYSTEM_DEFAULTS_PATH already names ${named}; uuldana does not hide it`;
  }
  const own = join(dirname(_systemSettingsPath(env)), "system-defaults.json");
  if (existsSync(own)) return `${own} exists; uuldana does not hide an administrator's defaults`;
  return null;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

// `… (cause: insufficient_quota: 429 Your quota …)`: the provider's code and status.
const _CAUSE = /\(cause: ([A-Za-z][\w.-]*): (\d{3})\b/;

/**
 * What a StopFailure means: a limit when Qwen calls it a rate limit or a billing error and its text
 * says so (a quota, a 429); anything else is an error, not a limit.
 */
export function qwenFailure(
  error: string,
  shown: string,
  details: string,
  opts: ChannelParseOptions,
): ChannelEvent {
  const text = normalizeSpace(shown || details);
  const cause = _CAUSE.exec(details) ?? _CAUSE.exec(shown);
  const provider = {
    ...(cause ? { status: Number(cause[2]), code: cause[1] } : { code: error }),
  };
  if (error === "rate_limit" || error === "billing_error") {
    const rule = matchRule(text, limitRules("qwen", "line")) ??
      matchRule(text, limitRules("qwen", "api"));
    if (rule) return { type: "limit", ...ruleHit(rule, text, opts), ...provider };
    const usage = error === "billing_error" || USAGE_WORDS.test(text);
    const hit = usage
      ? limitHit("usage", text, opts)
      : limitHit("rate", text, opts, { final: true });
    return { type: "limit", ...hit, ...provider };
  }
  return { type: "error", message: text || error, ...provider };
}

// The text messages of the open turn, as displayed (cumulative per message), bounded.
class _QwenParser implements ChannelParser {
  #messages = new Map<string, string>();
  #size = 0;
  #open = false;

  parse(record: ChannelRecord, opts: ChannelParseOptions): ChannelEvent[] {
    const d = (record.data ?? {}) as Record<string, unknown>;
    if (typeof d !== "object") return [];
    switch (record.name) {
      case "SessionStart":
        return [{ type: "session", phase: "start", detail: _str(d.source) ?? undefined }];
      case "UserPromptSubmit": {
        const prompt = _str(d.submitted_prompt) ?? _str(d.prompt);
        if (prompt === null) return [];
        this.#reset();
        this.#open = true;
        return [{ type: "prompt", text: prompt }, { type: "busy" }];
      }
      case "MessageDisplay": {
        const id = _str(d.message_id) ?? "";
        const text = _str(d.displayed_text) ?? "";
        const before = this.#messages.get(id)?.length ?? 0;
        if (!text || this.#size - before + text.length > _TURN_TEXT_MAX) return [];
        this.#messages.set(id, text);
        this.#size += text.length - before;
        return [];
      }
      case "Stop": {
        const text = this.#reply(_str(d.last_assistant_message));
        this.#open = false;
        return [...(text ? [{ type: "reply" as const, text }] : []), { type: "idle" }];
      }
      case "StopFailure": {
        // Its text is Qwen's error message, not the model's: the reply is what was displayed.
        const text = this.#reply(null);
        this.#open = false;
        const failure = qwenFailure(
          _str(d.error) ?? "unknown",
          _str(d.last_assistant_message) ?? "",
          _str(d.error_details) ?? "",
          opts,
        );
        return [...(text ? [{ type: "reply" as const, text }] : []), failure, { type: "idle" }];
      }
      case "Notification": {
        // After Stop it repeats the idle; alone, it is the end of an interrupted turn.
        if (_str(d.notification_type) !== "idle_prompt" || !this.#open) return [];
        this.#reset();
        this.#open = false;
        return [{ type: "idle" }];
      }
      case "SessionEnd":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
    }
    return [];
  }

  // The turn's text: every message it displayed, in order, and Stop's own last message when the
  // display did not carry it. The turn is then forgotten.
  #reply(last: string | null): string {
    const tail = last === "[no response text]" ? "" : last?.trim() ?? "";
    const shown = [...this.#messages.values()].map((m) => m.trim()).filter((m) => m !== "");
    this.#reset();
    if (tail && !shown.some((m) => m.includes(tail))) shown.push(tail);
    return shown.join("\n\n");
  }

  #reset(): void {
    this.#messages = new Map();
    this.#size = 0;
  }
}

/** Qwen Code's channel declaration. */
export const QWEN_CHANNEL: AgentChannel = {
  kind: "hooks",
  // It reports a limit at the provider's error (a retry, a failed call, a stop on a quota).
  reportsLimits: true,
  enables: "command hooks in a system-defaults file of its own (QWEN_CODE_SYSTEM_DEFAULTS_PATH; " +
    "SessionStart, UserPromptSubmit, MessageDisplay, Stop, StopFailure, Notification, " +
    "SessionEnd), each running uuldana's relay",
  events: QWEN_CHANNEL_EVENTS,
  offReason: qwenOffReason,
  parser: () => new _QwenParser(),
};
