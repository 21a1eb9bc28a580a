/**
 * `uuldana exec` run as a user would (`mod.ts exec` as a subprocess) against the fake headless
 * agents of tests/fixtures/headless_agents (small shell programs that check the real CLIs'
 * JSON-mode flags and print their events), in a temp UULDANA_HOME whose journal the tests open.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Journal } from "../src/journal/journal.ts";
import { REPO_DIR } from "./_paths.ts";
import { runUuldana } from "./_uuldana.ts";

/** The fake headless agents, one wrapper per CLI. */
export const FAKES = join(REPO_DIR, "tests", "fixtures", "headless_agents");
/** Every agent exec runs headless, in the default chain's order. */
export const AGENTS = ["claude", "codex", "gemini", "opencode", "qwen", "copilot"];

/** What one `uuldana exec` left: its exit, output, home and the fakes' log folder. */
export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
  home: string;
  log: string;
}

/**
 * Runs `deno run -A mod.ts exec ARGS` (the pinned Deno running this test). Agents are found
 * through UULDANA_<AGENT>_BIN for those in `bins` (default all); PATH holds only system tools.
 */
export async function exec(
  args: string[],
  opts: {
    modes?: Record<string, string>;
    bins?: string[];
    stdin?: string;
    config?: Record<string, unknown>;
    /** Run in this earlier result's home (its journal and ledger). */
    home?: string;
    /** More environment for uuldana and the fakes (FAKE_HOLD, FAKE_SAY). */
    env?: Record<string, string>;
  } = {},
): Promise<ExecResult> {
  const home = opts.home ?? Deno.makeTempDirSync({ prefix: "uuldana-exec-" });
  if (opts.config) Deno.writeTextFileSync(join(home, "config.json"), JSON.stringify(opts.config));
  const log = join(home, "log");
  Deno.mkdirSync(log, { recursive: true });
  const env: Record<string, string> = {
    PATH: "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? home,
    UULDANA_HOME: join(home, "data"),
    UULDANA_CONFIG: join(home, "config.json"),
    FAKE_AGENT_LOG: log,
    NO_COLOR: "1",
  };
  Object.assign(env, opts.env ?? {});
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  for (const name of opts.bins ?? AGENTS) {
    env[`UULDANA_${name.toUpperCase()}_BIN`] = join(FAKES, name);
  }
  for (const [name, mode] of Object.entries(opts.modes ?? {})) {
    env[`FAKE_${name.toUpperCase()}_MODE`] = mode;
  }
  const out = await runUuldana(["exec", ...args], {
    cwd: home,
    clearEnv: true,
    env,
    stdin: opts.stdin,
  });
  return { ...out, home, log };
}

/** The argv the fake `agent` was started with, or null when it never ran. */
export function argvOf(r: ExecResult, agent: string): string[] | null {
  const file = join(r.log, `${agent}.argv`);
  if (!existsSync(file)) return null;
  return readFileSync(file, "utf8").split("\0").slice(0, -1);
}

/** Runs `fn` on the journal the exec left. */
export function withJournal<T>(r: ExecResult, fn: (j: Journal) => T): T {
  const j = Journal.open(join(r.home, "data"));
  try {
    return fn(j);
  } finally {
    j.close();
  }
}

/** Removes the exec's home. */
export function cleanup(r: ExecResult): void {
  Deno.removeSync(r.home, { recursive: true });
}
