/**
 * `uuldana run` starts the first agent of its chain without waiting for the other agents'
 * probes: a chain member whose `--version` takes seconds (a busy machine, a slow Node start) does
 * not delay the start, and the probes a handoff needs run in the background meanwhile; nor does
 * uuldana wait for them to end when its agents are done (they are stopped with it).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, UULDANA } from "./_paths.ts";
import { TmuxTerminal } from "./_tmux.ts";
import { World } from "./_world.ts";
import type { AgentRun } from "../src/session/agent_run.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "run starts the first agent before any other chain member is probed, and probes them meanwhile",
  opts,
  async () => {
    const w = new World(["claude", "codex"]);
    try {
      // Codex notes each probe it answers, and takes 8 s over its --version.
      const probes = `${w.root}/codex-probes`;
      const codex = Deno.readTextFileSync(w.bins.codex);
      Deno.writeTextFileSync(
        w.bins.codex,
        codex.replace(
          "\nexec ",
          `\ncase "$1" in --*) echo "$1" >> '${probes}';; esac\n[ "$1" = --version ] && sleep 8\nexec `,
        ),
      );
      const probed = () => {
        try {
          return Deno.readTextFileSync(probes).split("\n").filter(Boolean).sort();
        } catch {
          return [];
        }
      };
      let atClaudeStart: string[] | null = null;
      const { status } = await w.runChain({
        onRun: (run: AgentRun | null) => {
          if (!run) return;
          atClaudeStart = probed();
          run.waitUntil(() => run.isQuiet() && run.vt.modes.bracketedPaste, 30_000)
            .finally(() => run.stop("SIGTERM"));
        },
      });
      // Before, every member's --version was asked first (and claude waited up to 3 s for it).
      assertEquals(atClaudeStart, [], `no probe of codex had started: ${status.join("\n")}`);
      assertEquals(w.events("claude", "start").length, 1);
      assertEquals(w.events("codex", "start").length, 0, "codex was not started, only probed");
      // While claude ran, codex was probed in the background (for a handoff, which waits for none).
      const deadline = Date.now() + 20_000;
      while (probed().length < 2 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assertEquals(probed(), ["--help", "--version"]);
    } finally {
      await w.close();
    }
  },
);

Deno.test(
  "uuldana exits when its agents are done, without waiting for a chain member's probe still running",
  opts,
  async () => {
    const root = Deno.makeTempDirSync({ prefix: "uuldana-run-exit-" });
    const term = new TmuxTerminal();
    try {
      const bin = join(root, "bin");
      Deno.mkdirSync(bin);
      // claude answers its probes and, started, is done at once; codex's probes hang 30 s and
      // leave their pid (its --help and --version run in the background while claude works).
      const script = (name: string, body: string) => {
        Deno.writeTextFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
        Deno.chmodSync(join(bin, name), 0o755);
      };
      script(
        "claude",
        'case "$1" in --*) echo "Usage: claude [options] [command] [prompt]"; exit 0;; esac\necho done; sleep 1',
      );
      script("codex", `echo $$ >> '${root}/codex-pids'\nexec sleep 30`);
      Deno.writeTextFileSync(
        join(root, "config.json"),
        JSON.stringify({ chain: ["claude", "codex"] }),
      );
      const started = Date.now();
      await term.start([...UULDANA, "run", "claude"], {
        cols: 100,
        rows: 30,
        env: {
          DENO_DIR,
          NO_COLOR: "1",
          PATH: `${bin}:/usr/bin:/bin`,
          HOME: root,
          UULDANA_HOME: join(root, "data"),
          UULDANA_CONFIG: join(root, "config.json"),
        },
      });
      await term.waitFor(/\[exit \d+\]/, 25_000);
      const took = Date.now() - started;
      const pids = Deno.readTextFileSync(join(root, "codex-pids")).split("\n").filter(Boolean);
      assert(pids.length >= 1, "codex was probed while claude ran");
      assert(took < 25_000, `exited after ${took} ms, not after codex's 30 s probes`);
      // Its probes went with it (their process group is watched), within the watcher's second.
      const alive = (pid: string) => {
        try {
          Deno.kill(Number(pid), "SIGCONT");
          return true;
        } catch {
          return false;
        }
      };
      const deadline = Date.now() + 5000;
      while (pids.some(alive) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assertEquals(pids.filter(alive), [], "no probe of codex outlived uuldana");
    } finally {
      await term.close();
      Deno.removeSync(root, { recursive: true });
    }
  },
);
