/**
 * The world of one real-agent matrix cell (matrix.ts runs the cells): the mock API with its
 * request log (`Mock`, mock_api.ts on 127.0.0.1), and a private HOME, workspace, data folder,
 * uuldana config and tmux pane (`World`) in which uuldana drives the real agent and its
 * simulated partners, typed as a person types; plus the agent's spec (agents.json) the config is
 * written from.
 *
 * @module
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { installSimAgents } from "../../src/sim/install.ts";
import { Journal } from "../../src/journal/journal.ts";
import { REPO_DIR, UULDANA } from "../../tests/_paths.ts";
import { TmuxTerminal } from "../../tests/_tmux.ts";

const HERE = dirname(new URL(import.meta.url).pathname);

/**
 * An agent installed as the matrices install it: `agentsDir/NAME@VERSION/node_modules/.bin/BIN`,
 * the newest version there.
 */
export function installedAgent(
  agentsDir: string,
  name: string,
  bin: string,
): { bin: string; version: string } {
  const dirs = readdirSync(agentsDir).filter((d) =>
    d.startsWith(`${name}@`) && !d.endsWith(".log") &&
    existsSync(join(agentsDir, d, "node_modules", ".bin", bin))
  ).sort((x, y) => x.localeCompare(y, "en", { numeric: true }));
  if (!dirs.length) throw new Error(`${name} is not installed in ${agentsDir}`);
  const dir = dirs.at(-1)!;
  return {
    bin: join(agentsDir, dir, "node_modules", ".bin", bin),
    version: dir.slice(name.length + 1),
  };
}
const SIM_MAIN = [...UULDANA.slice(0, -1), join(REPO_DIR, "src", "sim", "main.ts")];

/** Waits `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One agent of agents.json: how to install, configure and start it. */
export interface AgentSpec {
  /** What to call it when uuldana has no adapter for it. */
  name?: string;
  package: string;
  /** The package with its linux-x64 binary (release.ts). */
  binaryPackage?: string;
  /** Install `binaryPackage` itself. */
  binaryOnly?: boolean;
  bin: string;
  env: Record<string, string>;
  files: Record<string, string>;
  ready: string | null;
  /** Whose usage-limit error the mock returns on chat completions (mock_api.ts; default openai). */
  limitProvider?: string;
  /** The error lane of its API that is a passing rate limit (error_lanes.json; record_headless.ts). */
  rateLane?: string;
  /** Why the agent cannot run here; it is not started. */
  notRun?: string;
  /** Arguments uuldana passes the agent (its config's `args`). */
  args?: string[];
  /** The stall rule for the agent (its config's `stallSeconds`). */
  stallSeconds?: number;
}

/**
 * Writes the agent's files (agents.json `files`) into its scratch HOME and returns its environment
 * (`HOME` and agents.json `env`), with `{base}`, `{home}` and `{ws}` filled in.
 */
export function prepareAgent(
  spec: AgentSpec,
  at: { base: string; home: string; ws: string },
): Record<string, string> {
  const fill = (s: string) =>
    s.replaceAll("{base}", at.base).replaceAll("{home}", at.home).replaceAll("{ws}", at.ws);
  for (const [path, content] of Object.entries(spec.files)) {
    mkdirSync(dirname(fill(path)), { recursive: true });
    writeFileSync(fill(path), fill(content));
  }
  return {
    HOME: at.home,
    ...Object.fromEntries(Object.entries(spec.env).map(([k, v]) => [k, fill(v)])),
  };
}

/** The frame in `text` (the preamble names its END line too: the frame ends at the last one). */
export function frameIn(text: string): { nonce: string; body: string } | null {
  const m =
    /----- BEGIN UULDANA HANDOFF ([0-9a-f]+) -----([\s\S]*)----- END UULDANA HANDOFF \1 -----/
      .exec(text);
  return m ? { nonce: m[1], body: m[2] } : null;
}

/** A request body's text as sent: JSON escapes its newlines, quotes and `>`. */
export function decoded(body: string): string {
  return body.replaceAll("\\n", "\n").replaceAll('\\"', '"').replaceAll("\\u003e", ">");
}

/** Runs `fn` on the journal in the data folder `data`, closed after. */
export function withJournal<T>(data: string, fn: (j: Journal) => T): T {
  const j = Journal.open(data);
  try {
    return fn(j);
  } finally {
    j.close();
  }
}

/** Runs `cmd ARGV` and returns its stdout (stderr dropped; a failure is its output). */
export async function run(
  cmd: string,
  argv: string[],
  env?: Record<string, string>,
): Promise<string> {
  const out = await new Deno.Command(cmd, { args: argv, env, stdin: "null", stderr: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

/** One request the mock logged. */
export interface MockRequest {
  t: number;
  path: string;
  body: string;
  limited: boolean;
  account: "agent" | "receiver";
  /** The error lane this request met (error_lanes.json), if one was selected for its API. */
  lane?: string;
}

/** A running mock API with its request log. */
export class Mock {
  #child: Deno.ChildProcess;
  port = 0;
  constructor(readonly log: string) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(HERE, "mock_api.ts"), "0", log],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  }
  async ready(): Promise<void> {
    const reader = this.#child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!/mock on (\d+)/.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the mock did not start: ${seen}`);
      seen += value;
    }
    this.port = Number(/mock on (\d+)/.exec(seen)![1]);
    (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
  }
  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** From now on answer with the limit (`provider`: whose chat-completions error, see agents.json). */
  async limit(provider?: string): Promise<void> {
    const query = provider ? `?provider=${encodeURIComponent(provider)}` : "";
    await (await fetch(`${this.base}/__mock/limit${query}`, { method: "POST" })).body?.cancel();
  }
  /** From now on answer with the named error lane (`error_lanes.json`); `ok()` ends it. */
  async lane(name: string): Promise<void> {
    const res = await fetch(`${this.base}/__mock/lane?name=${encodeURIComponent(name)}`, {
      method: "POST",
    });
    await res.body?.cancel();
    if (!res.ok) throw new Error(`the mock has no error lane "${name}"`);
  }
  /** Answer normally again. */
  async ok(): Promise<void> {
    await (await fetch(`${this.base}/__mock/ok`, { method: "POST" })).body?.cancel();
  }
  /**
   * Model requests so far: arrival time (ms), path, body, whether the mock answered with the
   * limit, and whose account (`agent`: the agent under test; `receiver`: the next agent).
   */
  requests(): MockRequest[] {
    if (!existsSync(this.log)) return [];
    return readFileSync(this.log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.kind !== null);
  }
  /** Where the next agent of a chain sends its model requests (never limited). */
  get receiverUrl(): string {
    return `${this.base}/receiver/v1/chat/completions`;
  }
  stop(): void {
    try {
      this.#child.kill("SIGTERM");
    } catch { /* gone */ }
  }
}

/** One cell's private world: mock, HOME, workspace, data dir, config, tmux pane. */
export class World {
  readonly root: string;
  readonly home: string;
  readonly ws: string;
  readonly data: string;
  readonly term = new TmuxTerminal();
  readonly mock: Mock;
  readonly sims: Record<string, string>;
  constructor(dir: string, label: string) {
    this.root = Deno.makeTempDirSync({ dir, prefix: `${label}-` });
    this.home = join(this.root, "home");
    this.ws = join(this.root, "ws");
    this.data = join(this.root, "data");
    for (const d of [this.home, this.ws]) mkdirSync(d, { recursive: true });
    this.mock = new Mock(join(this.root, "mock.jsonl"));
    // The simulated agents start from their own entry (src/sim/main.ts), not uuldana's whole CLI:
    // the next agent of the sender cell is a stand-in, and its start-up (0.5 s at load 14, where
    // mod.ts took 0.8–1.8 s) is counted in "limit → next agent's first request".
    this.sims = installSimAgents(join(this.root, "sim"), ["claude", "codex", "gemini"], SIM_MAIN);
  }
  simLog(name: string): string {
    return join(this.root, `sim-${name}.jsonl`);
  }
  /** Writes the config: `chain`, the real agent's env and files, the simulated ones' logs. */
  configure(
    chain: string[],
    real: string,
    bin: string,
    spec: AgentSpec,
    simEnv = {},
    road?: string,
  ): void {
    const env = prepareAgent(spec, { base: this.mock.base, home: this.home, ws: this.ws });
    const agents: Record<string, unknown> = {};
    for (const name of chain) {
      agents[name] = name === real
        ? {
          bin,
          ...(road ? { road } : {}),
          ...(spec.args ? { args: spec.args } : {}),
          ...(spec.stallSeconds ? { stallSeconds: spec.stallSeconds } : {}),
          env,
        }
        : {
          bin: this.sims[name],
          env: { SIM_AGENT_LOG: this.simLog(name), SIM_REPLY_MS: "50", ...simEnv },
        };
    }
    // The matrix runs real TUIs on a shared 2-core machine, where OpenCode and Kilo drew their input
    // box 70-150 s after they started (118 s at load 12, 2026-12-02): the paste cell is about
    // whether the paste lands, so it allows that, as a user on a slow machine would set it. The
    // default (40 s) stays the user's contract.
    const pasteTimeoutSeconds = 240;
    writeFileSync(
      join(this.root, "config.json"),
      JSON.stringify({ chain, agents, pasteTimeoutSeconds }),
    );
  }
  /** Starts `uuldana ARGS` in the pane, recording the pane's termios before and after. */
  async start(argv: string[]): Promise<void> {
    const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    // The pane stays after the run, deaf to a Ctrl-C meant for an agent that had just gone.
    const script =
      `stty -g > ${q(join(this.root, "stty.before"))}; ${
        [...UULDANA, ...argv].map(q).join(" ")
      }; c=$?; stty -g > ${
        q(join(this.root, "stty.after"))
      }; echo "[exit $c]"; trap '' INT TERM; ` +
      "exec sleep 600";
    await this.term.start(["sh", "-c", script], {
      cols: 120,
      rows: 40,
      cwd: this.ws,
      env: {
        UULDANA_CONFIG: join(this.root, "config.json"),
        UULDANA_HOME: this.data,
        TERM: "xterm-256color",
        LANG: "C.UTF-8",
      },
    });
  }
  /**
   * Types `text` and Enter, as a person does: looking first that it showed in the input box, and
   * typing it again when the agent dropped it (a TUI still starting up takes no keys).
   */
  async type(text: string): Promise<void> {
    const shown = text.slice(0, 24);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = (await this.term.capture()).split(shown).length;
      await this.term.send(text, true);
      const deadline = Date.now() + 8000;
      while (Date.now() < deadline) {
        if ((await this.term.capture()).split(shown).length > before) break;
        await sleep(250);
      }
      if ((await this.term.capture()).split(shown).length > before) break;
      if (attempt === 3) throw new Error(`"${shown}" never showed in the input box`);
    }
    await sleep(300);
    await this.term.send("Enter");
  }
  /** Ends the run: the current agent's quit keys, then SIGTERM to uuldana by its process id. */
  async end(): Promise<number> {
    for (let i = 0; i < 4; i++) {
      if (/\[exit \d+\]/.test(await this.term.capture())) break;
      await this.term.send("C-c");
      await sleep(i % 2 ? 3000 : 500);
    }
    if (!/\[exit \d+\]/.test(await this.term.capture())) {
      // uuldana is the pane shell's grandchild (pane shell → sh -c → deno): stopped by its id.
      const pane = (await this.tmux("display-message", "-p", "#{pane_pid}")).trim();
      for (const sh of (await run("pgrep", ["-P", pane])).split("\n").filter(Boolean)) {
        for (const pid of (await run("pgrep", ["-P", sh])).split("\n").filter(Boolean)) {
          Deno.kill(Number(pid), "SIGTERM");
        }
      }
    }
    const screen = await this.term.waitFor(/\[exit \d+\]/, 30_000);
    return Number(/\[exit (\d+)\]/.exec(screen)![1]);
  }
  tmux(...a: string[]): Promise<string> {
    return run("tmux", ["-L", this.term.socket, ...a]);
  }
  /** What is wrong with the terminal after the run, or null. */
  async terminalProblem(): Promise<string | null> {
    const before = readFileSync(join(this.root, "stty.before"), "utf8").trim();
    const after = existsSync(join(this.root, "stty.after"))
      ? readFileSync(join(this.root, "stty.after"), "utf8").trim()
      : "(missing)";
    if (before !== after) return `termios changed: ${before} → ${after}`;
    const f = (await this.tmux(
      "display-message",
      "-p",
      "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_flag} #{keypad_cursor_flag} #{scroll_region_upper} #{scroll_region_lower}",
    )).trim();
    return f === "0 1 0 0 0 0 39" ? null : `tmux modes after the run: ${f} (want 0 1 0 0 0 0 39)`;
  }
  journal<T>(fn: (j: Journal) => T): T {
    return withJournal(this.data, fn);
  }
  async close(): Promise<void> {
    await this.term.close();
    this.mock.stop();
  }
}
