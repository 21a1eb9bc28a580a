/**
 * The world every end-to-end test runs uuldana in: simulated agents installed under their CLI
 * names (or programs of the test's own), a config naming the chain, a private data folder, a
 * workspace, and tmux as the user's terminal. uuldana runs in it three ways: in tmux like a user
 * would (`start`), to its end as a plain subprocess (`uuldana`), or in this process
 * (`runChain`, the chain without an outer terminal).
 *
 * ```ts
 * const w = new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } });
 * try {
 *   await w.start(["run"]);
 *   await w.ask("claude", "fix the test");
 *   const [start] = await w.waitForEvent("codex", "start");
 * } finally {
 *   await w.close();
 * }
 * ```
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installSimAgents } from "../src/sim/install.ts";
import { PERSONA_NAMES } from "../src/sim/persona.ts";
import { readSimLog, type SimEvent } from "../src/sim/log.ts";
import { Journal, type RunChannelRecord } from "../src/journal/journal.ts";
import { loadConfig } from "../src/config/config.ts";
import { ensurePrivateDir } from "../src/config/paths.ts";
import type { AgentRun } from "../src/session/agent_run.ts";
import { runChain } from "../src/session/chain.ts";
import type { Keyboard, KeySink } from "../src/session/keyboard.ts";
import { UULDANA } from "./_paths.ts";
import { runUuldana, type RunUuldanaOptions, type UuldanaOutput } from "./_uuldana.ts";
import { TmuxTerminal } from "./_tmux.ts";
import { assertRunsReplay, type ReplayCheck } from "./_replay_check.ts";

/** Keys a test types, delivered like the user's stdin to whichever run holds the keyboard. */
export class TypedKeyboard implements Keyboard {
  #sink: KeySink | null = null;
  setSink(sink: KeySink | null): void {
    this.#sink = sink;
  }
  /** Types `text` (nothing happens while no run holds the keyboard). */
  type(text: string): void {
    this.#sink?.(new TextEncoder().encode(text));
  }
  close(): void {}
}

/** What {@linkcode World.runChain} may change from a plain `uuldana run`. */
export interface InProcessChain {
  keyboard?: Keyboard;
  size?: () => { cols: number; rows: number };
  onRun?: (run: AgentRun | null) => void;
  abort?: AbortSignal;
  /** Wait for a reset when every agent is limited (default: exit 3 at once). */
  wait?: boolean;
  /** Called with each status line as it is shown. */
  onStatus?: (line: string) => void;
}

/** The size and the environment of uuldana's terminal ({@linkcode World.start}). */
export interface TerminalStart {
  cols?: number;
  rows?: number;
  /** Added to the world's environment. */
  env?: Record<string, string>;
}

/** How a world differs from the plain one (beyond its chain and the chain's agents' env). */
export interface WorldOptions {
  /** Programs to run instead of the simulated agents, by agent name. */
  bins?: Record<string, string>;
  /** A simulated agent that plays an agent with no persona of its own (`{ kilo: "opencode" }`). */
  playedBy?: Record<string, string>;
  /** More config keys per agent (e.g. `stallSeconds`). */
  agents?: Record<string, Record<string, unknown>>;
  /** More top-level config keys (e.g. `returnToFirst`). */
  config?: Record<string, unknown>;
  /**
   * Profiles (`profiles` in the config), each with its own log ({@linkcode World.log} of the
   * profile's name) added to its env; name them in `config.chain` to run them.
   */
  profiles?: Record<string, { agent: string; env?: Record<string, string>; args?: string[] }>;
  /** A prefix for the world's temporary folder (what a leftover folder is named after). */
  prefix?: string;
}

/** One test's agents, config, data folder, workspace and terminal. */
export class World {
  /** The temporary folder everything of this world is in. */
  readonly root: string;
  /** The data folder (`UULDANA_HOME`): the journal, handoffs, recordings. */
  readonly home: string;
  /** The folder uuldana and the agents work in. */
  readonly workspace: string;
  /** The config file (`UULDANA_CONFIG`). */
  readonly config: string;
  /** The user's terminal (a private tmux server, started by {@linkcode World.start}). */
  readonly term = new TmuxTerminal();
  /** The real `Date.now` while {@linkcode World.clockAhead} moved it. */
  #realNow: (() => number) | null = null;
  /** What the config file holds (rewritten when an agent's program changes). */
  readonly #settings: { chain: string[]; agents: Record<string, Record<string, unknown>> };
  /** Each agent's program: every simulated agent (`PERSONA_NAMES`), `playedBy`, `bins`. */
  readonly bins: Record<string, string>;

  /**
   * A world whose config names `chain`, each member with its program, its log
   * ({@linkcode World.log}) and `agentEnv[name]` (the simulated agents' `SIM_*` knobs).
   */
  constructor(
    chain: string[] = [],
    agentEnv: Record<string, Record<string, string>> = {},
    opts: WorldOptions = {},
  ) {
    this.root = Deno.makeTempDirSync({ prefix: opts.prefix ?? "uuldana-world-" });
    this.home = join(this.root, "home");
    this.workspace = join(this.root, "ws");
    this.config = join(this.root, "config.json");
    Deno.mkdirSync(this.workspace);
    this.bins = installSimAgents(join(this.root, "bin"), [...PERSONA_NAMES], UULDANA);
    for (const [agent, persona] of Object.entries(opts.playedBy ?? {})) {
      this.bins[agent] = installSimAgents(join(this.root, agent), [persona], UULDANA)[persona];
    }
    Object.assign(this.bins, opts.bins);
    const agents: Record<string, Record<string, unknown>> = {};
    for (const name of chain) {
      agents[name] = {
        bin: this.bins[name],
        env: {
          SIM_AGENT_LOG: this.log(name),
          SIM_STATE_DIR: this.root,
          SIM_REPLY_MS: "50",
          ...agentEnv[name],
        },
        ...opts.agents?.[name],
      };
    }
    const profiles = Object.fromEntries(
      Object.entries(opts.profiles ?? {}).map(([name, p]) => [name, {
        ...p,
        env: { SIM_AGENT_LOG: this.log(name), ...p.env },
      }]),
    );
    this.#settings = { chain, agents, ...(opts.profiles ? { profiles } : {}), ...opts.config };
    this.#writeConfig();
  }

  #writeConfig(): void {
    Deno.writeTextFileSync(this.config, JSON.stringify(this.#settings));
  }

  /**
   * Makes `script` (a shell script's text, `#!/bin/sh` added) the program of `agent`: written
   * executable into the world, named in the config when `agent` is in the chain. Returns its path.
   */
  agentProgram(agent: string, script: string): string {
    const path = join(this.root, "programs", agent);
    Deno.mkdirSync(join(this.root, "programs"), { recursive: true });
    Deno.writeTextFileSync(path, `#!/bin/sh\n${script}`);
    Deno.chmodSync(path, 0o755);
    this.bins[agent] = path;
    const configured = this.#settings.agents[agent];
    if (configured) {
      configured.bin = path;
      this.#writeConfig();
    }
    return path;
  }

  /** The environment that points uuldana at this world's config and data folder, no colours. */
  env(more: Record<string, string> = {}): Record<string, string> {
    return { UULDANA_CONFIG: this.config, UULDANA_HOME: this.home, NO_COLOR: "1", ...more };
  }

  /** Path of an agent's own log of what it received. */
  log(agent: string): string {
    return join(this.root, `${agent}.log`);
  }

  /**
   * The hook event that carried the handoff into Claude (its SessionStart context), waited for:
   * Claude's channel hooks run in every session too, with nothing to add.
   */
  async waitForHandoffHook(agent = "claude", timeoutMs = 30_000): Promise<SimEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hook = this.events(agent, "hook").find((h) => h.additionalContext);
      if (hook) return hook;
      if (Date.now() > deadline) {
        throw new Error(
          `${agent} got no handoff through a hook:\n${
            JSON.stringify(this.events(agent, "hook"), null, 1).slice(0, 3000)
          }`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * What an agent received so far. `start` counts interactive sessions only (uuldana's own
   * `--help`/`--version` probes of the agent are logged too, with another mode).
   */
  events(agent: string, kind?: string): SimEvent[] {
    const all = readSimLog(this.log(agent));
    const firstTui = all.findIndex((e) => e.event === "start" && e.mode === "tui");
    const sessions = firstTui < 0
      ? []
      : all.slice(firstTui).filter((e) => e.event !== "start" || e.mode === "tui");
    return kind ? sessions.filter((e) => e.event === kind) : sessions;
  }

  /** Waits until `agent` logged an event of `kind` (and `count` of them). */
  async waitForEvent(
    agent: string,
    kind: string,
    count = 1,
    timeoutMs = 30_000,
  ): Promise<SimEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = this.events(agent, kind);
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${agent} logged no ${kind} event; it logged:\n${
        JSON.stringify(this.events(agent), null, 1).slice(0, 3000)
      }\nscreen:\n${await this.term.capture()}`,
    );
  }

  /**
   * Starts `uuldana ARGS…` in the world's terminal (120x40 unless told), in the workspace, like a
   * user would; `env` is added to the world's.
   */
  start(args: string[], opts: TerminalStart = {}): Promise<void> {
    return this.startCommand([...UULDANA, ...args], opts);
  }

  /** Starts `argv` (a shell around uuldana, say) in the world's terminal, as `start` does. */
  startCommand(argv: string[], opts: TerminalStart = {}): Promise<void> {
    return this.term.start(argv, {
      cols: opts.cols ?? 120,
      rows: opts.rows ?? 40,
      cwd: this.workspace,
      env: {
        UULDANA_CONFIG: this.config,
        UULDANA_HOME: this.home,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
        ...opts.env,
      },
    });
  }

  /** Runs `uuldana ARGS…` to its end in the world (its env added to the world's). */
  uuldana(args: string[], opts: RunUuldanaOptions = {}): Promise<UuldanaOutput> {
    return runUuldana(args, { cwd: this.workspace, ...opts, env: this.env(opts.env) });
  }

  /** Types text and presses Enter, like a user. */
  async type(text: string, enter = true): Promise<void> {
    await this.term.send(text, true);
    if (enter) await this.term.send("Enter");
  }

  /**
   * Types `text` and Enter into `agent` like a user who reads before typing: once it started and
   * shows `ready` (the simulated Claude's and Codex's prompt hint unless told), and a moment later;
   * with `ready` null (an agent that shows no such line), a second after it started.
   */
  async ask(agent: string, text: string, ready: string | null = "? for shortcuts"): Promise<void> {
    await this.waitForEvent(agent, "start");
    if (ready !== null) await this.term.waitFor(ready);
    await new Promise((r) => setTimeout(r, ready === null ? 1000 : 300));
    await this.type(text);
  }

  /**
   * Runs uuldana on the chain, asks Claude `request` and, once it answered, types `/agent to`:
   * the manual switch every paste test starts with.
   */
  async switchByHand(request: string, to: string): Promise<void> {
    await this.start(["run"]);
    await this.ask("claude", request);
    await this.waitForEvent("claude", "reply");
    await this.type(`/agent ${to}`);
  }

  /** Quits the agent as a user does (Ctrl-C twice) and returns uuldana's exit code. */
  async quit(timeoutMs = 30_000): Promise<number> {
    await this.term.send("C-c");
    await this.term.send("C-c");
    return await this.exitCode(timeoutMs);
  }

  /** Waits for uuldana to exit and returns its exit code. */
  async exitCode(timeoutMs = 30_000): Promise<number> {
    const screen = await this.term.waitFor(/\[exit \d+\]/, timeoutMs);
    return Number(/\[exit (\d+)\]/.exec(screen)![1]);
  }

  /** Runs `fn` on the journal uuldana wrote, then closes it. */
  withJournal<T>(fn: (journal: Journal) => T): T {
    const journal = this.journal();
    try {
      return fn(journal);
    } finally {
      journal.close();
    }
  }

  /**
   * What run `runId`'s channel did, once the journal has it: it is written with the run's end,
   * which a loaded machine journals a moment after the agent is gone. Null after 10 s without.
   */
  async runChannel(runId: number): Promise<RunChannelRecord | null> {
    for (let i = 0; i < 100; i++) {
      const rec = this.withJournal((j) => j.runChannel(runId));
      if (rec) return rec;
      await new Promise((r) => setTimeout(r, 100));
    }
    return null;
  }

  /** Opens the journal uuldana wrote (close it after use). */
  journal(): Journal {
    return Journal.open(this.home);
  }

  /**
   * Runs the chain in this process, as `uuldana run` would, without an outer terminal; returns
   * the exit code and the status lines.
   */
  async runChain(opts: InProcessChain = {}): Promise<{ code: number; status: string[] }> {
    const config = loadConfig((name) => name === "UULDANA_CONFIG" ? this.config : undefined);
    const journal = Journal.open(ensurePrivateDir(this.home));
    const status: string[] = [];
    try {
      const code = await runChain({
        ctx: { config, dataDir: this.home, journal },
        first: null,
        then: null,
        extraArgs: [],
        noWait: !opts.wait,
        workspace: this.workspace,
        user: { write() {} },
        keyboard: opts.keyboard ?? new TypedKeyboard(),
        size: opts.size ?? (() => ({ cols: 120, rows: 40 })),
        status: (line) => {
          status.push(line);
          opts.onStatus?.(line);
        },
        onRun: opts.onRun,
        abort: opts.abort,
      });
      return { code, status };
    } finally {
      journal.close();
    }
  }

  /**
   * Runs this process's clock (`Date.now`, which the chain and its waits read) `ms` ahead of the
   * real time, until the world closes: a reset hours away passes at once.
   */
  clockAhead(ms: number): void {
    const real = this.#realNow ??= Date.now;
    Date.now = () => real() + ms;
  }

  /**
   * Ends the world's terminal (and everything still running in it), replays every run uuldana
   * recorded (each must decide what it decided live: `_replay_check.ts`, throws when not; skipped
   * with `replay: false`) and removes the world's folder.
   */
  async close(opts: { replay?: boolean } = {}): Promise<ReplayCheck | null> {
    if (this.#realNow) Date.now = this.#realNow;
    await this.term.close();
    try {
      return opts.replay === false ? null : assertRunsReplay(this.home);
    } finally {
      try {
        Deno.removeSync(this.root, { recursive: true });
      } catch {
        // an agent still dying may write its log meanwhile, or a test's mount still holds a folder
      }
    }
  }
}

/**
 * A test in a world of its own: `world()` builds it before `fn`, and it is closed after `fn`
 * whatever happened. Timers and processes may outlive a test step here (agents, tmux), so the
 * sanitizers are off unless `options` says otherwise.
 */
export function worldTest(
  name: string,
  world: () => World,
  fn: (w: World) => Promise<void>,
  options: Omit<Deno.TestDefinition, "name" | "fn"> = {},
): void {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    ...options,
    fn: async () => {
      const w = world();
      let passed = false;
      try {
        await fn(w);
        passed = true;
      } finally {
        // A failed test's own error is the one to see, not its replay's.
        await w.close({ replay: passed });
      }
    },
  });
}

/** A time as Claude shows a reset ("3:01am"), in UTC (the sim agents run with TZ=UTC). */
export function claudeClock(at: Date): string {
  const h = at.getUTCHours();
  return `${h % 12 || 12}:${String(at.getUTCMinutes()).padStart(2, "0")}${h < 12 ? "am" : "pm"}`;
}

/** A time as uuldana shows it in a status line: "03:01", or "Dec 2 00:15" on another day. */
export const CLOCK_PATTERN: string = String.raw`(?:[A-Z][a-z]{2} \d{1,2} )?\d\d:\d\d`;

/** Types `text` and Enter once the run shows a pasteable prompt and is quiet, like a user. */
export function typeWhenReady(keys: TypedKeyboard, run: AgentRun, text: string): void {
  run.waitUntil(() => run.isQuiet() && run.vt.modes.bracketedPaste, 20_000).then(
    (ready) => ready && keys.type(`${text}\r`),
  );
}

/** Stops a run once its agent has drawn its screen and is quiet, or after 20 s either way. */
export function stopWhenDrawn(run: AgentRun | null): void {
  // Quiet alone holds before a slow start printed anything: the agent would never have started.
  const drawn = () => run!.vt.screenLines().some((line) => line.trim() !== "");
  run?.waitUntil(() => drawn() && run.isQuiet(), 20_000).then(() => run.stop("SIGTERM"));
}

/** Waits until `fn()` holds; throws naming `what` after `timeoutMs`. */
export async function until(
  fn: () => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The framed handoff inside `text`: what is between its BEGIN and END boundaries, or null. */
export function framedBody(text: string): { nonce: string; body: string } | null {
  const m =
    /----- BEGIN UULDANA HANDOFF ([0-9a-f]+) -----\n([\s\S]*)\n----- END UULDANA HANDOFF \1 -----/
      .exec(text);
  return m ? { nonce: m[1], body: m[2] } : null;
}

/**
 * Waits until the outer terminal was sent a desktop notification (OSC 9) that contains `text`, in
 * what {@linkcode TmuxTerminal.recordOutput} keeps in `file`; returns the notification's text.
 */
export async function notified(file: string, text: string, timeoutMs = 30_000): Promise<string> {
  const shown = () => {
    const bytes = existsSync(file) ? readFileSync(file, "utf8") : "";
    // deno-lint-ignore no-control-regex
    return [...bytes.matchAll(/\x1b\]9;([^\x07\x1b]*)\x1b\\/g)].map((m) => m[1])
      .find((t) => t.includes(text));
  };
  await until(
    () => shown() !== undefined,
    `a notification with ${JSON.stringify(text)}`,
    timeoutMs,
  );
  return shown()!;
}
