/**
 * Claude Code's channel: command hooks added through the inline `--settings` uuldana passes anyway
 * (merged there with the hook road's SessionStart), each running the relay with the hook's JSON on
 * stdin. Verified live on 2.1.197 and 2.1.332 (testdata/channels/claude-2.1.332/): `SessionStart`,
 * `UserPromptSubmit` (`prompt`: the exact submitted text), `MessageDisplay` (`message_id`, `delta`,
 * `final`: each displayed text message in parts), `Stop` (`last_assistant_message`: the turn's
 * last text message only), `StopFailure` (`error: "rate_limit"` and the limit text in
 * `last_assistant_message` at a usage limit), `SessionEnd` (`reason`). Claude adds what a
 * UserPromptSubmit or SessionStart hook prints to the model's context: the relay prints nothing.
 * Slash commands fire no hook. 2.1.332 wraps a paste (and a long text typed fast) in
 * `<pasted_content id="HEX">` tags in the prompt: the event carries the text without them. Esc
 * during a reply fires no Stop: the turn's reply is what it displayed, said once a later turn
 * ends.
 *
 * @module
 */
import type { AgentChannel, ChannelEvent, ChannelParseOptions, ChannelParser } from "../channel.ts";
import { USAGE_WORDS } from "../limit_messages.ts";
import { limitRules, limitVetoes } from "../limit_data.ts";
import { limitHit, matchRule, normalizeSpace, ruleHit } from "../screen_text.ts";
import { postToolUseAction } from "./tool_action.ts";

/** The hooks uuldana adds, in the order Claude fires them in a session. */
export const CLAUDE_CHANNEL_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "MessageDisplay",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "StopFailure",
  "SessionEnd",
] as const;

/** Seconds Claude may wait for our hook (it returns in milliseconds; this only bounds a stuck one). */
const _TIMEOUT_S = 5;
/** A turn's text kept from its displayed messages, at most (code units). */
const _TURN_TEXT_MAX = 256 * 1024;

/** One Claude settings hook group. */
export interface ClaudeHookGroup {
  matcher?: string;
  hooks: { type: "command"; command: string; timeout: number }[];
}

/** The channel's hooks for `--settings`, one group per event, each running `command(event)`. */
export function claudeChannelHooks(
  command: (event: string) => string,
): Record<string, ClaudeHookGroup[]> {
  const hooks: Record<string, ClaudeHookGroup[]> = {};
  for (const event of CLAUDE_CHANNEL_EVENTS) {
    hooks[event] = [{ hooks: [{ type: "command", command: command(event), timeout: _TIMEOUT_S }] }];
  }
  return hooks;
}

// Arguments after which Claude runs no hook at all (PROVIDERS.md §2.1).
const _NO_HOOKS = ["--bare", "--safe-mode"];

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/**
 * What a StopFailure means: a limit when Claude calls it `rate_limit` (or `billing_error`) and its
 * text is not one Claude uses for a server-side throttle, or when its text is a hard limit of
 * Claude's row whatever Claude calls it; anything else is an error, not a limit.
 */
// The texts of Claude's `⎿` limit row: its StopFailure hook carries the same.
const _RULES = limitRules("claude", "row");
const _VETOES = limitVetoes("claude", "row");

export function claudeFailure(
  error: string,
  message: string,
  opts: ChannelParseOptions,
): ChannelEvent {
  const text = normalizeSpace(message);
  const code = { code: error };
  if (error === "rate_limit" || error === "billing_error") {
    const rule = matchRule(text, _RULES, _VETOES);
    if (rule) return { type: "limit", ...ruleHit(rule, text, opts), ...code };
    if (!_VETOES.some((v) => v.test(text))) {
      // A text this uuldana does not know yet: a reset time or quota words mean a usage limit;
      // otherwise Claude gave up retrying a rate limit (the turn is over).
      const usage = error === "billing_error" || USAGE_WORDS.test(text) ||
        limitHit("usage", text, opts).resetsAt !== null;
      const hit = usage
        ? limitHit("usage", text, opts)
        : limitHit("rate", text, opts, { final: true });
      return { type: "limit", ...hit, ...code };
    }
  }
  // Any other failure whose text is a hard limit of Claude's row (an `invalid_request` 400 "This
  // organization has been disabled."): the work stops until someone acts.
  const rule = matchRule(text, _RULES, _VETOES);
  if (rule) return { type: "limit", ...ruleHit(rule, text, opts), ...code };
  return { type: "error", message: text || error, ...code };
}

// Claude 2.1.332 sends a pasted text (and a long text typed fast enough to look pasted) wrapped,
// `\n\n<pasted_content id="f5a8">\n…\n</pasted_content id="f5a8">\n`, in the prompt the model
// gets and the one its UserPromptSubmit hook gets: the user's text is what it holds.
const _PASTE =
  /\n\n<pasted_content id="([0-9a-f]{1,16})">\n([\s\S]*?)\n<\/pasted_content id="\1">\n/g;

/** A prompt with Claude's paste wrappers taken off: the text as the user gave it. */
export function unwrapPastes(prompt: string): string {
  return prompt.includes("<pasted_content id=")
    ? prompt.replace(_PASTE, (_, _id, body) => body)
    : prompt;
}

// The parts of one displayed message: Claude runs MessageDisplay hooks without waiting for them,
// so parts may arrive out of order, and after the turn's Stop.
type _Message = Map<number, string>;

// Turns followed at once, at most: a late part of an older turn is dropped.
const _TURNS_KEPT = 4;

// The text messages of each turn (by `prompt_id`), as displayed; bounded.
class _ClaudeParser implements ChannelParser {
  readonly #turns = new Map<string, Map<string, _Message>>();
  /** Turns already answered: their late parts are not kept. */
  readonly #done: string[] = [];
  /** The turns prompted and not answered yet, oldest first (bounded). */
  readonly #prompts: string[] = [];
  #size = 0;

  parse(record: { name: string; data: unknown }, opts: ChannelParseOptions): ChannelEvent[] {
    const d = (record.data ?? {}) as Record<string, unknown>;
    if (typeof d !== "object") return [];
    const turn = _str(d.prompt_id) ?? "";
    const id = turn ? { turn } : {};
    switch (record.name) {
      case "SessionStart":
        return [{ type: "session", phase: "start", detail: _str(d.source) ?? undefined }];
      case "UserPromptSubmit": {
        const prompt = _str(d.prompt);
        if (prompt === null) return [];
        if (turn && !this.#prompts.includes(turn)) {
          this.#prompts.push(turn);
          if (this.#prompts.length > _TURNS_KEPT) this.#prompts.shift();
        }
        return [{ type: "prompt", text: unwrapPastes(prompt), ...id }, { type: "busy", ...id }];
      }
      case "MessageDisplay":
        if (typeof d.index === "number") {
          this.#add(turn, _str(d.message_id) ?? "", d.index, _str(d.delta) ?? "");
        }
        return [];
      case "Stop": {
        const before = this.#interrupted(turn);
        const text = this.#answer(turn, _str(d.last_assistant_message));
        return [...before, ...(text ? [{ type: "reply" as const, text, ...id }] : []), {
          type: "idle",
          ...id,
        }];
      }
      case "StopFailure": {
        // Its text is Claude's error message, not the model's: the reply is what was displayed.
        const before = this.#interrupted(turn);
        const text = this.#answer(turn, null);
        const failure = claudeFailure(
          _str(d.error) ?? "unknown",
          _str(d.last_assistant_message) ?? "",
          opts,
        );
        return [
          ...before,
          ...(text ? [{ type: "reply" as const, text, ...id }] : []),
          { ...failure, ...id },
          { type: "idle", ...id },
        ];
      }
      case "PostToolUse":
      case "PostToolUseFailure": {
        const action = postToolUseAction(record.name, d);
        return action ? [{ type: "tool", ...action, ...id }] : [];
      }
      case "SessionEnd":
        return [{ type: "session", phase: "end", detail: _str(d.reason) ?? undefined }];
    }
    return [];
  }

  // Turn `turn` ended: every turn prompted before it that never ended was interrupted (Esc fires
  // no Stop). Each one's reply is what it displayed before it stopped: Claude keeps that much of
  // it in the conversation the model sees next.
  #interrupted(turn: string): ChannelEvent[] {
    const at = this.#prompts.indexOf(turn);
    if (!turn || at < 0) return [];
    const out: ChannelEvent[] = [];
    for (const old of this.#prompts.splice(0, at + 1).slice(0, -1)) {
      if (this.#done.includes(old)) continue;
      const text = this.#answer(old, null);
      if (text) out.push({ type: "reply", text, turn: old });
    }
    return out;
  }

  #add(turn: string, id: string, index: number, delta: string): void {
    if (!delta || this.#done.includes(turn) || this.#size >= _TURN_TEXT_MAX) return;
    let messages = this.#turns.get(turn);
    if (!messages) {
      messages = new Map();
      this.#turns.set(turn, messages);
      for (const old of [...this.#turns.keys()].slice(0, -_TURNS_KEPT)) this.#forget(old);
    }
    let parts = messages.get(id);
    if (!parts) messages.set(id, parts = new Map());
    const kept = delta.slice(0, _TURN_TEXT_MAX - this.#size);
    this.#size += kept.length - (parts.get(index)?.length ?? 0);
    parts.set(index, kept);
  }

  // The turn's text: every message it displayed, in order, the last one from Stop itself (whole:
  // its displayed parts may still be on their way). Once answered, the turn is forgotten.
  #answer(turn: string, last: string | null): string {
    const tail = last?.trim() ?? "";
    const shown = [...(this.#turns.get(turn)?.values() ?? [])]
      .map((parts) => [...parts.entries()].sort((a, b) => a[0] - b[0]).map((p) => p[1]))
      // A message whose every part is in Stop's text is that last message.
      .filter((parts) => !(tail && parts.every((p) => tail.includes(p.trim()))))
      .map((parts) => parts.join("").trim())
      .filter((m) => m !== "");
    this.#forget(turn);
    this.#done.push(turn);
    if (this.#done.length > _TURNS_KEPT) this.#done.shift();
    return [...shown, ...(tail ? [tail] : [])].join("\n\n");
  }

  #forget(turn: string): void {
    for (const parts of this.#turns.get(turn)?.values() ?? []) {
      for (const p of parts.values()) this.#size -= p.length;
    }
    this.#turns.delete(turn);
  }
}

/** Claude Code's channel declaration. */
export const CLAUDE_CHANNEL: AgentChannel = {
  kind: "hooks",
  enables: "command hooks in the inline --settings JSON (SessionStart, UserPromptSubmit, " +
    "MessageDisplay, Stop, StopFailure, SessionEnd), each running uuldana's relay",
  events: CLAUDE_CHANNEL_EVENTS,
  reportsLimits: true,
  offReason: ({ extraArgs }) => {
    const flag = extraArgs.find((a) => _NO_HOOKS.includes(a));
    return flag ? `${flag} turns Claude's hooks off` : null;
  },
  parser: () => new _ClaudeParser(),
};
