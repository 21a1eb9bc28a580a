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
import {
  type Message,
  messageResponse,
  usageLimitResponse,
  userTexts,
} from "./anthropic_messages.ts";

const port = Number(Deno.args[0] ?? 0); // 0: any free port, printed as "mock on PORT"
const log = Deno.args[1];
const limit = Number(Deno.args[2] ?? 10);
const readPath = Deno.args[3] ?? "/etc/hostname";
const reset = Math.floor(Date.now() / 1000) + 3 * 3600;

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
      return messageResponse([{ type: "text", text: '{"title": "Mock session"}' }], {
        model,
        stream,
      });
    }
    Deno.writeTextFileSync(log, JSON.stringify(body) + "\n", { append: true });
    const texts = userTexts(body.messages as Message[]);
    if (texts.length >= limit) return usageLimitResponse(reset);
    const last = (body.messages as Message[]).at(-1)!;
    const toolResult = Array.isArray(last.content) &&
      last.content.some((b) => b.type === "tool_result");
    const n = texts.length;
    if (n === 1 && !toolResult) {
      return messageResponse(
        [
          { type: "text", text: "Let me look at the file first.\n" },
          { type: "tool_use", name: "Read", input: { file_path: readPath } },
        ],
        { model, stream },
      );
    }
    if (/run the tests/.test(texts.at(-1) ?? "") && !toolResult) {
      return messageResponse(
        [
          { type: "text", text: "Running them.\n" },
          {
            type: "tool_use",
            name: "Bash",
            input: { command: "make test", description: "Run the tests" },
          },
        ],
        { model, stream },
      );
    }
    const slow = /\blong\b/.test(texts.at(-1) ?? "");
    const lines = Array.from(
      { length: 30 },
      (_, i) => `Answer ${n}, line ${i + 1}: mock reply text.`,
    );
    return messageResponse([{ type: "text", text: lines.join("\n") }], {
      model,
      stream,
      delayMs: slow ? 400 : 0,
    });
  },
);
