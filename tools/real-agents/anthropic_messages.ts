/**
 * Reading an Anthropic Messages API request: the texts the user typed, as the model received them.
 *
 * @module
 */

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
