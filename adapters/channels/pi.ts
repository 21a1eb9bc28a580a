/**
 * pi's channel: uuldana's extension (`pi_extension.ts`), loaded with `pi -e FILE` from the launch's
 * scratch folder, writes a record per pi event into the run's channel folder. Verified live on pi
 * 0.73.1 (testdata/channels/pi-0.73.1/): `input` carries the exact text pi received (typed, pasted,
 * or the opening `@FILE` as pi wraps it, `<file name="…">…</file>`; slash commands fire none),
 * `agent_start`/`agent_end` bracket every attempt of a turn (each of pi's retries is another
 * pair), an assistant `message_end` has the text and, on a failed request, `stopReason: "error"`
 * with the provider's error in `errorMessage` — before pi's own retries, but only once its
 * provider's SDK gave up its quiet ones (the OpenAI SDK's two, ~1.5 s for a 429). Hence the
 * extension's `provider_error` (not a pi event: the extension reads the provider's failed answer
 * off the process's `fetch`): the status and error body of each failed answer, the first one
 * included; a quota or rate limit in it is reported with the provider's code at once.
 *
 * @module
 */
import type { AgentChannel, ChannelEvent, ChannelParseOptions, ChannelParser } from "../channel.ts";
import { normalizeSpace } from "../screen_text.ts";
import { piErrorHit } from "../pi_limit.ts";
import { statedExitCode, toolAction } from "./tool_action.ts";

/** The extension's event names, in the order pi fires them in a session. */
export const PI_CHANNEL_EVENTS = [
  "session_start",
  "input",
  "agent_start",
  "message_end",
  "tool_result",
  "agent_end",
  "provider_error",
  "session_shutdown",
] as const;

/** A turn's text kept from its messages, at most (code units). */
const _TURN_TEXT_MAX = 256 * 1024;

// The provider's status and error code in pi's error text (`429 You exceeded …`, a JSON body).
const _STATUS = /^(\d{3})\b/;
const _CODE =
  /\b(insufficient_quota|usage_limit_reached|rate_limit_exceeded|rate_limit_error|resource_exhausted|overloaded_error)\b/i;

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** What a failed assistant message means: a limit, or an error that is not one. */
export function piFailure(errorMessage: string, opts: ChannelParseOptions): ChannelEvent {
  const text = normalizeSpace(errorMessage);
  const status = _STATUS.exec(text);
  const code = _CODE.exec(text);
  const extra = {
    ...(status ? { status: Number(status[1]) } : {}),
    ...(code ? { code: code[1].toLowerCase() } : {}),
  };
  const hit = piErrorHit(text, opts);
  return hit ? { type: "limit", ...hit, ...extra } : { type: "error", message: text, ...extra };
}

function _rec(v: unknown): Record<string, unknown> | null {
  return v && typeof v === "object" && !Array.isArray(v) ? v as Record<string, unknown> : null;
}

/**
 * What a failed answer of the provider means (`status`, its error `body` as sent: OpenAI's
 * `{"error":{"message","type","code"}}`, Anthropic's `{"error":{"type","message"}}`, Google's
 * `{"error":{"message","status"}}`): the limit pi will show a moment later (its text is the SDK's
 * `STATUS message`), with the provider's code; null for any other error (pi's own message tells,
 * once its retries are over).
 */
export function piProviderError(
  status: number,
  body: string,
  opts: ChannelParseOptions,
): ChannelEvent | null {
  let error: Record<string, unknown> | null = null;
  try {
    const parsed = _rec(JSON.parse(body));
    error = _rec(parsed?.error) ?? parsed;
  } catch { /* not JSON: its text as sent */ }
  const message = (error && _str(error.message)) ?? body;
  const code = error ? _str(error.code) ?? _str(error.type) ?? _str(error.status) : null;
  const hit = piErrorHit(normalizeSpace(`${status} ${message}`), opts);
  if (!hit) return null;
  return { type: "limit", ...hit, status, ...(code ? { code: code.toLowerCase() } : {}) };
}

// One attempt's text (its assistant messages, in order) until its agent_end; bounded.
class _PiParser implements ChannelParser {
  #text: string[] = [];
  #size = 0;

  parse(record: { name: string; data: unknown }, opts: ChannelParseOptions): ChannelEvent[] {
    const d = (record.data ?? {}) as Record<string, unknown>;
    if (typeof d !== "object") return [];
    switch (record.name) {
      case "session_start":
        return [{ type: "session", phase: "start", detail: _str(d.reason) ?? undefined }];
      case "input": {
        const text = _str(d.text);
        return text === null ? [] : [{ type: "prompt", text }];
      }
      case "agent_start":
        this.#text = [];
        this.#size = 0;
        return [{ type: "busy" }];
      case "message_end": {
        const text = _str(d.text)?.trim() ?? "";
        if (text && this.#size < _TURN_TEXT_MAX) {
          const kept = text.slice(0, _TURN_TEXT_MAX - this.#size);
          this.#text.push(kept);
          this.#size += kept.length;
        }
        const error = _str(d.errorMessage);
        return d.stopReason === "error" && error ? [piFailure(error, opts)] : [];
      }
      case "agent_end": {
        const text = this.#text.join("\n\n");
        this.#text = [];
        this.#size = 0;
        return [...(text ? [{ type: "reply" as const, text }] : []), { type: "idle" }];
      }
      case "provider_error": {
        const status = typeof d.status === "number" ? d.status : null;
        const event = status === null ? null : piProviderError(status, _str(d.body) ?? "", opts);
        return event ? [event] : [];
      }
      case "tool_result": {
        // The extension's copy of pi's `tool_result`: name, target arguments, isError, the end of
        // a failed call's text (pi's bash ends it with "Command exited with code N").
        const tool = _str(d.toolName);
        if (!tool) return [];
        const failed = d.isError === true;
        const exitCode = failed ? statedExitCode(d.ending) : null;
        return [{ type: "tool", ...toolAction(tool, d.input, { failed, exitCode }) }];
      }
      case "session_shutdown":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
    }
    return [];
  }
}

/** pi's channel declaration. */
export const PI_CHANNEL: AgentChannel = {
  kind: "plugin",
  enables: "-e with uuldana's extension file (in the run's scratch folder) and " +
    "UULDANA_PI_CHANNEL naming the run's channel folder",
  events: PI_CHANNEL_EVENTS,
  reportsLimits: true,
  // `--no-extensions` turns discovery off; an explicit `-e` still loads (pi's --help).
  offReason: () => null,
  parser: () => new _PiParser(),
};
