/**
 * A local stand-in for the Anthropic API on 127.0.0.1. No real account or credentials are
 * involved. Arguments: `PORT [BODIES_FILE [MODE_FILE]]`; the body of every message request is
 * appended to BODIES_FILE; MODE_FILE (read at every request) says how to answer:
 *
 * - `limit` (default): the 5-hour usage-limit 429 with the headers Claude Code reads to show
 *   "You've hit your session limit · resets …" (2.1.197) or "… your 5-hour limit …" (2.1.332);
 * - `limit-weekly`: the same for the weekly limit (`seven_day`);
 * - `ok`: a working model that answers every turn with a short text;
 * - `quote`: a working model whose answer quotes Claude Code 2.1.332's whole limit screen (the
 *   `⎿` row, the `●` row, the footer), as a user's question about it would;
 * - `cat`: a working model that runs the Bash tool `sh show-notes.sh` (a script that cats
 *   notes.txt: Claude Code collapses `cat FILE`, even `awk 1 FILE`, into "Read 1 file"), then ends
 *   the turn without text, so the tool's output, which may quote a limit message, is the last
 *   thing on the screen;
 * - `tool-limit`: the model runs the Bash tool `sh slow.sh` and the limit comes with the request
 *   that carries the tool's result (the limit reached while a tool runs).
 *
 * Every answer is logged on stderr with the time it was sent (`answered MODE STATUS AT_MS`).
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

/** What the model answers when it speaks normally (`ok`). */
const OK_TEXT = [
  "I'll add a `--dry-run` flag to deploy.sh:",
  "",
  "1. Parse `--dry-run` before the other options.",
  "2. Print each command instead of running it.",
  "3. Exit 0 without touching the servers.",
  "",
  "Want me to write the patch?",
].join("\n");

/** A reply that quotes Claude Code 2.1.332's limit screen, as if explaining it (`quote`). */
const QUOTE_TEXT = [
  "Your screenshot shows Claude Code at its usage limit. It drew:",
  "",
  "```",
  "  ⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)",
  "● Usage limit reached · set to continue automatically at 9:44pm",
  "  ⚠ Usage limit reached · limit resets 9:44pm",
  "    Continuing automatically at 9:44pm · Esc to cancel",
  "```",
  "",
  "That means: wait for the reset or switch agents.",
  "  ⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)",
  "",
  "Your log had these two lines:",
  "⎿  Ran 1 shell command",
  "⎿  You've hit your 5-hour limit · resets 9:44pm (UTC)",
].join("\n");

type Request = {
  stream?: boolean;
  tools?: { name: string }[];
  messages?: { content: unknown }[];
};

function parse(body: string): Request {
  try {
    return JSON.parse(body);
  } catch {
    return {};
  }
}

// True when the request's last message carries a tool's result.
function answered(req: Request): boolean {
  const last = req.messages?.at(-1)?.content;
  return Array.isArray(last) && last.some((b) => (b as { type?: string }).type === "tool_result");
}

// A model that calls the Bash tool once (the main loop offers it), then ends its turn with no
// text; any other request (a session title, …) gets a short text.
function toolOnce(req: Request, command: string, description: string): Response | null {
  const stream = req.stream === true;
  const offersBash = (req.tools ?? []).some((t) => t.name === "Bash");
  if (!offersBash) return messageResponse([{ type: "text", text: "Notes" }], { stream });
  if (answered(req)) return null;
  return messageResponse(
    [{
      type: "tool_use",
      id: `toolu_mock_${crypto.randomUUID().slice(0, 8)}`,
      name: "Bash",
      input: { command, description },
    }],
    { stream },
  );
}

function answer(m: string, body: string): Response {
  const req = parse(body);
  const stream = req.stream === true;
  switch (m) {
    case "ok":
      return messageResponse([{ type: "text", text: OK_TEXT }], { stream });
    case "quote":
      return messageResponse([{ type: "text", text: QUOTE_TEXT }], { stream });
    case "cat":
      return toolOnce(req, "sh show-notes.sh", "Show the notes") ??
        messageResponse([], { stream });
    case "tool-limit":
      return toolOnce(req, "sh slow.sh", "Run the slow build") ?? usageLimitResponse(reset);
    case "limit-weekly":
      return usageLimitResponse(reset + 4 * 86400, "seven_day");
    default:
      return usageLimitResponse(reset);
  }
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
      const m = mode();
      const res = answer(m, body);
      console.error(`answered ${m} ${res.status} ${Date.now()}`);
      return res;
    }
    return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
  },
);
