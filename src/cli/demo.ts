/**
 * `uuldana demo`: a self-contained switch on a machine with no agent installed. Two simulated
 * agents (built into uuldana, started through the same `script` shim, adapters, VT interpreter,
 * composer and journal as real agents): the first does a turn of work and hits its usage limit on
 * the next, the second starts on the framed handoff and answers it, and one line says what moved.
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
import { movedLine } from "../session/cast_chain.ts";

const _REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";
const _FOLLOW_UP = "Also mention --dry-run in the README";
// What the simulated agents print when they answer a turn, and a handoff.
const _ANSWERED = "Done.";
const _CONTINUED = "Continuing from the handoff";

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
            // Claude answers the first turn and hits its limit on the second.
            claude: { bin: bins.claude, env: { SIM_LIMIT_AFTER: "2", SIM_STATE_DIR: root } },
            // Codex CLI's own inline mode: its answer stays on the screen after it quits.
            codex: { bin: bins.codex, args: ["--no-alt-screen"], env: { SIM_STATE_DIR: root } },
          },
        },
        "(demo)",
        () => undefined,
      );
      const journal = Journal.open(home);
      const term = new TerminalSession({});
      const keyboard = new _DemoKeyboard(term.keyboard);
      let runs = 0;
      let answered = false;
      const shows = (run: AgentRun, text: string, after = 0) =>
        run.vt.screenLines().slice(after).some((l) => l.includes(text));
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const drive = async (run: AgentRun) => {
        const n = ++runs;
        const ready = await run.waitUntil(
          () => run.isQuiet() && run.vt.modes.bracketedPaste,
          20_000,
        );
        if (!ready || run.finished) return;
        if (n === 1) {
          // A turn of work, then the turn that meets the limit.
          await keyboard.type(`${_REQUEST}\r`);
          await run.waitUntil(() => shows(run, _ANSWERED) && run.isQuiet(), 20_000);
          await pause(1500);
          if (!run.finished) await keyboard.type(`${_FOLLOW_UP}\r`);
        } else {
          // Codex starts on the handoff: let the viewer read its answer, then quit like a user.
          answered = await run.waitUntil(
            () => shows(run, _CONTINUED) && shows(run, _ANSWERED) && run.isQuiet(),
            20_000,
          );
          await pause(3000);
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
        const summary = _summary(journal, answered);
        const handoff = journal.handoffs(1)[0];
        journal.close();
        console.error("");
        console.error(code === 0 ? summary : `${summary} (exit ${code})`);
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

/** One line saying what moved from the first agent to the second, read back from the journal. */
function _summary(journal: Journal, answered: boolean): string {
  const handoff = journal.handoffs(1)[0];
  const from = handoff?.fromRun ? journal.run(handoff.fromRun) : null;
  if (!handoff || !from) return "demo: no handoff was made";
  const turns = journal.entries(from.id).filter((e) => e.role === "user").length;
  return `demo: ${movedLine(from, handoff, turns)}` +
    (answered ? ", and answered." : "; its answer did not show in time.");
}
