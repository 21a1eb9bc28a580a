/**
 * A local stand-in for the Anthropic API on 127.0.0.1. No real account or credentials are
 * involved. Arguments: `PORT [BODIES_FILE [MODE_FILE]]`; the body of every message request is
 * appended to BODIES_FILE; MODE_FILE (read at every request) says how to answer:
 *
 * - `limit` (default): the 5-hour usage-limit 429 with the headers Claude Code reads to show
 *   "You've hit your session limit · resets …";
 * - `cat`: a normal model that runs the Bash tool `sh show-notes.sh` (a script that cats notes.txt:
 *   Claude Code collapses `cat FILE`, even `awk 1 FILE`, into "Read 1 file"), then ends the turn without text, so the tool's output,
 *   which may quote a limit message, is the last thing on the screen.
 *
 * @module
 */
const port = Number(Deno.args[0] ?? 0); // 0: any free port, printed as "mock on PORT"
const bodies = Deno.args[1];
const modeFile = Deno.args[2];
const reset = Math.floor(Date.now() / 1000) + 3 * 3600;

function mode(): string {
  try {
    return modeFile ? Deno.readTextFileSync(modeFile).trim() || "limit" : "limit";
  } catch {
    return "limit";
  }
}

function limitResponse(): Response {
  return new Response(
    JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "rate limited" } }),
    {
      status: 429,
      headers: {
        "content-type": "application/json",
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": String(reset),
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
      },
    },
  );
}

type Block = { type: "text"; text: string } | {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
};

// One assistant message, as SSE events when the request streams, else as one JSON body.
function message(content: Block[], stopReason: string, stream: boolean): Response {
  const id = `msg_mock_${crypto.randomUUID().slice(0, 8)}`;
  const usage = { input_tokens: 10, output_tokens: 5 };
  if (!stream) {
    return Response.json({
      id,
      type: "message",
      role: "assistant",
      model: "claude-mock",
      content,
      stop_reason: stopReason,
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
        model: "claude-mock",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  ]];
  content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      }]);
    } else {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 5 },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  const text = events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

// The `cat` model: the main loop (it offers the Bash tool) prints notes.txt once, then ends
// its turn with no text; any other request (a session title, …) gets a short text.
function catResponse(body: string): Response {
  let req: { stream?: boolean; tools?: { name: string }[]; messages?: { content: unknown }[] };
  try {
    req = JSON.parse(body);
  } catch {
    req = {};
  }
  const stream = req.stream === true;
  const offersBash = (req.tools ?? []).some((t) => t.name === "Bash");
  const last = req.messages?.at(-1)?.content;
  const answered = Array.isArray(last) &&
    last.some((b) => (b as { type?: string }).type === "tool_result");
  if (!offersBash) return message([{ type: "text", text: "Notes" }], "end_turn", stream);
  if (answered) return message([], "end_turn", stream);
  return message(
    [{
      type: "tool_use",
      id: `toolu_mock_${crypto.randomUUID().slice(0, 8)}`,
      name: "Bash",
      input: { command: "sh show-notes.sh", description: "Show the notes" },
    }],
    "tool_use",
    stream,
  );
}

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: (addr) => console.error(`mock on ${addr.port}`) },
  async (req) => {
    const url = new URL(req.url);
    console.error(req.method, url.pathname);
    if (req.method === "POST" && url.pathname.startsWith("/v1/messages")) {
      const body = await req.text();
      if (bodies) Deno.writeTextFileSync(bodies, body + "\n", { append: true });
      if (url.pathname.includes("count_tokens")) return Response.json({ input_tokens: 10 });
      return mode() === "cat" ? catResponse(body) : limitResponse();
    }
    return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
  },
);
