/**
 * The user's configuration: the default agent chain and per-agent overrides. A missing file means
 * defaults; an invalid file is an error that names the file and the bad key, never a silent default.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import { configPath, type Env, processEnv } from "./paths.ts";

/** How a handoff is delivered to an agent. */
export type Road = "hook" | "prompt" | "store" | "paste";

/** All delivery roads, in the order they are described. */
export const ROADS: readonly Road[] = ["hook", "prompt", "store", "paste"];

/** Per-agent overrides. */
export interface AgentConfig {
  /** Binary path or name on PATH. */
  bin?: string;
  /** Extra arguments passed on every launch. */
  args: string[];
  /** Extra environment for the agent. */
  env: Record<string, string>;
  /** Skip this agent in chains. */
  disabled: boolean;
  /** Delivery road for automatic handoffs (adapter default when absent). */
  road?: Road;
  /**
   * The stall rule, off when absent: an agent that shows itself busy (its spinner) this many
   * seconds without answering counts as limited and is handed off (Gemini and Qwen retry silently).
   */
  stallSeconds?: number;
}

/** The whole configuration after validation and defaults. */
export interface Config {
  /** Where it was read from. */
  path: string;
  /** Whether the file existed. */
  exists: boolean;
  /** The default chain of agents. */
  chain: string[];
  /** Overrides by agent name. */
  agents: Record<string, AgentConfig>;
  /** Seconds of silence after which an agent counts as quiet. */
  quietSeconds: number;
  /** Seconds a manual switch waits for a pasteable prompt before saving handoff.md instead. */
  pasteTimeoutSeconds: number;
  /**
   * Hand the work back to the chain's first agent by itself once that agent is available again and
   * the working one is quiet with an empty input box (off: uuldana only says so).
   */
  returnToFirst: boolean;
  /** How uuldana tells the user about a switch, a wait for a reset and a return. */
  notify: NotifyConfig;
}

/** The notification settings (`notify` in the config). */
export interface NotifyConfig {
  /** The terminal bell. */
  bell: boolean;
  /** A desktop notification through the terminal (OSC 9, or OSC 777 where known). */
  desktop: boolean;
  /** A command run with the event as JSON on stdin (argv, no shell), or null. */
  command: string[] | null;
}

/** The chain used when the config does not name one. */
export const DEFAULT_CHAIN: readonly string[] = [
  "claude",
  "codex",
  "gemini",
  "opencode",
  "qwen",
  "copilot",
];

/**
 * The accepted range of every numeric key, in seconds: finite, and wide enough for any sensible
 * use (JSON's `1e999` parses as Infinity, and a timer of Infinity or 1e300 ms fires at once).
 */
export const NUMBER_RANGES: Readonly<Record<string, readonly [min: number, max: number]>> = {
  quietSeconds: [0.1, 60],
  pasteTimeoutSeconds: [1, 3600],
  stallSeconds: [1, 86_400],
};

// Checks `value` against NUMBER_RANGES[rangeKey]; the message names the key (its path in the
// file, e.g. "agents.gemini.stallSeconds"), the range and what was there.
function _inRange(key: string, rangeKey: string, value: unknown, file: string): number {
  const [min, max] = NUMBER_RANGES[rangeKey];
  if (typeof value === "number" && Number.isFinite(value) && value >= min && value <= max) {
    return value;
  }
  const got = typeof value === "number" ? String(value) : _typeOf(value);
  throw new UsageError(
    `invalid config ${file}: "${key}" must be a number from ${min} to ${max} (seconds), got ${got}`,
    "fix or remove that key; `uuldana doctor` shows the config path and its state",
  );
}

const _AGENT_KEYS = new Set(["bin", "args", "env", "disabled", "road", "stallSeconds"]);
const _TOP_KEYS = new Set([
  "chain",
  "agents",
  "quietSeconds",
  "pasteTimeoutSeconds",
  "returnToFirst",
  "notify",
]);
const _NOTIFY_KEYS = new Set(["bell", "desktop", "command"]);

// A typo never passes silently: an unknown key is an error naming it and the known ones.
function _refuseUnknown(
  obj: Record<string, unknown>,
  known: ReadonlySet<string>,
  file: string,
  prefix: string,
): void {
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) {
      throw new UsageError(
        `invalid config ${file}: unknown key "${prefix}${key}"`,
        `known keys: ${[...known].join(", ")}`,
      );
    }
  }
}

function _typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** Validates parsed JSON and fills in defaults. Throws UsageError naming `file` and the bad key. */
export function parseConfig(raw: unknown, file: string, env: Env = processEnv): Config {
  const bad = (key: string, expected: string, got: unknown) =>
    new UsageError(
      `invalid config ${file}: "${key}" must be ${expected}, got ${_typeOf(got)}`,
      "fix or remove that key; `uuldana doctor` shows the config path and its state",
    );
  if (_typeOf(raw) !== "object") throw bad("(top level)", "an object", raw);
  const obj = raw as Record<string, unknown>;
  _refuseUnknown(obj, _TOP_KEYS, file, "");
  let chain = [...DEFAULT_CHAIN];
  if ("chain" in obj) {
    const c = obj.chain;
    if (!Array.isArray(c) || c.some((x) => typeof x !== "string" || x === "")) {
      throw bad("chain", "an array of agent names (strings)", c);
    }
    chain = c as string[];
  }
  const seconds = (key: "quietSeconds" | "pasteTimeoutSeconds", fallback: number): number =>
    key in obj ? _inRange(key, key, obj[key], file) : fallback;
  const quietSeconds = seconds("quietSeconds", 1.5);
  const pasteTimeoutSeconds = seconds("pasteTimeoutSeconds", 40);
  const agents: Record<string, AgentConfig> = {};
  if ("agents" in obj) {
    const a = obj.agents;
    if (_typeOf(a) !== "object") throw bad("agents", "an object keyed by agent name", a);
    for (const [name, value] of Object.entries(a as Record<string, unknown>)) {
      agents[name] = _parseAgent(name, value, bad, file);
    }
  }
  // UULDANA_<AGENT>_BIN overrides `bin` for every agent named anywhere.
  for (const name of new Set([...chain, ...Object.keys(agents), ...DEFAULT_CHAIN])) {
    const fromEnv = env(`UULDANA_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_BIN`);
    if (fromEnv) {
      agents[name] = { ...(agents[name] ?? { args: [], env: {}, disabled: false }), bin: fromEnv };
    }
  }
  let returnToFirst = false;
  if ("returnToFirst" in obj) {
    if (typeof obj.returnToFirst !== "boolean") {
      throw bad("returnToFirst", "true or false", obj.returnToFirst);
    }
    returnToFirst = obj.returnToFirst;
  }
  const notify = _parseNotify(obj.notify, bad, file);
  return {
    path: file,
    exists: true,
    chain,
    agents,
    quietSeconds,
    pasteTimeoutSeconds,
    returnToFirst,
    notify,
  };
}

function _parseNotify(
  value: unknown,
  bad: (key: string, expected: string, got: unknown) => UsageError,
  file: string,
): NotifyConfig {
  const out: NotifyConfig = { bell: true, desktop: true, command: null };
  if (value === undefined) return out;
  if (_typeOf(value) !== "object") throw bad("notify", "an object", value);
  const v = value as Record<string, unknown>;
  _refuseUnknown(v, _NOTIFY_KEYS, file, "notify.");
  for (const key of ["bell", "desktop"] as const) {
    if (key in v) {
      if (typeof v[key] !== "boolean") throw bad(`notify.${key}`, "true or false", v[key]);
      out[key] = v[key] as boolean;
    }
  }
  if ("command" in v && v.command !== null) {
    const c = v.command;
    if (!Array.isArray(c) || c.length === 0 || c.some((x) => typeof x !== "string" || x === "")) {
      throw bad("notify.command", "a non-empty array of strings (program, then arguments)", c);
    }
    out.command = c as string[];
  }
  return out;
}

function _parseAgent(
  name: string,
  value: unknown,
  bad: (key: string, expected: string, got: unknown) => UsageError,
  file: string,
): AgentConfig {
  const at = (k: string) => `agents.${name}.${k}`;
  if (_typeOf(value) !== "object") throw bad(`agents.${name}`, "an object", value);
  const v = value as Record<string, unknown>;
  _refuseUnknown(v, _AGENT_KEYS, file, `agents.${name}.`);
  const out: AgentConfig = { args: [], env: {}, disabled: false };
  if ("bin" in v) {
    if (typeof v.bin !== "string" || v.bin === "") {
      throw bad(at("bin"), "a non-empty string", v.bin);
    }
    out.bin = v.bin;
  }
  if ("args" in v) {
    if (!Array.isArray(v.args) || v.args.some((x) => typeof x !== "string")) {
      throw bad(at("args"), "an array of strings", v.args);
    }
    out.args = v.args as string[];
  }
  if ("env" in v) {
    const e = v.env;
    if (_typeOf(e) !== "object" || Object.values(e as object).some((x) => typeof x !== "string")) {
      throw bad(at("env"), "an object of string values", e);
    }
    out.env = e as Record<string, string>;
  }
  if ("disabled" in v) {
    if (typeof v.disabled !== "boolean") throw bad(at("disabled"), "true or false", v.disabled);
    out.disabled = v.disabled;
  }
  if ("road" in v) {
    if (typeof v.road !== "string" || !(ROADS as string[]).includes(v.road)) {
      throw bad(at("road"), `one of ${ROADS.map((r) => `"${r}"`).join(", ")}`, v.road);
    }
    out.road = v.road as Road;
  }
  if ("stallSeconds" in v) {
    out.stallSeconds = _inRange(at("stallSeconds"), "stallSeconds", v.stallSeconds, file);
  }
  return out;
}

/** Loads the configuration from `configPath()`; a missing file gives defaults. */
export function loadConfig(env: Env = processEnv): Config {
  const file = configPath(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      return { ...parseConfig({}, file, env), exists: false };
    }
    throw new UsageError(`cannot read config ${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(
      `invalid config ${file}: not valid JSON (${(e as Error).message})`,
      "fix the file or remove it to use the defaults",
    );
  }
  return parseConfig(raw, file, env);
}

/** The settings for one agent, with defaults when the config does not mention it. */
export function agentConfig(config: Config, name: string): AgentConfig {
  return config.agents[name] ?? { args: [], env: {}, disabled: false };
}
