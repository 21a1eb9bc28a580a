/**
 * OpenCode (and Kilo) headless: `opencode run --format json [args] PROMPT` (PROVIDERS.md §1.4).
 * Raw JSON events, recorded from 1.18.33 against the local mock
 * (`testdata/corpus/headless/opencode-*.jsonl`): `step_start`, `text` {part: {text}},
 * `tool_use` {part: {tool, state: {input, title, status, metadata}}}, `step_finish`, and `error`
 * {error: {name: "APIError", data: {message, statusCode, isRetryable, responseHeaders,
 * responseBody, metadata}}}; `reasoning` from its docs. A quota's 429 is its one `error` event
 * after ~78 s of silent retries (exit 1, nothing on stderr); a per-minute 429 it retries unseen
 * and answers. The reset comes from its text, else the provider's `retry-after` header. No stdin
 * road is documented for the prompt (non-TTY stdin is prepended to the message [from binary]), so
 * a prompt too long for one argument goes on stdin with a short message.
 *
 * @module
 */
import { toolAction } from "../channels/tool_action.ts";
import {
  fitsInArgument,
  type HeadlessAdapter,
  type HeadlessEvent,
  STDIN_FOLLOW_UP,
} from "./event.ts";
import { brief, type JsonObject, obj, perLineParser, str } from "./json_line.ts";
import { classifyLimit } from "./limit_text.ts";
import { inheritedEnv, openCodeChannelLaunch } from "../channels/opencode.ts";

/** The variable holding OpenCode's inline configuration, where its plugin is added. */
const _CONFIG_VAR = "OPENCODE_CONFIG_CONTENT";

/** OpenCode's structured mode. */
export const opencodeHeadless: HeadlessAdapter = {
  name: "opencode",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "run", "--format", "json", ...extraArgs];
    return !keepOutOfArgv && fitsInArgument(prompt)
      ? { argv: [...base, prompt], stdin: null }
      : { argv: [...base, STDIN_FOLLOW_UP], stdin: prompt };
  },
  newParser: () => perLineParser(_event),
  // Its plugin hears the quota in its first `session.status` retry (~0.4 s); its stream says
  // nothing until it gives up, ~80 s later.
  channelLaunch: (relay, scratchDir, env) =>
    openCodeChannelLaunch(relay, scratchDir, _CONFIG_VAR, inheritedEnv(env, _CONFIG_VAR)),
};

function _event(ev: JsonObject): HeadlessEvent[] {
  const part = obj(ev.part);
  switch (ev.type) {
    case "text": {
      const text = str(part.text).trim();
      return text && part.synthetic !== true ? [{ kind: "message", role: "agent", text }] : [];
    }
    case "tool_use": {
      const state = obj(part.state);
      const what = str(state.title) || brief(state.input);
      const summary: HeadlessEvent = {
        kind: "tool",
        summary: `${str(part.tool) || "tool"} ${what}`.trim(),
      };
      // A call that ended (`completed` or `error`) is what was done, with a command's `exit`.
      const status = str(state.status);
      if (!str(part.tool) || (status !== "completed" && status !== "error")) return [summary];
      const exit = obj(state.metadata).exit;
      const action = toolAction(str(part.tool), state.input, {
        failed: status === "error",
        exitCode: typeof exit === "number" ? exit : null,
      });
      return [summary, { kind: "action", action }];
    }
    case "error": {
      const error = obj(ev.error);
      const data = obj(error.data);
      const message = str(data.message) || str(error.message) || str(error.name) || "error";
      // A quota by OpenCode's own rule list (the same data as its screen), or any 429.
      const found = classifyLimit("opencode", message);
      const resetsAt = found?.resetsAt ?? retryAfter(obj(data.responseHeaders), new Date());
      return [
        found?.limitKind === "usage" || data.statusCode === 429
          ? { kind: "limit", message, resetsAt }
          : { kind: "error", message },
      ];
    }
    default:
      // step_start, step_finish, reasoning, future types.
      return [];
  }
}

/**
 * The instant a provider's `retry-after` header names (seconds, or an HTTP date), or null. Exported
 * for tests.
 */
export function retryAfter(headers: JsonObject, now: Date): string | null {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === "retry-after");
  const value = key ? str(headers[key]).trim() : "";
  if (/^\d+(?:\.\d+)?$/.test(value)) {
    return new Date(now.getTime() + Number(value) * 1000).toISOString();
  }
  const at = value ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}
