/**
 * pi's channel: uuldana's extension (`pi_extension.ts`), loaded with `pi -e FILE` from the launch's
 * scratch folder, writes a record per pi event into the run's channel folder. Verified live on pi
 * 0.73.1 (testdata/channels/pi-0.73.1/): `input` carries the exact text pi received (typed, pasted,
 * or the opening `@FILE` as pi wraps it, `<file name="…">…</file>`; slash commands fire none),
 * `agent_start`/`agent_end` bracket every attempt of a turn (each of pi's retries is another
 * pair), an assistant `message_end` has the text and, on a failed request, `stopReason: "error"`
 * with the provider's error in `errorMessage` — at the first answer, before pi's own retries (its
 * provider's SDK may have retried quietly before that).
 *
 * @module
 */
import type { AgentChannel, ChannelEvent, ChannelParseOptions, ChannelParser } from "../channel.ts";
import { normalizeSpace } from "../screen_text.ts";
import { piErrorHit } from "../pi_limit.ts";

/** The extension's event names, in the order pi fires them in a session. */
export const PI_CHANNEL_EVENTS = [
  "session_start",
  "input",
  "agent_start",
  "message_end",
  "agent_end",
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
  // `--no-extensions` turns discovery off; an explicit `-e` still loads (pi's --help).
  offReason: () => null,
  parser: () => new _PiParser(),
};
