/**
 * Codex CLI's channel: command hooks added with `-c hooks.<Event>=[…]` (Codex's session-flags
 * layer: the user's and the project's hooks still load beside them), each running the relay, and
 * trusted by their hash with `-c hooks.state={…}` — never `--dangerously-bypass-hook-trust`,
 * which would also run every hook a repository brings that nobody reviewed. Verified live on
 * 0.171.0 (testdata/channels/codex-0.171.0/): without the trusted hashes Codex opens a blocking
 * "Hooks need review" dialog; with them exactly our hooks run (a repository's stay gated, the
 * user's own trusted hooks run as before) and nothing is shown. The hash is Codex's own
 * (`sha256:` over the compact, key-sorted JSON of `{event_name, hooks:[{async, command, timeout,
 * type}]}`), checked against 0.171.0's `hooks/list`; a Codex newer than that runs without the
 * hooks (the OSC 7501 states it always prints stay) until a run verifies the recipe again.
 *
 * - `UserPromptSubmit`: `prompt`, the submitted text; `turn_id`.
 * - `Stop`: `last_assistant_message`. It does not fire when the turn ends in an error (a usage
 *   limit, a server error): Codex 0.171.0 has no StopFailure; the screen says which.
 * - `Interrupt`: Esc stopped the turn.
 * - `PostToolUse`: a tool call that completed: Claude's fields (`tool_name`, `tool_input`,
 *   `tool_response`); a shell command is `Bash` with `{command}` and its bare output (no exit
 *   code, also when it failed), `apply_patch` has the patch as `{command}` and a response that
 *   starts `Exit code: N`. 0.171.0 has no PostToolUseFailure.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type {
  AgentChannel,
  ChannelCheck,
  ChannelEvent,
  ChannelParser,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import { toolAction } from "./tool_action.ts";

/** The hooks uuldana adds, with Codex's snake_case name for each (its trust key uses it). */
export const CODEX_CHANNEL_HOOKS = [
  ["SessionStart", "session_start"],
  ["UserPromptSubmit", "user_prompt_submit"],
  ["Stop", "stop"],
  ["Interrupt", "interrupt"],
  ["PostToolUse", "post_tool_use"],
  ["SessionEnd", "session_end"],
] as const;

/** The newest Codex whose hook-trust hash this recipe was checked against. */
export const CODEX_HOOKS_VERIFIED = "0.171.0";

/** Seconds per hook (Codex clamps SessionEnd's and Interrupt's to 3; the hash uses the value). */
const _TIMEOUT_S = 3;

/** Codex's name for the `-c` layer in a hook's trust key. */
const _SESSION_FLAGS = "/<session-flags>/config.toml";

/** Codex's trust hash of a command hook with no matcher. */
export function codexHookHash(eventName: string, command: string, timeout: number): string {
  // Key-sorted and compact, as Codex serialises it: written out, not left to key order.
  const identity = `{"event_name":${JSON.stringify(eventName)},"hooks":[{"async":false,` +
    `"command":${JSON.stringify(command)},"timeout":${timeout},"type":"command"}]}`;
  return `sha256:${createHash("sha256").update(identity).digest("hex")}`;
}

/** The `-c` arguments that add our hooks and trust exactly them. */
export function codexChannelArgs(relay: ChannelRelay): string[] {
  const args: string[] = [];
  const trusted: string[] = [];
  for (const [event, key] of CODEX_CHANNEL_HOOKS) {
    const command = relay.command(event);
    args.push(
      "-c",
      `hooks.${event}=[{hooks=[{type="command",command=${
        JSON.stringify(command)
      },timeout=${_TIMEOUT_S}}]}]`,
    );
    const hash = codexHookHash(key, command, _TIMEOUT_S);
    trusted.push(`${JSON.stringify(`${_SESSION_FLAGS}:${key}:0:0`)}={trusted_hash="${hash}"}`);
  }
  args.push("-c", `hooks.state={${trusted.join(",")}}`);
  return args;
}

// Dotted numeric parts; a pre-release sorts before its release.
function _newer(a: string, b: string): boolean {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < 3; i++) {
    const x = pa[i] || 0;
    const y = pb[i] || 0;
    if (x !== y) return x > y;
  }
  return false;
}

/**
 * Why the hooks stay off for this launch: a version whose trust hash is not verified (a wrong
 * hash would open Codex's review dialog), or the user's own `-c hooks.<Event>` for the same event
 * (a later `-c` would replace ours).
 */
export function codexOffReason({ extraArgs, version }: ChannelCheck): string | null {
  if (!version) return "its version is unknown, so its hook-trust hash cannot be trusted";
  const v = /\d+\.\d+\.\d+/.exec(version)?.[0];
  if (!v) return `its version (${version}) is not one uuldana can compare`;
  if (_newer(v, CODEX_HOOKS_VERIFIED)) {
    return `codex ${v} is newer than the newest whose hook trust uuldana verified ` +
      `(${CODEX_HOOKS_VERIFIED})`;
  }
  for (let i = 0; i < extraArgs.length; i++) {
    const a = extraArgs[i];
    const value = a === "-c" || a === "--config"
      ? extraArgs[i + 1] ?? ""
      : a.replace(/^--config=/, "");
    const own = CODEX_CHANNEL_HOOKS.find(([event]) => value.startsWith(`hooks.${event}`));
    if (own || value.startsWith("hooks.state")) {
      return `the arguments set ${value.split("=")[0]} themselves`;
    }
  }
  return null;
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

class _CodexParser implements ChannelParser {
  parse(record: ChannelRecord): ChannelEvent[] {
    const d = (record.data && typeof record.data === "object" ? record.data : {}) as Record<
      string,
      unknown
    >;
    switch (record.name) {
      case "SessionStart":
        return [{ type: "session", phase: "start", detail: _str(d.source) ?? undefined }];
      case "UserPromptSubmit": {
        const prompt = _str(d.prompt);
        return prompt === null ? [] : [{ type: "prompt", text: prompt }, { type: "busy" }];
      }
      case "Stop": {
        const text = _str(d.last_assistant_message)?.trim();
        return [...(text ? [{ type: "reply" as const, text }] : []), { type: "idle" }];
      }
      case "Interrupt":
        return [{ type: "idle" }];
      case "PostToolUse": {
        const tool = _str(d.tool_name);
        if (!tool) return [];
        // apply_patch's response starts with Codex's own `Exit code: N`; a shell command's is
        // only the command's output, which may say anything, so no exit code is read from it.
        const header = tool === "apply_patch"
          ? /^Exit code: (-?\d{1,5})\n/.exec(_str(d.tool_response) ?? "")
          : null;
        const exitCode = header ? Number(header[1]) : null;
        return [{ type: "tool", ...toolAction(tool, d.tool_input, { failed: false, exitCode }) }];
      }
      case "SessionEnd":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
    }
    return [];
  }
}

/** Codex CLI's channel declaration. */
export const CODEX_CHANNEL: AgentChannel = {
  kind: "hooks",
  // 0.171.0 fires no hook at a usage limit (no StopFailure): the screen and OSC 7501 tell it.
  reportsLimits: false,
  versioned: true,
  enables: "command hooks with -c hooks.<Event> (SessionStart, UserPromptSubmit, Stop, " +
    "Interrupt, PostToolUse, SessionEnd) and -c hooks.state trusting exactly those by hash (no bypass flag)",
  events: CODEX_CHANNEL_HOOKS.map(([event]) => event),
  offReason: codexOffReason,
  parser: () => new _CodexParser(),
};
