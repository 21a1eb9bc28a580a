/**
 * The user's configuration: the default agent chain and per-agent overrides. A missing file means
 * defaults; an invalid file is an error that names the file and the bad key, never a silent default.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import { configPath, type Env, processEnv } from "./paths.ts";
import { numberRanges, type Spec, SpecError, validate } from "./spec.ts";
import { DEFAULT_RETENTION, type RetentionRule } from "../journal/retention.ts";

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
  /**
   * The retry-loop rule: an error the agent retries without end (Gemini CLI's capacity loop) hands
   * off once nothing else happened this many seconds; 0 turns it off; 60 when absent.
   */
  retryLoopSeconds?: number;
  /** `handoffEarly` for this agent (the top-level value when absent). */
  handoffEarly?: boolean;
}

/**
 * A named profile (`profiles.NAME`): the agent it runs, and settings that change it. Its `args` and
 * `env` are added to the agent's own; `bin`, `road`, `stallSeconds`, `retryLoopSeconds` and `disabled` replace them.
 */
export interface ProfileConfig extends AgentConfig {
  /** The agent's name (an adapter's, never another profile's). */
  agent: string;
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
  /** Named profiles of agents, each a chain member of its own. */
  profiles: Record<string, ProfileConfig>;
  /** Seconds of silence after which an agent counts as quiet. */
  quietSeconds: number;
  /** Seconds a manual switch waits for a pasteable prompt before saving handoff.md instead. */
  pasteTimeoutSeconds: number;
  /**
   * Hand the work back to the chain's first agent by itself once that agent is available again and
   * the working one is quiet with an empty input box (off: uuldana only says so).
   */
  returnToFirst: boolean;
  /**
   * After an agent's usage warning ("You've used 90% of your 5-hour limit"), hand off at its next
   * turn boundary (idle, its input box empty) so the next agent starts there, not mid-edit. Off:
   * the warning is only kept in the ledger. `agents.NAME.handoffEarly` overrides it per agent.
   */
  handoffEarly: boolean;
  /**
   * How uuldana tells the user about a switch, a wait for a reset, the first agent available again,
   * a return and a handoff that did not reach the agent (`NotifyEvent`).
   */
  notify: NotifyConfig;
  /** How long recordings and delivered handoff files are kept in the data folder. */
  retention: RetentionRule;
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

/** What a chain member's settings may hold, for an agent (`agents.NAME`) or a profile. */
const _MEMBER_PROPERTIES: Record<string, Spec> = {
  bin: {
    type: "string",
    description: "The agent's binary: a path, or a name looked up on PATH.",
    nonEmpty: true,
  },
  args: {
    type: "strings",
    description: "Extra arguments passed on every launch.",
    default: [],
  },
  env: {
    type: "stringMap",
    description: "Extra environment variables for the agent.",
    default: {},
  },
  disabled: {
    type: "boolean",
    description: "Leave this agent out of chains.",
    default: false,
  },
  road: {
    type: "enum",
    description: "How an automatic handoff reaches it (the agent's default when absent).",
    values: ROADS,
  },
  stallSeconds: {
    type: "number",
    description: "Hand off when the agent shows itself busy this long without answering " +
      "(for agents that retry silently); off when absent.",
    min: 1,
    max: 86_400,
    unit: "seconds",
  },
  retryLoopSeconds: {
    type: "number",
    description: "Hand off when the agent keeps retrying an error it retries without end " +
      "(Gemini CLI's capacity loop) and nothing else happens this long; 0 turns it off " +
      "(60 when absent).",
    min: 0,
    max: 86_400,
    unit: "seconds",
  },
  handoffEarly: {
    type: "boolean",
    description: "handoffEarly for this agent (the top-level value when absent).",
  },
};

/**
 * The settings file, described once: `parseConfig` validates against it (with these messages and
 * defaults) and `uuldana config schema` prints it as JSON Schema. A new key goes here. Every number
 * has a finite range wide enough for any sensible use (JSON's `1e999` parses as Infinity, and a
 * timer of Infinity or 1e300 ms fires at once).
 */
export const CONFIG_SPEC: Spec = {
  type: "object",
  description: "uuldana's settings: the chain of agents, per-agent overrides, timings.",
  properties: {
    chain: {
      type: "strings",
      description: "The agents (or profiles) to run, in order: on a usage limit the work goes to " +
        "the next one.",
      nonEmptyItems: true,
      default: DEFAULT_CHAIN,
      expected: "an array of agent or profile names (strings)",
    },
    agents: {
      type: "map",
      description: "Settings per agent, keyed by agent name (claude, codex, gemini, …).",
      expected: "an object keyed by agent name",
      default: {},
      values: {
        type: "object",
        description: "Settings for this agent.",
        properties: _MEMBER_PROPERTIES,
      },
    },
    profiles: {
      type: "map",
      description: "Named profiles: an agent on another account, API key or model, each usable " +
        'in the chain like an agent (e.g. "claude-api": {"agent": "claude", "env": ' +
        '{"ANTHROPIC_API_KEY": "${ANTHROPIC_API_KEY_FALLBACK}"}}).',
      expected: "an object keyed by profile name",
      default: {},
      values: {
        type: "object",
        description: "A profile: the agent it runs and what it changes. Its args and env are " +
          "added to the agent's own settings; bin, road, stallSeconds, retryLoopSeconds and disabled replace them. " +
          "${VAR} in an env value is read from your environment at launch, ~/ is your home.",
        required: ["agent"],
        properties: {
          agent: {
            type: "string",
            description: "The agent this profile runs (claude, codex, gemini, …).",
            nonEmpty: true,
            expected: "the name of an agent (claude, codex, gemini, …)",
          },
          ..._MEMBER_PROPERTIES,
        },
      },
    },
    quietSeconds: {
      type: "number",
      description: "Seconds of silence after which an agent counts as quiet.",
      min: 0.1,
      max: 60,
      unit: "seconds",
      default: 1.5,
    },
    pasteTimeoutSeconds: {
      type: "number",
      description:
        "Seconds a manual switch waits for a pasteable prompt before saving handoff.md instead.",
      min: 1,
      max: 3600,
      unit: "seconds",
      // The contract: a user whose agent never asks for the paste hears where the handoff is saved
      // within 40 s. A slower machine is the user's to allow for, with a longer value.
      default: 40,
    },
    returnToFirst: {
      type: "boolean",
      description: "Hand the work back to the chain's first agent once it is available again, " +
        "when the working agent is quiet and its input box empty (off: only say so).",
      default: false,
    },
    handoffEarly: {
      type: "boolean",
      description: "After an agent's usage warning (\"You've used 90% of your 5-hour limit\"), " +
        "hand off at its next turn boundary, idle with an empty input box (off: the warning is " +
        "only kept, `uuldana limits` shows it).",
      default: false,
    },
    notify: {
      type: "object",
      description:
        "How uuldana tells you about an automatic switch, a wait for a reset, the first agent available again, a return, a handoff that did not reach the agent.",
      properties: {
        bell: { type: "boolean", description: "Ring the terminal bell.", default: true },
        desktop: {
          type: "boolean",
          description: "A desktop notification through the terminal (OSC 9; OSC 777 where known).",
          default: true,
        },
        command: {
          type: "strings",
          description: "A command (program, then arguments; no shell) run with the event as JSON " +
            "on stdin, stopped after 5 s.",
          nonEmptyItems: true,
          expected: "a non-empty array of strings (program, then arguments)",
        },
      },
    },
    retention: {
      type: "object",
      description: "How long the data folder keeps each run's recording and each delivered " +
        "handoff's file (removed in the background of `uuldana run`; `uuldana doctor` shows it).",
      properties: {
        maxAgeDays: {
          type: "number",
          description: "Remove recordings and delivered handoff files older than this.",
          min: 1,
          max: 36_500,
          unit: "days",
          default: DEFAULT_RETENTION.maxAgeDays,
        },
        maxMegabytes: {
          type: "number",
          description: "Past this total of recordings and handoff files, remove the oldest " +
            "removable ones first.",
          min: 1,
          max: 10_000_000,
          unit: "MB",
          default: DEFAULT_RETENTION.maxMegabytes,
        },
        keepDays: {
          type: "number",
          description: "Never remove anything of the last this many days, whatever the size " +
            "(a handoff not delivered is never removed).",
          min: 0,
          max: 36_500,
          unit: "days",
          default: DEFAULT_RETENTION.keepDays,
        },
      },
    },
  },
};

/** The accepted range of every numeric key, by key name (from {@link CONFIG_SPEC}). */
export const NUMBER_RANGES: Readonly<Record<string, readonly [min: number, max: number]>> =
  numberRanges(CONFIG_SPEC);

/** Validates parsed JSON and fills in defaults. Throws UsageError naming `file` and the bad key. */
export function parseConfig(raw: unknown, file: string, env: Env = processEnv): Config {
  let checked: Omit<Config, "path" | "exists">;
  try {
    checked = validate(CONFIG_SPEC, raw, "(top level)") as typeof checked;
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    throw new UsageError(
      `invalid config ${file}: ${e.message}`,
      e.known
        ? `known keys: ${e.known.join(", ")}`
        : "fix or remove that key; `uuldana doctor` shows the config path and its state",
    );
  }
  const agents = checked.agents;
  // UULDANA_<AGENT>_BIN overrides `bin` for every agent named anywhere.
  for (const name of new Set([...checked.chain, ...Object.keys(agents), ...DEFAULT_CHAIN])) {
    if (name in checked.profiles) continue; // a profile's binary is its own "bin", or its agent's

    const fromEnv = env(`UULDANA_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_BIN`);
    if (fromEnv) {
      agents[name] = { ...(agents[name] ?? { args: [], env: {}, disabled: false }), bin: fromEnv };
    }
  }
  const notify = checked.notify as Partial<NotifyConfig> | undefined;
  if (notify?.command && notify.command.length === 0) {
    throw new UsageError(
      `invalid config ${file}: "notify.command" must be a non-empty array of strings (program, ` +
        "then arguments), got an empty array",
      "fix or remove that key; `uuldana doctor` shows the config path and its state",
    );
  }
  return {
    ...checked,
    path: file,
    exists: true,
    agents,
    notify: {
      bell: notify?.bell ?? true,
      desktop: notify?.desktop ?? true,
      command: notify?.command ?? null,
    },
    retention: { ...DEFAULT_RETENTION, ...(checked.retention as Partial<RetentionRule>) },
  };
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

/**
 * Whether `handoffEarly` is on for a chain member with settings `member` (an agent's, or a
 * profile's laid over its agent's): its own key, else the top-level one.
 */
export function handoffEarlyFor(config: Config, member: AgentConfig): boolean {
  return member.handoffEarly ?? config.handoffEarly;
}

/** The settings for one agent, with defaults when the config does not mention it. */
export function agentConfig(config: Config, name: string): AgentConfig {
  return config.agents[name] ?? { args: [], env: {}, disabled: false };
}
