/**
 * A private world for end-to-end switching tests: simulated agents installed under their CLI names,
 * a config naming them, a data dir and a workspace, and uuldana started in a real outer terminal.
 *
 * @module
 */
import { join } from "node:path";
import { installSimAgents } from "../src/sim/install.ts";
import { readSimLog, type SimEvent } from "../src/sim/log.ts";
import { Journal } from "../src/journal/journal.ts";
import { loadConfig } from "../src/config/config.ts";
import { ensurePrivateDir } from "../src/config/paths.ts";
import type { AgentRun } from "../src/session/agent_run.ts";
import { runChain } from "../src/session/chain.ts";
import type { Keyboard, KeySink } from "../src/session/keyboard.ts";
import { UULDANA } from "./_paths.ts";
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

/** What {@linkcode SwitchWorld.runChain} may change from a plain `uuldana run`. */
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

/** One test's agents, config, data dir and terminal. */
export class SwitchWorld {
  readonly root = Deno.makeTempDirSync({ prefix: "uuldana-switch-" });
  readonly home = join(this.root, "home");
  readonly workspace = join(this.root, "ws");
  readonly config = join(this.root, "config.json");
  readonly term = new TmuxTerminal();
  readonly bins: Record<string, string>;

  constructor(
    chain: string[],
    agentEnv: Record<string, Record<string, string>> = {},
    extra: {
      bins?: Record<string, string>;
      /** More config keys per agent (e.g. `stallSeconds`). */
      agents?: Record<string, Record<string, unknown>>;
      config?: Record<string, unknown>;
    } = {},
  ) {
    Deno.mkdirSync(this.workspace);
    this.bins = {
      ...installSimAgents(
        join(this.root, "bin"),
        ["claude", "codex", "gemini", "opencode"],
        UULDANA,
      ),
      ...extra.bins,
    };
    const agents: Record<string, unknown> = {};
    for (const name of chain) {
      agents[name] = {
        bin: this.bins[name],
        env: {
          SIM_AGENT_LOG: this.log(name),
          SIM_STATE_DIR: this.root,
          SIM_REPLY_MS: "50",
          ...agentEnv[name],
        },
        ...extra.agents?.[name],
      };
    }
    Deno.writeTextFileSync(this.config, JSON.stringify({ chain, agents, ...extra.config }));
  }

  /** Path of an agent's own log of what it received. */
  log(agent: string): string {
    return join(this.root, `${agent}.log`);
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

  /** Starts `uuldana ARGS…` in a 120x40 tmux window. */
  start(args: string[]): Promise<void> {
    return this.term.start([...UULDANA, ...args], {
      cols: 120,
      rows: 40,
      cwd: this.workspace,
      env: {
        UULDANA_CONFIG: this.config,
        UULDANA_HOME: this.home,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
      },
    });
  }

  /** Types text and presses Enter, like a user. */
  async type(text: string, enter = true): Promise<void> {
    await this.term.send(text, true);
    if (enter) await this.term.send("Enter");
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
   * Ends the world: the terminal closes, then every run uuldana recorded is replayed and must
   * decide what it decided live (see `_replay_check.ts`; throws when not).
   */
  async close(): Promise<ReplayCheck> {
    await this.term.close();
    return assertRunsReplay(this.home);
  }
}

/** A time as Claude shows a reset ("3:01am"), in UTC (the sim agents run with TZ=UTC). */
export function claudeClock(at: Date): string {
  const h = at.getUTCHours();
  return `${h % 12 || 12}:${String(at.getUTCMinutes()).padStart(2, "0")}${h < 12 ? "am" : "pm"}`;
}

/** Types `text` and Enter once the run shows a pasteable prompt and is quiet, like a user. */
export function typeWhenReady(keys: TypedKeyboard, run: AgentRun, text: string): void {
  run.waitUntil(() => run.isQuiet() && run.vt.modes.bracketedPaste, 20_000).then(
    (ready) => ready && keys.type(`${text}\r`),
  );
}

/** The framed handoff inside `text`: what is between its BEGIN and END boundaries, or null. */
export function framedBody(text: string): { nonce: string; body: string } | null {
  const m =
    /----- BEGIN UULDANA HANDOFF ([0-9a-f]+) -----\n([\s\S]*)\n----- END UULDANA HANDOFF \1 -----/
      .exec(text);
  return m ? { nonce: m[1], body: m[2] } : null;
}
