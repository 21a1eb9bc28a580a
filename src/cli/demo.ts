/**
 * `uuldana demo`: a self-contained switch on a machine with no agent installed. Two simulated
 * agents (built into uuldana, started through the same `script` shim, adapters, VT interpreter,
 * composer and journal as real agents): the first hits its usage limit, the second starts on the
 * framed handoff.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { ExitWith } from "../errors.ts";
import { join } from "node:path";
import { parseConfig } from "../config/config.ts";
import { ensurePrivateDir } from "../config/paths.ts";
import { Journal } from "../journal/journal.ts";
import { runChain } from "../session/chain.ts";
import type { Keyboard, KeySink } from "../session/keyboard.ts";
import { TerminalSession } from "../session/terminal_session.ts";
import { installSimAgents, selfArgv } from "../sim/install.ts";
import type { AgentRun } from "../session/agent_run.ts";

const _REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";

/** The user's keyboard plus scripted typing, both through the same input path. */
class _DemoKeyboard implements Keyboard {
  #sink: KeySink | null = null;
  constructor(private readonly real: Keyboard) {
    real.setSink((bytes) => this.#sink?.(bytes));
  }
  setSink(sink: KeySink | null): void {
    this.#sink = sink;
  }
  async type(text: string, delayMs = 25): Promise<void> {
    for (const ch of text) {
      this.#sink?.(new TextEncoder().encode(ch));
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
  close(): void {
    this.real.close();
  }
}

/** `uuldana demo`. */
export function demoCommand() {
  return new Command("demo")
    .description(
      "watch a switch happen: simulated Claude hits its usage limit, simulated Codex continues",
    )
    .option(
      "--keep",
      "keep the demo's data directory (journal, handoff file) and print where it is",
    )
    .addHelpText(
      "after",
      `
Examples:
  uuldana demo                    watch a simulated Claude hit its limit and Codex continue
  uuldana demo --keep             keep the demo's folder to look at the handoff file`,
    )
    .action(async (opts) => {
      const root = Deno.makeTempDirSync({ prefix: "uuldana-demo-" });
      const home = ensurePrivateDir(join(root, "data"));
      const workspace = ensurePrivateDir(join(root, "workspace"));
      const bins = installSimAgents(join(root, "bin"), ["claude", "codex"], selfArgv());
      const config = parseConfig(
        {
          chain: ["claude", "codex"],
          agents: {
            claude: { bin: bins.claude, env: { SIM_LIMIT_AFTER: "1", SIM_STATE_DIR: root } },
            codex: { bin: bins.codex, env: { SIM_STATE_DIR: root } },
          },
        },
        "(demo)",
        () => undefined,
      );
      const journal = Journal.open(home);
      const term = new TerminalSession({});
      const keyboard = new _DemoKeyboard(term.keyboard);
      let runs = 0;
      const drive = async (run: AgentRun) => {
        const n = ++runs;
        const ready = await run.waitUntil(
          () => run.isQuiet() && run.vt.modes.bracketedPaste,
          20_000,
        );
        if (!ready || run.finished) return;
        if (n === 1) {
          await keyboard.type(`${_REQUEST}\r`);
        } else {
          // Let the viewer read the continued conversation, then quit the agent like a user would.
          await new Promise((r) => setTimeout(r, 4000));
          if (!run.finished) await keyboard.type("/quit\r", 10);
        }
      };
      term.status(
        "demo: two simulated agents, built in; no real agent, network or credentials involved",
      );
      let code = 1;
      try {
        code = await runChain({
          ctx: { config, dataDir: home, journal },
          first: "claude",
          then: ["codex"],
          extraArgs: [],
          noWait: true,
          workspace,
          ...term.chainIO(config.notify),
          keyboard,
          onRun: (run) => {
            term.setRun(run);
            if (run) drive(run);
          },
        });
        await term.notificationsSent();
      } finally {
        term.close();
        const handoff = journal.handoffs(1)[0];
        journal.close();
        console.error("");
        console.error(`demo finished (exit ${code}).`);
        if (opts.keep) {
          if (handoff?.filePath) {
            console.error(`the handoff codex received (framed as evidence): ${handoff.filePath}`);
          }
          console.error(
            `inspect it: UULDANA_HOME=${home} uuldana runs   |   UULDANA_HOME=${home} uuldana show last`,
          );
        } else {
          Deno.removeSync(root, { recursive: true });
          console.error(
            "(its temporary files are removed; run with --keep to inspect the journal and handoff)",
          );
        }
      }
      if (code !== 0) throw new ExitWith(code);
    });
}
