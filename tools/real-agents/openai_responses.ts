/**
 * The OpenAI Responses API as the local mocks speak it to Codex CLI: a response whose output is
 * one item — an assistant `message`, a `function_call` (Codex's `exec_command`, `shell_command`) or
 * a `custom_tool_call` (its freeform `apply_patch`) — streamed as the API streams it
 * (`response.created`, `response.output_item.added`, the item's deltas,
 * `response.output_item.done`, `response.completed`), and the ChatGPT-plan usage-limit 429.
 *
 * @module
 */

/** One output item: what the model answers with. */
export type OutputItem =
  | { type: "message"; text: string }
  | { type: "function_call"; name: string; callId: string; arguments: string }
  | { type: "custom_tool_call"; name: string; callId: string; input: string };

/** One input item of a request (the conversation so far), as Codex sends it. */
export type InputItem = {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
};

/**
 * Whether an input item is text the user typed: a `user` message that is not one of Codex's own
 * additions (`<environment_context>`, `<user_instructions>`, `# AGENTS.md …`).
 */
export function isUserText(item: InputItem): boolean {
  if (item.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) {
    return false;
  }
  const text = (item.content as { type?: string; text?: string }[])
    .filter((c) => c.type === "input_text").map((c) => c.text ?? "").join("");
  return text.trim() !== "" && !/^\s*(?:<[a-z_]+>|# AGENTS\.md)/.test(text);
}

/** Whether an input item is a tool's result (`function_call_output`, `custom_tool_call_output`). */
export function isToolResult(item: InputItem): boolean {
  return item.type === "function_call_output" || item.type === "custom_tool_call_output";
}

const _usage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

function _item(out: OutputItem, n: string): Record<string, unknown> {
  switch (out.type) {
    case "message":
      return {
        id: `msg_${n}`,
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: out.text, annotations: [] }],
      };
    case "function_call":
      return {
        id: `fc_${n}`,
        type: "function_call",
        status: "completed",
        name: out.name,
        call_id: out.callId,
        arguments: out.arguments,
      };
    case "custom_tool_call":
      return {
        id: `ctc_${n}`,
        type: "custom_tool_call",
        status: "completed",
        name: out.name,
        call_id: out.callId,
        input: out.input,
      };
  }
}

// The item's streamed deltas, between output_item.added and output_item.done.
function _deltas(out: OutputItem, item: Record<string, unknown>): [string, unknown][] {
  const at = { item_id: item.id, output_index: 0 };
  switch (out.type) {
    case "message":
      return [
        ["response.content_part.added", {
          type: "response.content_part.added",
          ...at,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        }],
        ["response.output_text.delta", {
          type: "response.output_text.delta",
          ...at,
          content_index: 0,
          delta: out.text,
        }],
        ["response.output_text.done", {
          type: "response.output_text.done",
          ...at,
          content_index: 0,
          text: out.text,
        }],
      ];
    case "function_call":
      return [
        ["response.function_call_arguments.delta", {
          type: "response.function_call_arguments.delta",
          ...at,
          delta: out.arguments,
        }],
        ["response.function_call_arguments.done", {
          type: "response.function_call_arguments.done",
          ...at,
          arguments: out.arguments,
        }],
      ];
    case "custom_tool_call":
      return [
        ["response.custom_tool_call_input.delta", {
          type: "response.custom_tool_call_input.delta",
          ...at,
          delta: out.input,
        }],
        ["response.custom_tool_call_input.done", {
          type: "response.custom_tool_call_input.done",
          ...at,
          input: out.input,
        }],
      ];
  }
}

/** A response whose output is `out`, streamed (server-sent events) unless `stream` is false. */
export function responsesResponse(
  out: OutputItem,
  opts: { stream: boolean; model: string },
): Response {
  const n = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const item = _item(out, n);
  const response = {
    id: `resp_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: opts.model,
    status: "completed",
    output: [item],
    usage: _usage,
  };
  if (!opts.stream) return Response.json(response);
  const pending = out.type === "message" ? { ...item, status: "in_progress", content: [] } : {
    ...item,
    status: "in_progress",
    ...(out.type === "function_call" ? { arguments: "" } : { input: "" }),
  };
  const events: [string, unknown][] = [
    ["response.created", {
      type: "response.created",
      response: { ...response, status: "in_progress", output: [] },
    }],
    ["response.output_item.added", {
      type: "response.output_item.added",
      output_index: 0,
      item: pending,
    }],
    ..._deltas(out, item),
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response }],
  ];
  return new Response(
    events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(""),
    { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } },
  );
}

/** What ChatGPT-plan Codex gets at its limit (`usage_limit_reached`, with its reset in Unix s). */
export function responsesUsageLimit(reset: number): Response {
  return Response.json({
    error: {
      type: "usage_limit_reached",
      message: "The usage limit has been reached",
      plan_type: "plus",
      resets_at: reset,
      resets_in_seconds: Math.max(0, reset - Math.floor(Date.now() / 1000)),
    },
  }, { status: 429 });
}
