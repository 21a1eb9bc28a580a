/**
 * A local stand-in, on 127.0.0.1, for a model that does work with tools: each user turn it asks
 * for `CALLS` tool calls, one per answer, in the agent's own tool names and argument names (read
 * from the tools the request declares), then ends the turn with a short text. From turn `TURNS + 1`
 * on, the provider's usage-limit error. Anthropic Messages (`tool_use` blocks: Claude Code), chat
 * completions (`tool_calls`: OpenCode, Kilo, Qwen Code, pi, Copilot) and OpenAI Responses
 * (`function_call` items for Codex's `exec_command`, a `custom_tool_call` for its freeform
 * `apply_patch`, which creates a file with an `*** Add File:` patch). Paths under `/receiver/` are
 * another account: plain text, never limited, never a tool. No account or credential is involved.
 *
 *   deno run -A tool_mock.ts PORT LOG.jsonl CALLS TURNS [WS]  # PORT 0: printed as "mock on PORT"
 *
 * With `MOCK_LIMIT_IN_TURN=1` the last turn's answer after its calls is the usage-limit error
 * instead of its text (a headless run, `uuldana exec`, is one turn: its limit comes mid-turn).
 *
 * A tool whose path argument says it must be absolute (Qwen Code's `write_file`: "The absolute
 * path…") gets WS/work/… instead of work/… (it refuses a relative one before it runs).
 *
 * The calls alternate: create `work/tT-N.txt` with its content; run `sh check.sh T N` (a command
 * the workspace holds; exit 0, or 1 for every fifth call). LOG gets one line per call asked
 * (`{"t", "turn", "n", "tool", "kind", "target"}`) and one per request (`{"t", "account",
 * "kind", "limited"}`), so a check compares the handoff's "What was done" with what was asked.
 *
 * @module
 */
import { messageResponse, usageLimitResponse } from "./anthropic_messages.ts";
import {
  type InputItem,
  isToolResult,
  isUserText,
  responsesResponse,
  responsesUsageLimit,
} from "./openai_responses.ts";

const [portArg, logFile, callsArg, turnsArg, wsArg] = Deno.args;
const CALLS = Number(callsArg ?? 3);
const TURNS = Number(turnsArg ?? 10);
const LIMIT_IN_TURN = Deno.env.get("MOCK_LIMIT_IN_TURN") === "1";

type Kind = "create" | "run";
interface Tool {
  name: string;
  /** Its path argument must be absolute. */
  absolute?: boolean;
  /** The argument naming a path, a command; and the content's, for `create`. */
  target: string;
  content?: string;
  /** A freeform patch tool (Codex's `apply_patch`): its whole input is the patch. */
  patch?: boolean;
}

// Tool names, by what they do, as the agents declare them (adapters/channels/tool_kinds.json).
const _NAMES: Record<Kind, readonly string[]> = {
  create: ["write", "write_file", "create", "create_file", "apply_patch"],
  run: ["bash", "run_shell_command", "shell", "exec_command", "shell_command"],
};
const _PATHS = ["file_path", "filePath", "path", "absolute_path"];

/** Whether this request gets the usage-limit error. */
function limited(turn: number, results: number): boolean {
  return turn > TURNS || (LIMIT_IN_TURN && turn === TURNS && results >= CALLS);
}

function log(entry: Record<string, unknown>): void {
  Deno.writeTextFileSync(logFile, JSON.stringify({ t: Date.now(), ...entry }) + "\n", {
    append: true,
  });
}

type Declared = { name: string; props: string[]; absolute: string[] };

/** The declared tool that does `kind`, with its argument names, or null. */
function toolFor(kind: Kind, declared: Declared[]): Tool | null {
  for (const want of _NAMES[kind]) {
    const t = declared.find((d) => d.name.toLowerCase() === want);
    if (!t) continue;
    if (kind === "run") {
      return { name: t.name, target: t.props.includes("cmd") ? "cmd" : "command" };
    }
    if (t.name === "apply_patch") return { name: t.name, target: "input", patch: true };
    const target = _PATHS.find((p) => t.props.includes(p));
    // Copilot's `create` takes `file_text`; the others `content`.
    const content = ["content", "file_text", "contents", "text"].find((p) => t.props.includes(p));
    if (target && content) {
      return { name: t.name, target, content, absolute: t.absolute.includes(target) };
    }
  }
  return null;
}

/** A tool schema's arguments, and those its description says must be absolute paths. */
function declaredOf(name: string, schema: unknown): Declared {
  const props = ((schema as { properties?: Record<string, { description?: string }> })
    ?.properties) ?? {};
  return {
    name,
    props: Object.keys(props),
    absolute: Object.entries(props).filter(([, p]) => /\babsolute\b/i.test(p?.description ?? ""))
      .map(([k]) => k),
  };
}

/** The call the model asks for as call `n` (1-based) of turn `turn`, in the agent's terms. */
function call(turn: number, n: number, declared: Declared[]) {
  const kind: Kind = n % 2 === 1 ? "create" : "run";
  const tool = toolFor(kind, declared) ?? toolFor(kind === "run" ? "create" : "run", declared);
  if (!tool) return null;
  const create = _NAMES.create.includes(tool.name.toLowerCase());
  const file = `work/t${turn}-${n}.txt`;
  const target = create
    ? (tool.absolute && wsArg ? `${wsArg}/${file}` : file)
    : `sh check.sh ${turn} ${n}`;
  log({ turn, n, tool: tool.name, kind: create ? "created" : "ran", target });
  if (tool.patch) {
    const patch =
      `*** Begin Patch\n*** Add File: ${target}\n+turn ${turn}, call ${n}\n*** End Patch\n`;
    return { name: tool.name, args: {}, patch };
  }
  const args: Record<string, string> = { [tool.target]: target };
  if (create) args[tool.content!] = `turn ${turn}, call ${n}\n`;
  if (tool.name === "bash" || tool.name === "Bash") args.description = `check ${turn}.${n}`;
  return { name: tool.name, args, patch: undefined };
}

type Msg = { role: string; content?: unknown; tool_calls?: unknown[] };

// Where a request stands: its user turn's number (user texts so far) and the tool results after it.
function position(messages: Msg[], isResult: (m: Msg) => boolean, isUserText: (m: Msg) => boolean) {
  let turn = 0;
  let results = 0;
  for (const m of messages) {
    if (isUserText(m)) {
      turn++;
      results = 0;
    } else if (isResult(m)) results++;
  }
  return { turn, results };
}

function anthropic(body: Record<string, unknown>, receiver: boolean): Response {
  const messages = (body.messages ?? []) as Msg[];
  const blocks = (m: Msg) => Array.isArray(m.content) ? m.content as Record<string, unknown>[] : [];
  const userText = (m: Msg) =>
    m.role === "user" &&
    (typeof m.content === "string" ||
      blocks(m).some((b) =>
        b.type === "text" && !/^<(?:system-reminder|command-)/.test(String(b.text).trim())
      )) &&
    !blocks(m).some((b) => b.type === "tool_result");
  const { turn, results } = position(
    messages,
    (m) => m.role === "user" && blocks(m).some((b) => b.type === "tool_result"),
    userText,
  );
  const stream = body.stream === true;
  if (receiver || !Array.isArray(body.tools) || body.tools.length === 0) {
    return messageResponse([{ type: "text", text: `MOCKDONE: noted (turn ${turn}).` }], { stream });
  }
  if (limited(turn, results)) return usageLimitResponse(Math.floor(Date.now() / 1000) + 3 * 3600);
  const declared = (body.tools as Record<string, unknown>[]).map((t) =>
    declaredOf(String(t.name), t.input_schema)
  );
  const next = results < CALLS ? call(turn, results + 1, declared) : null;
  if (!next) return messageResponse([{ type: "text", text: `MOCKDONE-${turn}` }], { stream });
  return messageResponse([{ type: "tool_use", name: next.name, input: next.args }], { stream });
}

function chat(body: Record<string, unknown>, receiver: boolean): Response {
  const messages = (body.messages ?? []) as Msg[];
  const { turn, results } = position(messages, (m) => m.role === "tool", (m) => m.role === "user");
  const stream = body.stream === true;
  const tools = (body.tools ?? []) as { function?: { name?: string; parameters?: object } }[];
  const text = (t: string) => chatResponse(stream, { role: "assistant", content: t }, "stop");
  if (receiver || tools.length === 0) return text(`MOCKDONE: noted (turn ${turn}).`);
  if (limited(turn, results)) {
    return Response.json({
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    }, { status: 429 });
  }
  const declared = tools.map((t) => declaredOf(String(t.function?.name), t.function?.parameters));
  const next = results < CALLS ? call(turn, results + 1, declared) : null;
  if (!next) return text(`MOCKDONE-${turn}`);
  const id = `call_${turn}_${results + 1}`;
  return chatResponse(stream, {
    role: "assistant",
    content: null,
    tool_calls: [{
      id,
      type: "function",
      function: { name: next.name, arguments: JSON.stringify(next.args) },
    }],
  }, "tool_calls");
}

function responses(body: Record<string, unknown>, receiver: boolean): Response {
  const input = (Array.isArray(body.input) ? body.input : []) as InputItem[];
  let turn = 0;
  let results = 0;
  for (const item of input) {
    if (isUserText(item)) {
      turn++;
      results = 0;
    } else if (isToolResult(item)) results++;
  }
  const opts = { stream: body.stream !== false, model: String(body.model ?? "mock-1") };
  const tools = (body.tools ?? []) as { type?: string; name?: string; parameters?: object }[];
  const text = (t: string) => responsesResponse({ type: "message", text: t }, opts);
  if (receiver || tools.length === 0) return text(`MOCKDONE: noted (turn ${turn}).`);
  // Codex asks for a thread title beside the turn (a JSON schema, `apply_patch` its only tool):
  // answered as asked, never with a tool call, so only the turn's own requests make the calls.
  const format = (body.text as { format?: { type?: string } } | undefined)?.format;
  if (format?.type === "json_schema") return text(JSON.stringify({ title: "Do the mock work" }));
  if (limited(turn, results)) return responsesUsageLimit(Math.floor(Date.now() / 1000) + 3 * 3600);
  const declared = tools.filter((t) => t.type === "function" || t.type === "custom")
    .map((t) => declaredOf(String(t.name), t.parameters));
  const next = results < CALLS ? call(turn, results + 1, declared) : null;
  if (!next) return text(`MOCKDONE-${turn}`);
  const callId = `call_${turn}_${results + 1}`;
  return responsesResponse(
    next.patch !== undefined
      ? { type: "custom_tool_call", name: next.name, callId, input: next.patch }
      : { type: "function_call", name: next.name, callId, arguments: JSON.stringify(next.args) },
    opts,
  );
}

function chatResponse(stream: boolean, message: Record<string, unknown>, finish: string): Response {
  const base = { id: `chatcmpl-${crypto.randomUUID().slice(0, 8)}`, created: 0, model: "mock-1" };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!stream) {
    return Response.json({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const chunk = (delta: unknown, finish_reason: string | null, extra = {}) =>
    `data: ${
      JSON.stringify({
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta, finish_reason }],
        ...extra,
      })
    }\n\n`;
  const calls = message.tool_calls as Record<string, unknown>[] | undefined;
  const delta = calls
    ? { role: "assistant", tool_calls: calls.map((c, index) => ({ index, ...c })) }
    : { role: "assistant", content: message.content };
  const body = chunk(delta, null) + chunk({}, finish, { usage }) + "data: [DONE]\n\n";
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(portArg ?? 0),
    onListen: (a) => console.error(`mock on ${a.port}`),
  },
  async (req) => {
    const url = new URL(req.url);
    const receiver = url.pathname.startsWith("/receiver/");
    const path = receiver ? url.pathname.slice("/receiver".length) : url.pathname;
    if (req.method !== "POST") return Response.json({ object: "list", data: [] });
    let body: Record<string, unknown> = {};
    const raw = await req.text();
    try {
      body = JSON.parse(raw);
    } catch { /* not JSON */ }
    const kind = /\/messages$/.test(path)
      ? "anthropic"
      : /\/chat\/completions$/.test(path)
      ? "chat"
      : /\/responses$/.test(path)
      ? "responses"
      : null;
    log({ account: receiver ? "receiver" : "agent", kind, body: receiver ? raw : undefined });
    if (kind === "anthropic") return anthropic(body, receiver);
    if (kind === "chat") return chat(body, receiver);
    if (kind === "responses") return responses(body, receiver);
    return Response.json({}, { status: 404 });
  },
);
