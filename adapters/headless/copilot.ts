/**
 * GitHub Copilot CLI headless: `copilot --output-format json [args] --prompt=PROMPT` (JSONL;
 * PROVIDERS.md §1.4). Non-interactive tool use needs `--allow-all-tools` (or `--yolo`), which
 * uuldana does not add on its own: put it in the agent's `args` in the config when wanted. Events
 * `{type, data, id, timestamp, parentId, ephemeral?}`, recorded from 1.0.102 against the local mock
 * (`testdata/corpus/headless/copilot-*.jsonl`): `session.*` notices, `user.message` {content},
 * `assistant.turn_start`, `model.call_start`, `assistant.message_delta` {deltaContent},
 * `assistant.message` {content, toolRequests}, `assistant.turn_end`, and a closing `result`
 * {sessionId, exitCode, usage} with no text (the answer is the message); `tool.execution_start`
 * {toolName, arguments} from its docs and session-event names. Each failed model call is an
 * ephemeral `model.call_failure` {statusCode, errorCode, errorType, errorMessage (the provider's
 * error body)}, then `assistant.turn_retry`; after 5 retries (~55 s) `session.error` {errorType:
 * "rate_limit", message: "Failed to get response from the AI model; retried 5 times … Last error:
 * 429 …", statusCode} and `result` {exitCode: 1}. A quota answer is a limit at its first failed
 * call; a per-minute 429 is left to its retries.
 *
 * The prompt: its `--help` names piped stdin as a prompt source beside `-i` and `-p` (`--fleet`:
 * "combine with -i, -p, or piped stdin"), and 1.0.102 with no `-p` and a piped stdin runs that
 * text non-interactively with `--output-format json` (checked for real, a 30,000-character prompt
 * included). So a handoff, and a prompt too long for one argument, go on stdin.
 *
 * @module
 */
import { fitsInArgument, type HeadlessAdapter, type HeadlessEvent } from "./event.ts";
import {
  arr,
  brief,
  type JsonObject,
  obj,
  parseJsonLine,
  perLineParser,
  str,
} from "./json_line.ts";
import { classifyLimit } from "./limit_text.ts";
import { USAGE_WORDS } from "../limit_messages.ts";
import { parseResetTime } from "../reset_time.ts";

/** Copilot CLI's structured mode. */
export const copilotHeadless: HeadlessAdapter = {
  name: "copilot",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "--output-format", "json", ...extraArgs];
    const arg = `--prompt=${prompt}`;
    return !keepOutOfArgv && fitsInArgument(arg)
      ? { argv: [...base, arg], stdin: null }
      : { argv: base, stdin: prompt };
  },
  newParser: () => perLineParser(_event),
};

// A failed model call: a quota answer (402/429 whose error names a quota or billing) is the limit
// now; anything else is left to Copilot's own retries and its closing `session.error`.
function _callFailure(data: JsonObject): HeadlessEvent[] {
  const status = data.statusCode;
  if (status !== 429 && status !== 402) return [];
  const body = str(data.errorMessage);
  const inner = body.startsWith("{") ? parseJsonLine(body) : null;
  const message = (inner?.kind === "object" ? str(inner.value.message) : "") || body ||
    `${status} ${str(data.errorCode)}`.trim();
  const words = `${str(data.errorCode)} ${str(data.errorType)} ${message}`;
  if (!USAGE_WORDS.test(words)) return [];
  return [{
    kind: "limit",
    message: `${status} ${message}`,
    resetsAt: parseResetTime(message, new Date()),
    retrying: true,
  }];
}

function _event(ev: JsonObject): HeadlessEvent[] {
  const data = obj(ev.data);
  switch (ev.type) {
    case "assistant.message": {
      const out: HeadlessEvent[] = [];
      const text = str(data.content).trim();
      if (text) out.push({ kind: "message", role: "agent", text });
      for (const req of arr(data.toolRequests).map(obj)) {
        out.push({ kind: "tool", summary: `${str(req.name) || "tool"} ${brief(req.arguments)}` });
      }
      return out;
    }
    case "tool.execution_start":
      return [{
        kind: "tool",
        summary: `${str(data.toolName) || "tool"} ${brief(data.arguments)}`,
      }];
    case "model.call_failure":
      return _callFailure(data);
    case "session.error": {
      const message = str(data.message) || str(data.errorType) || "error";
      const found = classifyLimit("copilot", message);
      const limit = found
        ? { kind: "limit" as const, message, resetsAt: found.resetsAt }
        : /rate_limit|quota/i.test(str(data.errorType))
        ? { kind: "limit" as const, message, resetsAt: null }
        : null;
      return [limit ?? { kind: "error", message }];
    }
    case "result": {
      const text = str(data.content) || str(ev.result);
      const isError = (typeof ev.exitCode === "number" && ev.exitCode !== 0) ||
        (typeof data.exitCode === "number" && data.exitCode !== 0);
      return [{ kind: "result", text, isError }];
    }
    default:
      // session.start, user.message (the prompt echo), deltas, tool completions, future types.
      return [];
  }
}
