/**
 * GitHub Copilot CLI headless: `copilot -p PROMPT --output-format json [args]` (JSONL; PROVIDERS.md
 * §1.4). Non-interactive tool use needs `--allow-all-tools` (or `--yolo`), which uuldana does not
 * add on its own: put it in the agent's `args` in the config when wanted. Events [from docs and
 * the binary's session-event names; not recorded in the corpus]: `{type, data}` with
 * `user.message` {content}, `assistant.message` {content, toolRequests}, `assistant.message_delta`
 * {deltaContent}, `tool.execution_start` {toolName, arguments}, `session.error` {errorType,
 * message}; a final `result` is taken when present. No stdin road is documented.
 *
 * @module
 */
import type { HeadlessAdapter, HeadlessEvent } from "./event.ts";
import { arr, brief, type JsonObject, obj, perLineParser, str } from "./json_line.ts";
import { limitFromText } from "./limit_text.ts";

/** Copilot CLI's structured mode. */
export const copilotHeadless: HeadlessAdapter = {
  name: "copilot",
  promptViaStdin: false,
  launch(bin, prompt, extraArgs) {
    return {
      argv: [bin, "--output-format", "json", ...extraArgs, `--prompt=${prompt}`],
      stdin: null,
    };
  },
  newParser: () => perLineParser(_event),
};

function _event(ev: JsonObject): HeadlessEvent[] {
  const data = obj(ev.data);
  switch (ev.type) {
    case "assistant.message": {
      const out: HeadlessEvent[] = [];
      const text = str(data.content).trim();
      if (text) out.push({ kind: "message", role: "agent", text });
      for (const req of arr(data.toolRequests).map(obj)) {
        out.push({ kind: "tool", summary: `${str(req.name) || "tool"} ${brief(req.arguments)}` });
      }
      return out;
    }
    case "tool.execution_start":
      return [{
        kind: "tool",
        summary: `${str(data.toolName) || "tool"} ${brief(data.arguments)}`,
      }];
    case "session.error": {
      const message = str(data.message) || str(data.errorType) || "error";
      const limit = limitFromText(message) ??
        (/rate_limit|quota/i.test(str(data.errorType))
          ? { kind: "limit" as const, message, resetsAt: null }
          : null);
      return [limit ?? { kind: "error", message }];
    }
    case "result": {
      const text = str(data.content) || str(ev.result);
      const isError = (typeof ev.exitCode === "number" && ev.exitCode !== 0) ||
        (typeof data.exitCode === "number" && data.exitCode !== 0);
      return [{ kind: "result", text, isError }];
    }
    default:
      // session.start, user.message (the prompt echo), deltas, tool completions, future types.
      return [];
  }
}
