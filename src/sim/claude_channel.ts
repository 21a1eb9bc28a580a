/**
 * Claude Code's structured channel as the simulated `claude` runs it: the hooks of the user's own
 * `~/.claude/settings.json` and of `--settings` (whose hook arrays Claude concatenates), run with
 * the stdin JSON real Claude 2.1.332 sends (claude_hook.ts runs one). Behind the same `SimChannel`
 * as the other agents' channels (channel.ts), with what only Claude does: SessionStart before it
 * draws anything (its context reaches the model and its notes the screen), UserPromptSubmit waited
 * for before the turn goes to the model, MessageDisplay and Stop not waited for, SessionEnd on the
 * way out.
 *
 * @module
 */
import { join } from "node:path";
import { eventHooks, type HookResult, modelContext, readSettings, runHook } from "./claude_hook.ts";
import type { SimLaunch } from "./launch.ts";
import { toolCalls } from "./env.ts";
import type { SimLog } from "./log.ts";
import { simStateDir } from "./opencode_store.ts";
import type { ProviderError, SimChannel } from "./channel.ts";

/** What starting Claude's channel gave: the channel, the notes it shows, the model's context. */
export interface ClaudeStart {
  /** Null when no settings (of the user's or `--settings`) were read: no hook ever runs. */
  channel: ClaudeChannel | null;
  /** Lines for the screen (a settings error, what SessionStart added). */
  notes: string[];
  /** What the SessionStart hooks added to the model's context ("" when nothing). */
  context: string;
}

/**
 * Reads Claude's settings and runs its SessionStart hooks (`source: "startup"`), as Claude does
 * before its first frame.
 */
export async function startClaudeChannel(
  launch: SimLaunch,
  log: SimLog,
  sessionId: string,
): Promise<ClaudeStart> {
  const settings: unknown[] = [];
  const notes: string[] = [];
  const user = join(Deno.env.get("HOME") ?? "/nonexistent", ".claude", "settings.json");
  try {
    settings.push(JSON.parse(Deno.readTextFileSync(user)));
  } catch { /* none, or not JSON: Claude would say so; the simulation goes on */ }
  let valid = true;
  if (launch.settings !== null) {
    try {
      settings.push(readSettings(launch.settings));
    } catch (e) {
      log.write({ event: "hook", error: `invalid settings: ${(e as Error).message}` });
      notes.push(`Settings error: ${(e as Error).message}`);
      valid = false;
    }
  }
  const channel = settings.length ? new ClaudeChannel(settings, log, sessionId) : null;
  let context = "";
  if (channel && valid) {
    const results = await channel.fire(
      "SessionStart",
      { source: "startup", model: "claude-sim-1" },
      "startup",
    );
    for (const r of results) {
      if (r.exitCode !== 0) {
        notes.push(`SessionStart:startup hook error`);
      } else if (r.additionalContext) {
        context += (context ? "\n" : "") + r.additionalContext;
        const n = [...r.additionalContext].length;
        notes.push(`SessionStart:startup hook added ${n} characters of context`);
      }
    }
  }
  return { channel, notes, context };
}

/** Claude's hooks for the moments of a session (see the module's notes). */
export class ClaudeChannel implements SimChannel {
  readonly #settings: unknown[];
  readonly #log: SimLog;
  readonly #sessionId: string;
  /** The turn's `prompt_id`, as its hooks carry it. */
  #promptId = "";
  /** Hooks not waited for (MessageDisplay, Stop, StopFailure), waited for before exit. */
  readonly #unwaited = new Set<Promise<unknown>>();

  constructor(settings: unknown[], log: SimLog, sessionId: string) {
    this.#settings = settings;
    this.#log = log;
    this.#sessionId = sessionId;
  }

  /**
   * Runs every hook of `event` with Claude's stdin JSON (the fields real Claude 2.1.332 sends) and
   * logs each; all of an event's hooks run at once.
   */
  async fire(
    event: string,
    extra: Record<string, unknown>,
    match?: string,
  ): Promise<HookResult[]> {
    const hooks = this.#settings.flatMap((s) => eventHooks(s, event, match));
    if (hooks.length === 0) return [];
    const input = {
      session_id: this.#sessionId,
      transcript_path: `${simStateDir()}/claude/${this.#sessionId}.jsonl`,
      cwd: Deno.cwd(),
      ...(event === "SessionStart" ? {} : { prompt_id: this.#promptId }),
      hook_event_name: event,
      ...extra,
    };
    return await Promise.all(hooks.map(async (hook) => {
      const r = await runHook(hook, input, Deno.cwd());
      this.#log.write({
        event: "hook",
        hook: event,
        command: r.command,
        exitCode: r.exitCode,
        additionalContext: r.additionalContext,
        ...(event === "SessionStart"
          ? { modelReceived: r.additionalContext ? modelContext(r.additionalContext) : "" }
          : {}),
        ...(r.stderr ? { stderr: r.stderr } : {}),
      });
      return r;
    }));
  }

  // Claude does not wait for these (MessageDisplay): they may finish in any order.
  #fireUnwaited(event: string, extra: Record<string, unknown>): void {
    const p = this.fire(event, extra).catch(() => []);
    this.#unwaited.add(p);
    p.finally(() => this.#unwaited.delete(p));
  }

  submitted(): void {}

  /**
   * Claude runs the UserPromptSubmit hooks, then sends the turn with what they printed as context
   * (the log's "model" event is what the model received); the turn is answered after this.
   */
  async beforeAnswer(text: string, turn: number): Promise<void> {
    this.#promptId = crypto.randomUUID();
    const rs = await this.fire("UserPromptSubmit", { permission_mode: "default", prompt: text });
    const hookContext = rs.filter((r) => r.exitCode === 0 && r.additionalContext)
      .map((r) => `UserPromptSubmit hook additional context: ${r.additionalContext}`);
    this.#log.write({ event: "model", turn, prompt: text, hookContext });
    // The turn's tool calls (SIM_TOOL_CALLS), each followed by its PostToolUse or
    // PostToolUseFailure hook, waited for as Claude does, with 2.1.332's fields.
    for (const [i, call] of toolCalls(turn).entries()) {
      const base = {
        permission_mode: "default",
        effort: { level: "medium" },
        tool_name: call.tool,
        tool_input: call.input,
        tool_use_id: `toolu_sim_${turn}_${i}`,
      };
      await (call.error === undefined
        ? this.fire("PostToolUse", {
          ...base,
          tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false },
          duration_ms: 5,
        })
        : this.fire("PostToolUseFailure", {
          ...base,
          error: call.error,
          is_interrupt: false,
          duration_ms: 5,
        }));
    }
  }

  // As real Claude: the displayed message in two MessageDisplay parts (not waited for), then Stop.
  replied(text: string): void {
    const message_id = crypto.randomUUID();
    const cut = text.indexOf("\n") + 1;
    const parts = cut > 0 ? [text.slice(0, cut), text.slice(cut)] : [text];
    parts.forEach((delta, index) =>
      this.#fireUnwaited("MessageDisplay", {
        turn_id: this.#promptId,
        message_id,
        index,
        final: index === parts.length - 1,
        delta,
      })
    );
    this.#fireUnwaited("Stop", {
      permission_mode: "default",
      effort: { level: "medium" },
      stop_hook_active: false,
      last_assistant_message: text,
      background_tasks: [],
      session_crons: [],
    });
  }

  /** Claude says nothing while it retries. */
  retrying(): void {}

  /** The turn ended on a limit: StopFailure with Claude's class (`rate_limit`) and its row. */
  failed(_body: ProviderError, shown: string, agentClass: string): void {
    this.#fireUnwaited("StopFailure", {
      effort: { level: "medium" },
      error: agentClass,
      last_assistant_message: shown,
    });
  }

  /** An Esc during a reply: no hook (the turn simply has no Stop). */
  interrupted(): void {}

  /** Claude's SessionEnd runs on the way out (`closing`), not when the session decides to end. */
  ended(): void {}

  /** On the way out: SessionEnd hooks (awaited), and the unwaited hooks let finish. */
  async closing(code: number): Promise<void> {
    await this.fire("SessionEnd", { reason: code === 0 ? "prompt_input_exit" : "other" });
    await Promise.allSettled([...this.#unwaited]);
  }
}
