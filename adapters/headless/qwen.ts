/**
 * Qwen Code headless: `qwen -o stream-json [args] PROMPT` (positional is one-shot; `-p` is
 * deprecated). Its stream-json follows Claude's event format (`system`, `assistant`, `user`,
 * `result`), plus `stream_event`s of its own (its goal state). `-p` text is appended to stdin
 * input, so a prompt too long for one argument, and a handoff, go on stdin with a short `-p`
 * pointing at it. Recorded from 0.24.4 against the local mock (`testdata/corpus/headless/qwen-*`):
 * `system` init, a `stream_event`, the `assistant` message, `result`; a per-minute 429 it retries
 * unseen and answers.
 *
 * A quota the provider answers with a 429 (DashScope's `Free allocated quota exceeded.`) is
 * retried by Qwen 0.24.4 for tens of minutes: silently at first (its SDK and its backoff), then,
 * about 100 s after the first answer, `{"type":"system","subtype":"retry","data":{"reason":
 * "retry","attempt":1,"maxRetries":10,"delayMs":60000,…}}` on stdout and `Retrying in 60s
 * (attempt 1/10): [API Error: 429 Free allocated quota exceeded.]` on stderr before each wait (60,
 * 120, 240, 300 s…), and a retry event without `attempt` after it. Only the stderr line names the
 * error: when it is a quota (Qwen's own rule list, the same data as its screen) it is a limit at
 * once, and the stdout events of the retries are too; a passing rate limit is left to Qwen's
 * retries. A quota whose text names its reset fails fast (exit 1): an assistant message
 * `Quota exhausted: … will reset at …`, then an error `result`. Such a closing message
 * (`Quota exhausted: …`, `[API Error: …]`) is Qwen's report of the provider's error, never a turn.
 *
 * @module
 */
import {
  fitsInArgument,
  type HeadlessAdapter,
  type HeadlessEvent,
  STDIN_FOLLOW_UP,
} from "./event.ts";
import { claudeStreamParser } from "./claude_stream.ts";
import { type JsonObject, obj } from "./json_line.ts";
import { classifyLimit } from "./limit_text.ts";
import { qwenChannelLaunch } from "../channels/qwen.ts";

/**
 * How Qwen's closing message of a failed turn starts (0.24.4, `parseAndFormatApiError`): the
 * provider's error in brackets, a quota that names its reset (`Quota exhausted: …`, recorded), or
 * its OAuth tier's own notices.
 */
const _PROVIDER_ERROR =
  /^(?:\[API Error: |Quota exhausted: |Qwen OAuth quota exceeded:|Qwen OAuth free tier has been discontinued)/;

/** Qwen's stderr line before each retry (0.24.4, `emitRetryProgress`). */
const _RETRY_LINE = /^Retrying in (\d+)s \(attempt (\d+)\/(\d+)\)(?:: (.*))?$/;

/** Qwen Code's structured mode. */
export const qwenHeadless: HeadlessAdapter = {
  name: "qwen",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "-o", "stream-json", ...extraArgs];
    return !keepOutOfArgv && fitsInArgument(prompt)
      ? { argv: [...base, prompt], stdin: null }
      : { argv: [...base, "-p", STDIN_FOLLOW_UP], stdin: prompt };
  },
  newParser() {
    // The quota the latest stderr retry line named (the stdout event of the same retry follows it).
    let quota: HeadlessEvent | null = null;
    const retry = (ev: JsonObject): HeadlessEvent[] | null => {
      if (ev.type !== "system" || ev.subtype !== "retry") return null;
      return quota && obj(ev.data).reason !== "model_fallback" ? [quota] : [];
    };
    const parser = claudeStreamParser({
      agent: "qwen",
      providerError: _PROVIDER_ERROR,
      extra: retry,
    });
    return {
      ...parser,
      parseStderr(line: string): HeadlessEvent[] {
        const m = _RETRY_LINE.exec(line.trim());
        if (!m || !m[4]) return [];
        const found = classifyLimit("qwen", m[4]);
        if (found?.limitKind !== "usage") {
          quota = null;
          return [];
        }
        quota = { kind: "limit", message: found.message, resetsAt: found.resetsAt, retrying: true };
        return [quota];
      },
    };
  },
  // Its telemetry reports the provider's first quota answer (~1–2 s); its stream says it only at
  // its first retry, ~90 s later.
  channelLaunch: (relay, scratchDir) => qwenChannelLaunch(relay, scratchDir),
};
