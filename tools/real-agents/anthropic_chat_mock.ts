/**
 * A local stand-in for the Anthropic API on 127.0.0.1 that converses: it answers Claude Code's
 * conversation requests with streamed text (30 numbered lines, so a session scrolls far past 120
 * lines), answers the first turn with a `Read` tool call first and "run the tests" with a `Bash`
 * call that Claude asks permission for (a session with tools and a dialog), streams
 * slowly when the message asks for a "long" task (so Esc can interrupt it), and from the
 * LIMIT-th user message on returns the 5-hour usage-limit 429. Every conversation request body
 * is appended to LOG as one JSON line: the last one holds every message the model received.
 * No real account or credentials are involved.
 *
 *   deno run -A anthropic_chat_mock.ts PORT LOG LIMIT FILE_TO_READ
 *
 * @module
 */
import { type Message, usageLimitResponse, userTexts } from "./anthropic_messages.ts";

const port = Number(Deno.args[0] ?? 0); // 0: any free port, printed as "mock on PORT"
const log = Deno.args[1];
const limit = Number(Deno.args[2] ?? 10);
const readPath = Deno.args[3] ?? "/etc/hostname";
const reset = Math.floor(Date.now() / 1000) + 3 * 3600;
const enc = new TextEncoder();

function sse(events: [string, unknown][], delayMs: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(c) {
      try {
        for (const [name, data] of events) {
          c.enqueue(enc.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`));
          if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        }
        c.close();
      } catch { /* the client went away (Esc) */ }
    },
  });
}

function reply(
  model: string,
  content: ({ type: "text"; text: string } | { type: "tool_use"; name: string; input: unknown })[],
  stream: boolean,
  delayMs: number,
): Response {
  const id = `msg_${crypto.randomUUID().slice(0, 8)}`;
  const stop = content.some((c) => c.type === "tool_use") ? "tool_use" : "end_turn";
  const blocks = content.map((c, i) =>
    c.type === "tool_use" ? { ...c, id: `toolu_${id}_${i}` } : c
  );
  const usage = { input_tokens: 10, output_tokens: 10 };
  if (!stream) {
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
      const { input, ...start } = b as { input: unknown; id: string; name: string };
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
  return new Response(sse(events, delayMs), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: (addr) => console.error(`mock on ${addr.port}`) },
  async (req) => {
    const url = new URL(req.url);
    console.error(req.method, url.pathname);
    if (req.method !== "POST" || !url.pathname.startsWith("/v1/messages")) {
      return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
    }
    if (url.pathname.includes("count_tokens")) return Response.json({ input_tokens: 100 });
    const body = JSON.parse(await req.text());
    const model = String(body.model ?? "claude-sim");
    const stream = body.stream === true;
    // Side requests (session titles, topic checks) come without tools: a short answer.
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      return reply(model, [{ type: "text", text: '{"title": "Mock session"}' }], stream, 0);
    }
    Deno.writeTextFileSync(log, JSON.stringify(body) + "\n", { append: true });
    const texts = userTexts(body.messages as Message[]);
    if (texts.length >= limit) return usageLimitResponse(reset);
    const last = (body.messages as Message[]).at(-1)!;
    const toolResult = Array.isArray(last.content) &&
      last.content.some((b) => b.type === "tool_result");
    const n = texts.length;
    if (n === 1 && !toolResult) {
      return reply(
        model,
        [
          { type: "text", text: "Let me look at the file first.\n" },
          { type: "tool_use", name: "Read", input: { file_path: readPath } },
        ],
        stream,
        0,
      );
    }
    if (/run the tests/.test(texts.at(-1) ?? "") && !toolResult) {
      return reply(
        model,
        [
          { type: "text", text: "Running them.\n" },
          {
            type: "tool_use",
            name: "Bash",
            input: { command: "make test", description: "Run the tests" },
          },
        ],
        stream,
        0,
      );
    }
    const slow = /\blong\b/.test(texts.at(-1) ?? "");
    const lines = Array.from(
      { length: 30 },
      (_, i) => `Answer ${n}, line ${i + 1}: mock reply text.`,
    );
    return reply(model, [{ type: "text", text: lines.join("\n") }], stream, slow ? 400 : 0);
  },
);
