/**
 * The Anthropic Messages API as the local mocks speak it: the texts the user typed, as the model
 * received them, an assistant reply (streamed or not), and the usage-limit answer.
 *
 * @module
 */

/**
 * The usage-limit 429 with the headers Claude Code reads to show "You've hit your session limit ·
 * resets …" (2.1.197) or "You've hit your 5-hour limit · resets …" (2.1.332); `reset`: Unix
 * seconds; `claim`: which limit (`five_hour`, `seven_day`, `seven_day_opus`, …).
 */
export function usageLimitResponse(reset: number, claim = "five_hour"): Response {
  return new Response(
    JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "rate limited" } }),
    {
      status: 429,
      headers: {
        "content-type": "application/json",
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": String(reset),
        "anthropic-ratelimit-unified-representative-claim": claim,
      },
    },
  );
}

/** One content block of a message. */
export type Block = { type: string; text?: string };
/** One message of a request. */
export type Message = { role: string; content: string | Block[] };

/**
 * The texts the user typed, oldest first: the user messages' text blocks, without Claude Code's
 * own additions (system reminders, slash-command records, interruption notes) and tool results.
 */
export function userTexts(messages: Message[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== "user") continue;
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type !== "text" || !b.text) continue;
      if (/^<(?:system-reminder|command-|local-command)/.test(b.text.trim())) continue;
      if (b.text.startsWith("[Request interrupted")) continue;
      out.push(b.text);
    }
  }
  return out;
}

/** A user text with Claude Code 2.1.332's paste wrapper (`<pasted_content id="N">`) taken off. */
export function unwrapPastes(text: string): string {
  return text.replace(
    /\n\n<pasted_content id="([^"]+)">\n([\s\S]*?)\n<\/pasted_content id="\1">\n/g,
    (_, _id, body) => body,
  );
}

/**
 * The model's replies, one list per user turn (the turns `userTexts` lists, oldest first): the
 * non-empty text blocks of the assistant messages that follow that turn, trimmed.
 */
export function assistantTurns(messages: Message[]): string[][] {
  const turns: string[][] = [];
  for (const m of messages) {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    if (m.role === "user") {
      if (userTexts([m]).length > 0) turns.push([]);
      continue;
    }
    // Claude 2.1.197 puts its own reminders in the history as `system` messages: not the model's.
    if (m.role !== "assistant") continue;
    for (const b of blocks) {
      if (b.type === "text" && b.text?.trim()) turns.at(-1)?.push(b.text.trim());
    }
  }
  return turns;
}

/** A content block of an assistant message (a tool call gets an id when it has none). */
export type ReplyBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id?: string; name: string; input: unknown };

/**
 * One assistant message: Server-Sent Events when the request streams (text sent a line per
 * delta, `delayMs` between events, so a reply can be slow enough to interrupt), else one JSON
 * body. The stop reason is `tool_use` when it calls a tool, else `end_turn`.
 */
export function messageResponse(
  content: ReplyBlock[],
  opts: { stream: boolean; model?: string; delayMs?: number },
): Response {
  const id = `msg_mock_${crypto.randomUUID().slice(0, 8)}`;
  const model = opts.model ?? "claude-mock";
  const stop = content.some((c) => c.type === "tool_use") ? "tool_use" : "end_turn";
  const blocks = content.map((c, i) =>
    c.type === "tool_use" && c.id === undefined ? { ...c, id: `toolu_${id}_${i}` } : c
  );
  const usage = { input_tokens: 10, output_tokens: 10 };
  if (!opts.stream) {
    return Response.json({
      id,
      type: "message",
      role: "assistant",
      model,
      content: blocks,
      stop_reason: stop,
      stop_sequence: null,
      usage,
    });
  }
  const events: [string, unknown][] = [[
    "message_start",
    {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  ]];
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }]);
      for (const piece of b.text.match(/[^\n]*\n?/g)!.filter((p) => p)) {
        events.push(["content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: piece },
        }]);
      }
    } else {
      const { input, ...start } = b;
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { ...start, input: {} },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
      }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 10 },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return new Response(_sse(events, opts.delayMs ?? 0), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

const _enc = new TextEncoder();

function _sse(events: [string, unknown][], delayMs: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(c) {
      try {
        for (const [name, data] of events) {
          c.enqueue(_enc.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`));
          if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        }
        c.close();
      } catch { /* the client went away (Esc) */ }
    },
  });
}
