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
 * Its telemetry is a second road into the same channel, heard at the provider's first answer
 * while Qwen still retries silently (its hooks only speak once it gives up): the same defaults
 * file turns Qwen's OpenTelemetry on (`telemetry.enabled`, `otlpEndpoint` the run's loopback
 * receiver, `otlpProtocol: "http"`, `logPrompts: false`; never `outfile`, which would beat the
 * user's own endpoint). Being the lowest layer, the user's, project's and administrator's
 * telemetry settings still win; Qwen's `QWEN_TELEMETRY_*` and `OTEL_EXPORTER_OTLP_*` variables
 * beat every settings file, so when they are set the telemetry road stays off. Its records:
 *
 * - `qwen-code.api_error`: one failed model call (after the OpenAI SDK's own retries):
 *   `status_code`, `error_message` (`429 Free allocated quota exceeded.`), `error_type`.
 * - `qwen-code.api_retry`: Qwen's own retry of it: `attempt_number`, `status_code`,
 *   `error_message`, `retry_delay_ms`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { postToolUseAction } from "./tool_action.ts";
import type {
  AgentChannel,
  ChannelCheck,
  ChannelEvent,
  ChannelParseOptions,
  ChannelParser,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import type { LaunchFile, LimitHit } from "../adapter.ts";
import { USAGE_WORDS } from "../limit_messages.ts";
import { limitRules } from "../limit_data.ts";
import { limitHit, matchRule, normalizeSpace, ruleHit } from "../screen_text.ts";

/** The hooks uuldana adds, in the order Qwen fires them. */
export const QWEN_CHANNEL_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "MessageDisplay",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "StopFailure",
  "Notification",
  "SessionEnd",
] as const;

/** The telemetry log records kept (no other record, a prompt's above all, is ever held). */
export const QWEN_TELEMETRY_EVENTS = ["qwen-code.api_error", "qwen-code.api_retry"] as const;

/**
 * `model.generationConfig.maxRetries` in the same lowest layer, or null to leave Qwen's default.
 * Qwen 0.24.4 uses this one number twice: the OpenAI SDK's quiet retries of each call (default
 * 3, ~3.5 s of backoff before the first `api_error` is even logged) and its own rate-limit retry
 * loop (default 10, the first after 60 s). See docs/channels.md for the measurements and cost.
 */
export const QWEN_MAX_RETRIES: number | null = 1;

/** The settings file uuldana writes into the launch's scratch folder. */
export const QWEN_DEFAULTS_FILE = "qwen-system-defaults.json";

/** Seconds Qwen may wait for our hook (it returns in milliseconds; this bounds a stuck one). */
const _TIMEOUT_S = 5;
/** A turn's displayed text kept, at most (code units). */
const _TURN_TEXT_MAX = 256 * 1024;

/**
 * The system-defaults settings that add our hooks, one group per event, and, when the relay has
 * a receiver, Qwen's telemetry pointed at it.
 */
export function qwenDefaults(relay: ChannelRelay): string {
  const hooks: Record<string, unknown> = {};
  for (const event of QWEN_CHANNEL_EVENTS) {
    hooks[event] = [{
      hooks: [{ type: "command", command: relay.command(event), timeout: _TIMEOUT_S }],
    }];
  }
  if (!relay.otlpEndpoint) return JSON.stringify({ hooks });
  const telemetry = {
    enabled: true,
    otlpEndpoint: relay.otlpEndpoint,
    otlpProtocol: "http",
    logPrompts: false,
  };
  const model = QWEN_MAX_RETRIES === null
    ? {}
    : { model: { generationConfig: { maxRetries: QWEN_MAX_RETRIES } } };
  return JSON.stringify({ hooks, telemetry, ...model });
}

// Qwen's own telemetry variables and the standard OTLP exporter's: each beats every settings file.
const _TELEMETRY_ENV = /^(?:QWEN_TELEMETRY_|OTEL_EXPORTER_OTLP_)/;

/**
 * Why Qwen's telemetry road cannot be on for this launch: the user's environment or arguments
 * set its telemetry (they beat every settings file, so ours would send the user's telemetry
 * elsewhere or be ignored), or null.
 */
export function qwenTelemetryOffReason({ extraArgs, env }: ChannelCheck): string | null {
  const flag = extraArgs.find((a) => /^--telemetry(?:-|=|$)/.test(a));
  if (flag) return `${flag.split("=")[0]} sets Qwen's telemetry; uuldana leaves it to you`;
  const names = [...Object.keys(env), ...Object.keys(process.env)].filter((k) =>
    _TELEMETRY_ENV.test(k)
  );
  if (names.length) {
    return `your environment sets ${names[0]}; uuldana leaves Qwen's telemetry to you`;
  }
  return null;
}

/**
 * A failed model call Qwen reports (telemetry's `api_error`, `api_retry`) as a limit, classified
 * by its status and message through the same rules as its screen's `[API Error: …]` row
 * (the `api` messages of adapters/limits/qwen.json): a quota is a usage limit at its first answer; any other 429 a rate limit
 * Qwen is still retrying (its attempt and wait when known); anything else none (null).
 */
export function qwenApiErrorHit(
  status: number | null,
  message: string,
  opts: ChannelParseOptions,
  retry: { attempt?: number; waitSeconds?: number } = {},
): LimitHit | null {
  const text = normalizeSpace(message);
  const rule = matchRule(text, limitRules("qwen", "api"));
  if (rule?.kind === "usage") return limitHit("usage", text, opts);
  if (status === 429 || rule) return limitHit("rate", text || `${status}`, opts, retry);
  return null;
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
      case "PostToolUse":
      case "PostToolUseFailure": {
        // Claude's fields, from Qwen 0.24.4's firePostToolUseHook / firePostToolUseFailureHook.
        const action = postToolUseAction(record.name, d);
        return action ? [{ type: "tool", ...action }] : [];
      }
      case "SessionEnd":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
      case "qwen-code.api_error":
      case "qwen-code.api_retry":
        return _apiError(record.name, d, opts);
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

// A telemetry record of a failed call: a limit when its status and message make it one.
function _apiError(
  name: string,
  d: Record<string, unknown>,
  opts: ChannelParseOptions,
): ChannelEvent[] {
  const status = typeof d.status_code === "number"
    ? d.status_code
    : typeof d["http.status_code"] === "number"
    ? d["http.status_code"] as number
    : null;
  const message = _str(d.error_message) ?? _str(d["error.message"]) ?? "";
  const retry = name === "qwen-code.api_retry"
    ? {
      ...(typeof d.attempt_number === "number" ? { attempt: d.attempt_number } : {}),
      ...(typeof d.retry_delay_ms === "number"
        ? { waitSeconds: Math.round(d.retry_delay_ms / 1000) }
        : {}),
    }
    : {};
  const hit = qwenApiErrorHit(status, message, opts, retry);
  if (!hit) return [];
  const code = _str(d.error_type) ?? _str(d["error.type"]) ?? name.replace("qwen-code.", "");
  return [{ type: "limit", ...hit, ...(status !== null ? { status } : {}), code }];
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
  telemetry: { events: QWEN_TELEMETRY_EVENTS, offReason: qwenTelemetryOffReason },
};
