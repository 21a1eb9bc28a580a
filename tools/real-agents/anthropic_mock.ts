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
import { messageResponse, usageLimitResponse } from "./anthropic_messages.ts";

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
  if (!offersBash) return messageResponse([{ type: "text", text: "Notes" }], { stream });
  if (answered) return messageResponse([], { stream });
  return messageResponse(
    [{
      type: "tool_use",
      id: `toolu_mock_${crypto.randomUUID().slice(0, 8)}`,
      name: "Bash",
      input: { command: "sh show-notes.sh", description: "Show the notes" },
    }],
    { stream },
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
      return mode() === "cat" ? catResponse(body) : usageLimitResponse(reset);
    }
    return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
  },
);
