/**
 * Codex CLI headless: `codex exec --json --skip-git-repo-check [args] -- PROMPT`, or `-` to read
 * the prompt from stdin when it is too long for one argument (PROVIDERS.md §1.4). Events
 * (corpus/headless/codex-limit.jsonl): `thread.started`, `turn.started`, `item.started|updated|
 * completed` with item types `agent_message`, `reasoning`, `command_execution`, `file_change`,
 * `mcp_tool_call`, `web_search`, `todo_list`, `error` (a warning, not fatal), then `turn.completed`
 * or `turn.failed`; top-level `error` events carry the usage-limit message and also transient
 * notices (reconnects), so only limit texts count.
 *
 * @module
 */
import { fitsInArgument, type HeadlessAdapter, type HeadlessEvent } from "./event.ts";
import { arr, brief, type JsonObject, obj, perLineParser, str } from "./json_line.ts";
import { limitFromText } from "./limit_text.ts";
import { toolAction } from "../channels/tool_action.ts";

/** Codex CLI's structured mode. */
export const codexHeadless: HeadlessAdapter = {
  name: "codex",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "exec", "--json", "--skip-git-repo-check", ...extraArgs];
    return !keepOutOfArgv && fitsInArgument(prompt)
      ? { argv: [...base, "--", prompt], stdin: null }
      : { argv: [...base, "-"], stdin: prompt };
  },
  newParser: () => perLineParser(_event),
};

function _errorOrLimit(message: string): HeadlessEvent {
  return limitFromText(message) ?? { kind: "error", message };
}

function _event(ev: JsonObject): HeadlessEvent[] {
  switch (ev.type) {
    case "item.completed":
      return _item(obj(ev.item));
    case "error":
      return [_errorOrLimit(str(ev.message) || "error")];
    case "turn.failed":
      return [_errorOrLimit(str(obj(ev.error).message) || "turn failed")];
    default:
      // thread.started, turn.started, turn.completed, item.started/updated, future types.
      return [];
  }
}

function _item(item: JsonObject): HeadlessEvent[] {
  switch (item.type) {
    case "agent_message": {
      const text = str(item.text).trim();
      return text ? [{ kind: "message", role: "agent", text }] : [];
    }
    case "command_execution": {
      const code = item.exit_code;
      const status = typeof code === "number" ? ` (exit ${code})` : "";
      const action = toolAction("shell", { command: codexCommand(str(item.command)) }, {
        failed: item.status === "failed",
        exitCode: typeof code === "number" ? code : null,
      });
      return [
        { kind: "tool", summary: `shell ${brief(item.command)}${status}` },
        { kind: "action", action },
      ];
    }
    case "file_change": {
      const changes = arr(item.changes).map(obj);
      const paths = changes.map((c) => `${str(c.kind)} ${str(c.path)}`.trim());
      const action = toolAction(
        "apply_patch",
        { path: changes.map((c) => str(c.path)).join(", ") },
        {
          failed: item.status === "failed",
        },
      );
      // Changes that only add files created them.
      const added = changes.length > 0 && changes.every((c) => c.kind === "add");
      return [
        { kind: "tool", summary: `file_change ${brief(paths.join(", "))}` },
        { kind: "action", action: added ? { ...action, kind: "created" } : action },
      ];
    }
    case "mcp_tool_call":
      return [{
        kind: "tool",
        summary: `${str(item.server)}.${str(item.tool)} ${brief(item.arguments)}`.trim(),
      }];
    case "web_search":
      return [{ kind: "tool", summary: `web_search ${brief(item.query)}` }];
    case "error":
      return [_errorOrLimit(str(item.message) || "error")];
    default:
      // reasoning, todo_list, future item types.
      return [];
  }
}

/**
 * The command Codex ran, without the shell it wraps every command in (`/bin/bash -lc 'CMD'`, its
 * quotes escaped `'\''`); any other form as it is.
 */
export function codexCommand(command: string): string {
  if (command.length > 65_536) return command;
  const m = /^\/\S*\/(?:ba|z)?sh -l?c '((?:[^']|'\\'')*)'$/.exec(command);
  return m ? m[1].replaceAll("'\\''", "'") : command;
}
