/**
 * The Anthropic Messages API as the local mocks speak it: the texts the user typed, as the model
 * received them, and the usage-limit answer.
 *
 * @module
 */

/**
 * The 5-hour usage-limit 429 with the headers Claude Code reads to show "You've hit your session
 * limit · resets …" (`reset`: Unix seconds).
 */
export function usageLimitResponse(reset: number): Response {
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
