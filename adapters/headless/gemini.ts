/**
 * Gemini CLI headless: `gemini -o stream-json [args] --prompt=PROMPT` (PROVIDERS.md §1.4; the `=`
 * form keeps a prompt that starts with `-` a value). Events: `init`, `message` {role, content,
 * delta?}, `tool_use` {tool_name, parameters}, `tool_result`, `error` {severity, message},
 * `result` {status, error?: {type, message}, stats}. Recorded from 0.61.0 against the local mock
 * (`testdata/corpus/headless/gemini-*.jsonl`): `init`, the prompt echoed as a user `message`, the
 * reply as assistant `message`s with `delta: true`, `result` {status: "success"}; the tool events
 * and `error` come from its docs. Assistant deltas are joined into one message per turn. `-p` is
 * appended to stdin input, so a prompt too long for one argument goes on stdin. A quota ends the
 * run as its result, `{"type":"result","status":"error","error":{"type":"unknown","message":"[API
 * Error: …]"}}` with exit code 173 (recorded: "You have exhausted your daily quota on this
 * model."; reported: "Quota exceeded for quota metric … reset after 2h17m0s"): a limit, its reset
 * read from the text when it gives one. A per-minute quota it retries shows only on stderr
 * (`Attempt 1 failed: … Retrying after 5552ms...`); its stream waits for the answer.
 *
 * @module
 */
import {
  fitsInArgument,
  type HeadlessAdapter,
  type HeadlessEvent,
  type HeadlessParser,
  STDIN_FOLLOW_UP,
} from "./event.ts";
import { brief, type JsonObject, obj, parseJsonLine, str } from "./json_line.ts";
import { classifyLimit } from "./limit_text.ts";

/** Gemini CLI's structured mode. */
export const geminiHeadless: HeadlessAdapter = {
  name: "gemini",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "-o", "stream-json", ...extraArgs];
    const arg = `--prompt=${prompt}`;
    return !keepOutOfArgv && fitsInArgument(arg)
      ? { argv: [...base, arg], stdin: null }
      : { argv: [...base, `--prompt=${STDIN_FOLLOW_UP}`], stdin: prompt };
  },
  newParser: () => geminiStreamParser(),
};

/** A parser for Gemini `stream-json` lines (joins assistant deltas into one message). */
export function geminiStreamParser(now: () => Date = () => new Date()): HeadlessParser {
  let pending = "";
  let lastAgentText = "";
  const flush = (): HeadlessEvent[] => {
    const text = pending.trim();
    pending = "";
    if (text === "") return [];
    lastAgentText = text;
    return [{ kind: "message", role: "agent", text }];
  };
  return {
    parse(line: string): HeadlessEvent[] {
      const parsed = parseJsonLine(line);
      if (parsed.kind === "blank") return [];
      if (parsed.kind === "malformed") return [parsed];
      const ev = parsed.value;
      if (ev.type === "message" && ev.role === "assistant") {
        const content = str(ev.content);
        // Without `delta`, a message is whole: it ends any streamed one before it.
        if (ev.delta === true) {
          pending += content;
          return [];
        }
        const before = flush();
        pending = content;
        return [...before, ...flush()];
      }
      const out = flush();
      if (ev.type === "result") {
        return [...out, ..._result(ev, lastAgentText, now())];
      }
      return [...out, ..._event(ev, now())];
    },
    finish: flush,
  };
}

function _event(ev: JsonObject, now: Date): HeadlessEvent[] {
  switch (ev.type) {
    case "message": {
      const text = str(ev.content).trim();
      return ev.role === "user" && text ? [{ kind: "message", role: "user", text }] : [];
    }
    case "tool_use":
      return [{ kind: "tool", summary: `${str(ev.tool_name) || "tool"} ${brief(ev.parameters)}` }];
    case "error": {
      const message = str(ev.message) || "error";
      return [_limitOf(message, now) ?? { kind: "error", message }];
    }
    default:
      // init, tool_result, future types.
      return [];
  }
}

function _result(ev: JsonObject, lastAgentText: string, now: Date): HeadlessEvent[] {
  const isError = ev.status === "error" || (ev.status !== "success" && ev.error !== undefined);
  const out: HeadlessEvent[] = [];
  if (isError) {
    const error = obj(ev.error);
    const message = str(error.message) || str(error.type) || "error";
    const limit = _limitOf(message, now) ??
      (/quota|rate_?limit|resource_exhausted/i.test(str(error.type))
        ? { kind: "limit" as const, message, resetsAt: null }
        : null);
    out.push(limit ?? { kind: "error", message });
  }
  out.push({ kind: "result", text: str(ev.response) || lastAgentText, isError });
  return out;
}

function _limitOf(message: string, now: Date): HeadlessEvent | null {
  const found = classifyLimit("gemini", message, now);
  return found ? { kind: "limit", message: found.message, resetsAt: found.resetsAt } : null;
}
