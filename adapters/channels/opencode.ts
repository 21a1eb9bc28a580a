/**
 * OpenCode's and Kilo's channel: uuldana's plugin (`opencode_plugin.ts`), written into the
 * launch's scratch folder and named in the inline configuration the agent reads from
 * `OPENCODE_CONFIG_CONTENT` / `KILO_CONFIG_CONTENT`. When the user's environment sets that
 * variable already, uuldana adds its plugin to that JSON and keeps every other key; the agent's
 * configuration files are never touched, and their plugins still load beside ours (verified:
 * OpenCode 1.18.33 ran a plugin from the user's `opencode.json` and ours). Not
 * `OPENCODE_CONFIG_DIR`, which makes OpenCode install `@opencode-ai/plugin` from npm into that
 * folder at every start. Verified live on OpenCode 1.18.33 and Kilo 7.7.7
 * (testdata/channels/opencode-1.18.33/, kilo-7.7.7/): nothing is shown on screen.
 *
 * - `chat.message`: the user's message as submitted (its text parts).
 * - `session.status`: `busy`, `idle`, and `retry` {`attempt`, `message`: the provider's error
 *   text, `next`: epoch ms} about 0.4 s after each failed model request: the provider's first
 *   usage-limit answer shows here, where the screen shows it only in the footer and the turn
 *   fails only after five retries (about 70 s).
 * - `session.error`: `APIError` {`message`, `statusCode`, `responseBody`} once it gives up; an
 *   interrupted turn (Esc) ends with no error, only `idle`.
 * - `message.part.updated`: each finished text part of the reply.
 *
 * @module
 */
import process from "node:process";
import type {
  AgentChannel,
  ChannelCheck,
  ChannelEvent,
  ChannelLimit,
  ChannelParseOptions,
  ChannelParser,
  ChannelRecord,
  ChannelRelay,
} from "../channel.ts";
import type { LaunchFile } from "../adapter.ts";
import { type SurfaceRules, surfaceRules } from "../limit_data.ts";
import { limitHit, matchRule, normalizeSpace, ruleHit } from "../screen_text.ts";
import {
  OPENCODE_CHANNEL_ENV,
  OPENCODE_PART_MAX,
  OPENCODE_PLUGIN_FILE,
  openCodePluginSource,
} from "./opencode_plugin.ts";
import { join } from "node:path";

/** The records the plugin writes. */
export const OPENCODE_CHANNEL_EVENTS = [
  "chat.message",
  "session.created",
  "session.status",
  "session.error",
  "message.part.updated",
] as const;

/** A reply's text kept, at most (code units). */
const _TURN_TEXT_MAX = 4 * OPENCODE_PART_MAX;

/**
 * What turns the channel on for one launch: the plugin file, its folder's variable, and the
 * inline configuration `configVar` with the plugin added to what `current` (the user's own value
 * of that variable, if any) holds. Throws when `current` is not a JSON object (checked first by
 * the channel's `offReason`).
 */
export function openCodeChannelLaunch(
  relay: ChannelRelay,
  scratchDir: string,
  configVar: string,
  current: string | undefined,
): { env: Record<string, string>; files: LaunchFile[] } {
  const plugin = join(scratchDir, OPENCODE_PLUGIN_FILE);
  const config = current ? _object(current) : {};
  if (!config) throw new Error(`${configVar} is not a JSON object`);
  const plugins = Array.isArray(config.plugin) ? config.plugin : [];
  return {
    env: {
      [configVar]: JSON.stringify({ ...config, plugin: [...plugins, `file://${plugin}`] }),
      [OPENCODE_CHANNEL_ENV]: relay.dir,
    },
    files: [{ path: plugin, content: openCodePluginSource(), mode: 0o600 }],
  };
}

function _object(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The value of `name` the agent would get: the configured environment's, else uuldana's own. */
export function inheritedEnv(
  env: Readonly<Record<string, string>>,
  name: string,
): string | undefined {
  return env[name] ?? process.env[name];
}

/** Why the channel cannot be on: an inline configuration uuldana cannot add its plugin to. */
function _offReason(configVar: string) {
  return ({ env }: ChannelCheck): string | null => {
    const current = inheritedEnv(env, configVar);
    if (current && !_object(current)) {
      return `${configVar} is set to something other than a JSON object; uuldana leaves it as it is`;
    }
    return null;
  };
}

function _str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function _rec(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" ? v as Record<string, unknown> : {};
}

// A provider's error body: `{"error":{"code":"insufficient_quota","type":…}}`.
function _providerCode(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  const err = _rec(_rec(_object(body) ?? {}).error);
  return _str(err.code) ?? _str(err.type) ?? undefined;
}

/**
 * The limit a retry or a final error names, or null when its text is not a limit (a server error,
 * a lost connection: one of `rules.vetoes`). `account_rate_limit` is OpenCode's own usage limit
 * (Zen/Go plans).
 */
export function openCodeLimit(
  message: string,
  rules: SurfaceRules,
  opts: ChannelParseOptions,
  extra: Partial<Omit<ChannelLimit, "type" | "kind" | "message" | "resetsAt">> = {},
  reason?: string,
): ChannelLimit | null {
  const text = normalizeSpace(message);
  if (reason === "account_rate_limit") {
    return { type: "limit", ...limitHit("usage", text, opts), ...extra, code: reason };
  }
  const rule = matchRule(text, rules.rules, rules.vetoes);
  return rule ? { type: "limit", ...ruleHit(rule, text, opts), ...extra } : null;
}

// One run: the user's sessions (a subagent's session has a parent), and the open turn's text.
class _OpenCodeParser implements ChannelParser {
  readonly #rules: SurfaceRules;
  readonly #children = new Set<string>();
  #busy = false;
  #parts = new Map<string, string>();
  #size = 0;

  constructor(rules: SurfaceRules) {
    this.#rules = rules;
  }

  parse(record: ChannelRecord, opts: ChannelParseOptions): ChannelEvent[] {
    const d = _rec(record.data);
    const props = _rec(d.properties);
    const session = _str(props.sessionID) ?? _str(d.sessionID) ?? _str(_rec(d.input).sessionID);
    if (record.name === "session.created") {
      const info = _rec(props.info);
      if (_str(info.parentID) && session) this.#children.add(session);
      return [];
    }
    if (session && this.#children.has(session)) return [];
    switch (record.name) {
      case "chat.message": {
        const parts = Array.isArray(d.parts) ? d.parts.map(_rec) : [];
        const text = parts.filter((p) => !p.synthetic).map((p) => _str(p.text) ?? "").join("");
        if (!text) return [];
        this.#reset();
        return [{ type: "prompt", text }, ...this.#setBusy()];
      }
      case "session.status":
        return this.#status(_rec(props.status), opts);
      case "session.error":
        return this.#error(_rec(props.error), opts);
      case "message.part.updated": {
        const part = _rec(props.part);
        // Only a finished text part of the model's (the plugin sends no other; a raw record may).
        if (part.type !== "text" || part.synthetic || !_rec(part.time).end) return [];
        const id = _str(part.id) ?? "";
        const text = _str(part.text) ?? "";
        const before = this.#parts.get(id)?.length ?? 0;
        if (text && this.#size - before + text.length <= _TURN_TEXT_MAX) {
          this.#parts.set(id, text);
          this.#size += text.length - before;
        }
        return [];
      }
    }
    return [];
  }

  #status(status: Record<string, unknown>, opts: ChannelParseOptions): ChannelEvent[] {
    switch (status.type) {
      case "busy":
        return this.#setBusy();
      case "idle":
        return this.#idle();
      case "retry": {
        const action = _rec(status.action);
        const next = typeof status.next === "number" ? status.next : null;
        const wait = next === null ? undefined : Math.max(0, (next - opts.now.getTime()) / 1000);
        const limit = openCodeLimit(_str(status.message) ?? "", this.#rules, opts, {
          ...(typeof status.attempt === "number" ? { attempt: status.attempt } : {}),
          ...(wait !== undefined ? { waitSeconds: Math.round(wait) } : {}),
        }, _str(action.reason) ?? undefined);
        return limit ? [...this.#setBusy(), limit] : this.#setBusy();
      }
    }
    return [];
  }

  #error(error: Record<string, unknown>, opts: ChannelParseOptions): ChannelEvent[] {
    const data = _rec(error.data);
    const name = _str(error.name) ?? "";
    // Esc: the turn was stopped, nothing failed.
    if (/Abort/.test(name)) return [];
    const message = normalizeSpace(_str(data.message) ?? name);
    const status = typeof data.statusCode === "number" ? data.statusCode : undefined;
    const code = _providerCode(data.responseBody);
    const provider = { ...(status ? { status } : {}), ...(code ? { code } : {}) };
    const limit = openCodeLimit(message, this.#rules, opts, { final: true, ...provider });
    if (limit) return [limit];
    return [{ type: "error", message: message || "the turn failed", ...provider }];
  }

  #setBusy(): ChannelEvent[] {
    if (this.#busy) return [];
    this.#busy = true;
    return [{ type: "busy" }];
  }

  // The turn is over: its reply (every finished text part, in order), then idle.
  #idle(): ChannelEvent[] {
    if (!this.#busy) return [];
    this.#busy = false;
    const text = [...this.#parts.values()].map((p) => p.trim()).filter((p) => p).join("\n\n");
    this.#reset();
    return [...(text ? [{ type: "reply" as const, text }] : []), { type: "idle" }];
  }

  #reset(): void {
    this.#parts = new Map();
    this.#size = 0;
  }
}

/**
 * The channel of OpenCode or a fork (`agent`, whose limit data it reads) whose inline
 * configuration is `configVar`.
 */
export function openCodeChannel(configVar: string, agent = "opencode"): AgentChannel {
  const rules = surfaceRules(agent, "provider");
  return {
    kind: "plugin",
    // A quota is a limit at the first `session.status` retry that names it.
    reportsLimits: true,
    enables: `uuldana's plugin in the inline configuration (${configVar}, merged into yours), ` +
      "copying the user's messages, session status (busy, idle, retry), errors and reply text",
    events: OPENCODE_CHANNEL_EVENTS,
    offReason: _offReason(configVar),
    parser: () => new _OpenCodeParser(rules),
  };
}
