/**
 * A local stand-in for the Anthropic API on 127.0.0.1 that answers every message with the 5-hour
 * usage-limit 429 (the headers Claude Code reads to show "You've hit your session limit · resets
 * …"). No real account or credentials are involved. With a second argument, the body of every
 * message request is appended to that file, to check what reached the model.
 *
 * @module
 */
import { usageLimitResponse } from "./anthropic_messages.ts";

const port = Number(Deno.args[0] ?? 0); // 0: any free port, printed as "mock on PORT"
const bodies = Deno.args[1];
const reset = Math.floor(Date.now() / 1000) + 3 * 3600;
Deno.serve(
  { hostname: "127.0.0.1", port, onListen: (addr) => console.error(`mock on ${addr.port}`) },
  async (req) => {
    const url = new URL(req.url);
    console.error(req.method, url.pathname);
    if (req.method === "POST" && url.pathname.startsWith("/v1/messages")) {
      const body = await req.text();
      if (bodies) Deno.writeTextFileSync(bodies, body + "\n", { append: true });
      return usageLimitResponse(reset);
    }
    return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
  },
);
