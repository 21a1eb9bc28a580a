/**
 * The simulated agents' structured channels, the way each real CLI runs them (docs/channels.md,
 * "Verified per agent"; Claude's, which runs before the first frame and waits for some hooks, is
 * claude_channel.ts behind the same `SimChannel`): Qwen's hooks from the settings file `QWEN_CODE_SYSTEM_DEFAULTS_PATH`
 * names, OpenCode's `file://` plugins from `OPENCODE_CONFIG_CONTENT` (imported and called like
 * OpenCode calls them), Copilot's plugin hooks from `--plugin-dir`, Codex's `-c hooks.<Event>`
 * hooks when `-c hooks.state` trusts them by hash. Each turn's moments (a submit, a reply, a
 * retried or failed model call, an interrupt) become that agent's events, with the payload
 * fields the real one sends. A hook runs as a child process with its JSON on stdin; nothing it
 * prints is shown. Best effort, like the real agents: a failing hook never stops the turn.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { PersonaName } from "./persona.ts";
import { SimOtlpLogs } from "./otlp.ts";

/** The moments of a simulated turn a channel reports. */
export interface SimChannel {
  /** The user submitted `text` (turn `turn`). */
  submitted(text: string, turn: number): void;
  /** The turn was answered with `text`. */
  replied(text: string, turn: number): void;
  /** A model call failed with the provider's `body` and is retried (`attempt`, `nextMs`). */
  retrying(attempt: number, body: ProviderError, nextMs: number): void;
  /** The turn failed for good: the agent's class of error and the text it shows. */
  failed(body: ProviderError, shown: string, agentClass: string): void;
  /** The user interrupted the turn. */
  interrupted(): void;
  /** The session ends. */
  ended(): void;
  /**
   * Before the turn goes to the model (Claude: its UserPromptSubmit hooks, waited for); the turn
   * is answered once this resolves. Absent: at once.
   */
  beforeAnswer?(text: string, turn: number): Promise<void>;
  /** On the way out, the terminal restored (Claude: SessionEnd); the process exits after it. */
  closing?(code: number): Promise<void>;
}

/** A provider's error as the mock or a real API returns it. */
export interface ProviderError {
  status: number;
  message: string;
  type: string;
  code: string | null;
}

interface Hook {
  command: string;
}

const _enc = new TextEncoder();

function _json(text: string | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function _hooksIn(settings: unknown, event: string, key = "command"): Hook[] {
  const groups = (settings as { hooks?: Record<string, unknown> })?.hooks?.[event];
  const out: Hook[] = [];
  for (const g of Array.isArray(groups) ? groups : []) {
    // Claude/Qwen/Codex nest `{hooks: [...]}` groups; Copilot lists the hooks themselves.
    const list = Array.isArray(g?.hooks) ? g.hooks : [g];
    for (const h of list) {
      if (h?.type === "command" && typeof h[key] === "string") out.push({ command: h[key] });
    }
  }
  return out;
}

// Runs a hook command with `payload` on stdin; its output goes nowhere.
function _run(hook: Hook, payload: unknown): void {
  try {
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", hook.command],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const w = child.stdin.getWriter();
    w.write(_enc.encode(JSON.stringify(payload))).then(() => w.close()).catch(() => {});
    child.status.catch(() => {});
  } catch { /* a hook that cannot start is skipped */ }
}

/** Hook-based agents: one list of hooks per event name. */
class _HookChannel implements SimChannel {
  readonly #fire: (event: string, payload: Record<string, unknown>) => void;
  readonly #persona: PersonaName;
  readonly #session = crypto.randomUUID();
  #prompt = "";
  #started = false;
  /** Qwen's OpenTelemetry logs, when its settings turn them on. */
  readonly #otlp: SimOtlpLogs | null;

  constructor(
    persona: PersonaName,
    hooks: (event: string) => Hook[],
    otlp: SimOtlpLogs | null = null,
  ) {
    this.#persona = persona;
    this.#otlp = otlp;
    this.#fire = (event, payload) => {
      for (const h of hooks(event)) _run(h, payload);
    };
  }

  #base(event: string): Record<string, unknown> {
    return this.#persona === "copilot"
      ? { sessionId: this.#session, timestamp: Date.now(), cwd: Deno.cwd() }
      : { session_id: this.#session, cwd: Deno.cwd(), hook_event_name: event };
  }

  submitted(text: string, turn: number): void {
    this.#prompt = `${this.#session}########${turn}`;
    if (this.#persona === "copilot") {
      if (!this.#started) this.#fire("sessionStart", { ...this.#base(""), source: "new" });
      this.#started = true;
      this.#fire("userPromptSubmitted", { ...this.#base(""), prompt: text });
      return;
    }
    this.#fire("UserPromptSubmit", {
      ...this.#base("UserPromptSubmit"),
      prompt: text,
      ...(this.#persona === "qwen" ? { submitted_prompt: text, prompt_id: this.#prompt } : {}),
      ...(this.#persona === "codex" ? { turn_id: String(turn) } : {}),
    });
  }

  replied(text: string): void {
    switch (this.#persona) {
      case "copilot":
        this.#fire("agentStop", { ...this.#base(""), stopReason: "end_turn" });
        return;
      case "qwen":
        this.#fire("MessageDisplay", {
          ...this.#base("MessageDisplay"),
          prompt_id: this.#prompt,
          message_id: crypto.randomUUID(),
          displayed_text: text,
          is_final: true,
        });
        this.#fire("Stop", { ...this.#base("Stop"), last_assistant_message: text });
        this.#fire("Notification", {
          ...this.#base("Notification"),
          notification_type: "idle_prompt",
          message: "Qwen Code is waiting for your input",
        });
        return;
      default:
        this.#fire("Stop", { ...this.#base("Stop"), last_assistant_message: text });
    }
  }

  retrying(attempt: number, body: ProviderError, nextMs: number): void {
    // Qwen's telemetry logs each failed call and its own retry of it (0.24.4's `api_error`,
    // `api_retry`); its hooks say nothing while it retries.
    if (this.#persona === "qwen" && this.#otlp) {
      const failure = {
        model: "mock-1",
        prompt_id: this.#prompt,
        status_code: body.status,
        error_message: `${body.status} ${body.message}`,
        error_type: "RateLimitError",
      };
      this.#otlp.emit({ "event.name": "qwen-code.api_error", ...failure, duration_ms: 120 });
      this.#otlp.emit({
        "event.name": "qwen-code.api_retry",
        ...failure,
        attempt_number: attempt,
        retry_delay_ms: nextMs,
      });
    }
    // Copilot says so for every failed call; Codex says nothing while it retries.
    if (this.#persona !== "copilot") return;
    this.#fire("errorOccurred", {
      ...this.#base(""),
      errorContext: "model_call",
      recoverable: true,
      error: {
        message: JSON.stringify({
          message: body.message,
          type: body.type,
          param: null,
          code: body.code,
        }),
        name: "Error",
      },
    });
  }

  failed(body: ProviderError, shown: string, agentClass: string): void {
    if (this.#persona !== "qwen") return;
    this.#fire("StopFailure", {
      ...this.#base("StopFailure"),
      prompt_id: this.#prompt,
      error: agentClass,
      error_details: `${shown} (cause: ${body.code ?? body.type}: ${body.status} ${body.message})`,
      last_assistant_message: shown,
    });
    this.#fire("Notification", {
      ...this.#base("Notification"),
      notification_type: "idle_prompt",
    });
  }

  interrupted(): void {
    if (this.#persona === "codex") this.#fire("Interrupt", this.#base("Interrupt"));
    if (this.#persona === "qwen") {
      this.#fire("Notification", {
        ...this.#base("Notification"),
        notification_type: "idle_prompt",
      });
    }
  }

  ended(): void {
    const event = this.#persona === "copilot" ? "sessionEnd" : "SessionEnd";
    this.#fire(event, { ...this.#base(event), reason: "prompt_input_exit" });
  }
}

type _PluginHooks = {
  event?: (input: { event: unknown }) => Promise<void> | void;
  "chat.message"?: (input: unknown, output: unknown) => Promise<void> | void;
};

/** OpenCode: its plugins called with the bus events a turn publishes. */
class _PluginChannel implements SimChannel {
  readonly #plugins: _PluginHooks[];
  readonly #session = `ses_sim${Date.now()}`;
  #n = 0;

  constructor(plugins: _PluginHooks[]) {
    this.#plugins = plugins;
  }

  #event(type: string, properties: Record<string, unknown>): void {
    for (const p of this.#plugins) {
      Promise.resolve().then(() =>
        p.event?.({ event: { id: `evt_${++this.#n}`, type, properties } })
      )
        .catch(() => {});
    }
  }

  #status(status: Record<string, unknown>): void {
    this.#event("session.status", { sessionID: this.#session, status });
  }

  submitted(text: string): void {
    for (const p of this.#plugins) {
      Promise.resolve().then(() =>
        p["chat.message"]?.({ sessionID: this.#session }, {
          message: {},
          parts: [{ type: "text", text }],
        })
      ).catch(() => {});
    }
    this.#status({ type: "busy" });
  }

  replied(text: string): void {
    const now = Date.now();
    this.#event("message.part.updated", {
      sessionID: this.#session,
      part: {
        id: `prt_${++this.#n}`,
        sessionID: this.#session,
        type: "text",
        text,
        time: { start: now, end: now },
      },
    });
    this.#status({ type: "idle" });
    this.#event("session.idle", { sessionID: this.#session });
  }

  retrying(attempt: number, body: ProviderError, nextMs: number): void {
    this.#status({ type: "retry", attempt, message: body.message, next: Date.now() + nextMs });
  }

  failed(body: ProviderError): void {
    this.#event("session.error", {
      sessionID: this.#session,
      error: {
        name: "APIError",
        data: {
          message: body.message,
          statusCode: body.status,
          isRetryable: true,
          responseBody: JSON.stringify({
            error: { message: body.message, type: body.type, code: body.code },
          }),
        },
      },
    });
    this.#status({ type: "idle" });
  }

  interrupted(): void {
    this.#status({ type: "idle" });
  }

  ended(): void {}
}

/** Codex's trust hash of a command hook (its `hooks/list` `currentHash`). */
function _codexHash(event: string, command: string, timeout: number): string {
  const identity = `{"event_name":${JSON.stringify(event)},"hooks":[{"async":false,` +
    `"command":${JSON.stringify(command)},"timeout":${timeout},"type":"command"}]}`;
  return `sha256:${createHash("sha256").update(identity).digest("hex")}`;
}

const _CODEX_KEYS: Record<string, string> = {
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  Stop: "stop",
  Interrupt: "interrupt",
  PostToolUse: "post_tool_use",
  SessionEnd: "session_end",
};

// Codex's `-c hooks.<Event>=[{hooks=[{type="command",command="…",timeout=N}]}]`, each run only
// when `-c hooks.state={…}` trusts its hash (untrusted hooks do not run).
function _codexHooks(argv: readonly string[]): (event: string) => Hook[] {
  const values = argv.flatMap((a, i) =>
    (a === "-c" || a === "--config") ? [argv[i + 1] ?? ""] : []
  );
  const state = values.find((v) => v.startsWith("hooks.state=")) ?? "";
  const hooks = new Map<string, Hook[]>();
  for (const v of values) {
    const m =
      /^hooks\.([A-Za-z]+)=\[\{hooks=\[\{type="command",command=("(?:[^"\\]|\\.)*"),timeout=(\d+)\}\]\}\]$/
        .exec(v);
    if (!m || !_CODEX_KEYS[m[1]]) continue;
    const command = JSON.parse(m[2]) as string;
    const key = `"/<session-flags>/config.toml:${_CODEX_KEYS[m[1]]}:0:0"`;
    const hash = _codexHash(_CODEX_KEYS[m[1]], command, Number(m[3]));
    if (!state.includes(`${key}={trusted_hash="${hash}"}`)) continue;
    hooks.set(m[1], [{ command }]);
  }
  return (event) => hooks.get(event) ?? [];
}

// Qwen's telemetry as 0.24.4 resolves it: its variables beat the settings file; only the
// OTLP/HTTP exporter is simulated.
function _qwenOtlp(
  settings: unknown,
  env: (name: string) => string | undefined,
): SimOtlpLogs | null {
  const t = (settings as { telemetry?: Record<string, unknown> })?.telemetry ?? {};
  const flag = env("QWEN_TELEMETRY_ENABLED");
  const enabled = flag !== undefined ? flag === "true" || flag === "1" : t.enabled === true;
  const endpoint = env("QWEN_TELEMETRY_OTLP_ENDPOINT") ?? env("OTEL_EXPORTER_OTLP_ENDPOINT") ??
    (typeof t.otlpEndpoint === "string" ? t.otlpEndpoint : undefined);
  const protocol = env("QWEN_TELEMETRY_OTLP_PROTOCOL") ?? t.otlpProtocol ?? "grpc";
  if (!enabled || !endpoint || protocol !== "http" || t.outfile) return null;
  return new SimOtlpLogs(endpoint);
}

/**
 * The channel `persona` would run for this launch (its argv and environment), or null when the
 * launch turns none on, or `SIM_HOOKS_OFF=1` (a version or policy that runs no hook or plugin).
 */
export async function simChannel(
  persona: PersonaName,
  argv: readonly string[],
  env: (name: string) => string | undefined,
): Promise<SimChannel | null> {
  if (env("SIM_HOOKS_OFF") === "1") return null;
  switch (persona) {
    case "qwen": {
      const path = env("QWEN_CODE_SYSTEM_DEFAULTS_PATH");
      if (!path) return null;
      let settings: unknown;
      try {
        settings = JSON.parse(Deno.readTextFileSync(path));
      } catch {
        return null;
      }
      return new _HookChannel(
        "qwen",
        (event) => _hooksIn(settings, event),
        _qwenOtlp(settings, env),
      );
    }
    case "copilot": {
      const dirs = argv.flatMap((a, i) => a === "--plugin-dir" ? [argv[i + 1] ?? ""] : []);
      const settings = dirs.map((d) => {
        try {
          const plugin = JSON.parse(Deno.readTextFileSync(join(d, "plugin.json")));
          return JSON.parse(Deno.readTextFileSync(join(d, plugin.hooks ?? "hooks.json")));
        } catch {
          return null;
        }
      });
      if (!settings.some((s) => s)) return null;
      return new _HookChannel(
        "copilot",
        (event) => settings.flatMap((s) => _hooksIn(s, event, "bash")),
      );
    }
    case "codex":
      return argv.some((a) => a.startsWith("hooks."))
        ? new _HookChannel("codex", _codexHooks(argv))
        : null;
    case "opencode": {
      const config = _json(env("OPENCODE_CONFIG_CONTENT")) as { plugin?: unknown } | null;
      const specs = Array.isArray(config?.plugin) ? config.plugin : [];
      const plugins: _PluginHooks[] = [];
      for (const spec of specs) {
        if (typeof spec !== "string" || !spec.startsWith("file://")) continue;
        try {
          const mod = await import(spec);
          for (const make of Object.values(mod)) {
            if (typeof make === "function") plugins.push(await make({}));
          }
        } catch { /* a plugin that does not load is skipped, as OpenCode logs and goes on */ }
      }
      return plugins.length ? new _PluginChannel(plugins) : null;
    }
  }
  return null;
}
