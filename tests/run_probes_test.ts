/**
 * `uuldana run` starts the first agent of its chain without waiting for the other agents'
 * probes: a chain member whose `--version` takes seconds (a busy machine, a slow Node start) does
 * not delay the start, and the probes a handoff needs run in the background meanwhile.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
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
