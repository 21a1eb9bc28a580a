/**
 * The Claude Code `stream-json` event format, which Qwen Code's `stream-json` follows too:
 * `system`, `assistant` / `user` messages whose `content` is a list of blocks (`text`, `tool_use`,
 * `tool_result`, `thinking`), `rate_limit_event`, and a final `result`.
 *
 * @module
 */
import type { HeadlessEvent, HeadlessParser } from "./event.ts";
import { arr, brief, type JsonObject, obj, parseJsonLine, str } from "./json_line.ts";
import { classifyLimit, limitFromText } from "./limit_text.ts";
import { isoFromEpoch } from "./epoch.ts";
import { statedExitCode, toolAction } from "../channels/tool_action.ts";

/** Tool calls asked and not yet answered that a parser remembers (the oldest is forgotten first). */
export const PENDING_CALLS_MAX = 256;

// The tool calls asked and not yet answered, by their id: a result names only the id.
type _Calls = Map<string, { name: string; input: unknown }>;

/** Options of a Claude-format parser. */
export interface ClaudeStreamOptions {
  /** Agent name used in made-up limit messages. */
  agent: string;
  /** The clock used to resolve reset times; defaults to the real one. */
  now?: () => Date;
  /**
   * Agent texts that are the CLI's report of a provider error, not conversation (Qwen closes a
   * failed turn with an assistant message `[API Error: 429 …]`): an error or a limit, never a turn.
   */
  providerError?: RegExp;
  /** Other event types this agent adds (Qwen's `system` retry events); none by default. */
  extra?: (ev: JsonObject, now: Date) => HeadlessEvent[] | null;
}

/** A parser for Claude-format `stream-json` lines. */
export function claudeStreamParser(opts: ClaudeStreamOptions): HeadlessParser {
  const now = opts.now ?? (() => new Date());
  const calls: _Calls = new Map();
  return {
    parse(line: string): HeadlessEvent[] {
      const parsed = parseJsonLine(line);
      if (parsed.kind === "blank") return [];
      if (parsed.kind === "malformed") return [parsed];
      return opts.extra?.(parsed.value, now()) ?? _event(parsed.value, opts, now(), calls);
    },
    finish: () => [],
  };
}

function _event(
  ev: JsonObject,
  opts: ClaudeStreamOptions,
  now: Date,
  calls: _Calls,
): HeadlessEvent[] {
  const agent = opts.agent;
  switch (ev.type) {
    case "assistant":
    case "user":
      return _message(ev, opts, now, calls);
    case "rate_limit_event": {
      const info = obj(ev.rate_limit_info);
      if (info.status !== "rejected") return [];
      const kind = str(info.rateLimitType);
      return [{
        kind: "limit",
        message: `${agent} usage limit reached${kind ? ` (${kind})` : ""}`,
        resetsAt: isoFromEpoch(info.resetsAt),
        synthetic: true,
      }];
    }
    case "result":
      return _result(ev, now);
    default:
      // system/init, stream_event partials, hook events, prompt suggestions, future types.
      return [];
  }
}

function _message(
  ev: JsonObject,
  opts: ClaudeStreamOptions,
  now: Date,
  calls: _Calls,
): HeadlessEvent[] {
  const message = obj(ev.message);
  const role = ev.type === "user" ? "user" : "agent";
  const content = message.content;
  const texts: string[] = [];
  const out: HeadlessEvent[] = [];
  if (typeof content === "string") texts.push(content);
  for (const block of arr(content).map(obj)) {
    if (block.type === "text") texts.push(str(block.text));
    else if (block.type === "tool_use") {
      out.push({ kind: "tool", summary: `${str(block.name) || "tool"} ${brief(block.input)}` });
      const id = str(block.id);
      if (id && str(block.name)) {
        calls.set(id, { name: str(block.name), input: block.input });
        if (calls.size > PENDING_CALLS_MAX) calls.delete(calls.keys().next().value!);
      }
    } else if (block.type === "tool_result" && role === "user") {
      // The call completed: what was done. Its output itself is not carried.
      const call = calls.get(str(block.tool_use_id));
      if (!call) continue;
      calls.delete(str(block.tool_use_id));
      const failed = block.is_error === true;
      const said = typeof block.content === "string"
        ? block.content
        : arr(block.content).map((c) => str(obj(c).text)).join("\n");
      out.push({
        kind: "action",
        action: toolAction(call.name, call.input, {
          failed,
          exitCode: failed ? statedExitCode(said) : null,
        }),
      });
    }
    // thinking, images: not carried.
  }
  const text = texts.join("\n").trim();
  // A message flagged with an error (e.g. "rate_limit") is the CLI's own notice, not conversation.
  if (typeof ev.error === "string" && ev.error !== "") {
    const limit = ev.error === "rate_limit" ? limitFromText(text, now) ?? _limitOf(text) : null;
    return [...out, limit ?? { kind: "error", message: text || ev.error }];
  }
  if (role === "agent" && opts.providerError?.test(text)) {
    const found = classifyLimit(opts.agent, text, now);
    return [
      ...out,
      found
        ? { kind: "limit", message: found.message, resetsAt: found.resetsAt }
        : { kind: "error", message: text },
    ];
  }
  if (text !== "") out.unshift({ kind: "message", role, text });
  return out;
}

function _limitOf(text: string): HeadlessEvent {
  return { kind: "limit", message: text || "rate limit", resetsAt: null };
}

function _result(ev: JsonObject, now: Date): HeadlessEvent[] {
  const isError = ev.is_error === true || (typeof ev.subtype === "string" &&
    ev.subtype.startsWith("error"));
  const errorObj = obj(ev.error);
  const text = str(ev.result) || str(errorObj.message) ||
    arr(ev.errors).map(str).filter(Boolean).join("; ");
  const out: HeadlessEvent[] = [];
  if (isError) {
    const limit = limitFromText(text, now) ??
      (ev.api_error_status === 429 && !/not your usage limit/i.test(text)
        ? { kind: "limit" as const, message: text || "API error 429", resetsAt: null }
        : null);
    out.push(limit ?? { kind: "error", message: text || `result ${str(ev.subtype) || "error"}` });
  }
  out.push({ kind: "result", text, isError });
  return out;
}
