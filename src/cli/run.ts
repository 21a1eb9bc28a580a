/**
 * `uuldana run [AGENT] [--then A,B…] [--no-wait] [-- ARGS…]`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { ExitWith, UsageError } from "../errors.ts";
import { runChain } from "../session/chain.ts";
import { TerminalSession } from "../session/terminal_session.ts";
import { openContext } from "../context.ts";
import { retainInBackground } from "../journal/data_files.ts";

function _size(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 1000) {
    throw new UsageError(`${name} must be a whole number from 10 to 1000`);
  }
  return n;
}

/** `uuldana run`. */
export function runCommand() {
  return new Command("run")
    .description(
      "run an agent in a pseudo-terminal, untouched; on a usage limit hand the work to the next agent",
    )
    .argument(
      "[agent]",
      "agent or profile to start with (default: the first of your chain installed and not limited)",
    )
    .argument("[args...]", "extra arguments for the agent, after --")
    .option(
      "--then <agents>",
      "agents or profiles to hand off to, in order, comma-separated (default: the rest of your chain)",
    )
    .option(
      "--no-wait",
      "when every agent is limited, exit (code 3) instead of waiting for a reset",
    )
    .option("--cols <n>", "terminal width when there is no terminal (CI)", "120")
    .option("--rows <n>", "terminal height when there is no terminal (CI)", "40")
    .addHelpText(
      "after",
      `
While it runs:
  /agent NAME + Enter   switch by hand: NAME starts fresh and the handoff is pasted into its
                        input box for you to read and send
  /agent + Enter        list the agents and how each takes a handoff

Examples:
  uuldana run                          first agent of your chain that is installed and not
                                       limited (the limit ledger: see \`uuldana limits\`)
  uuldana run claude --then codex      Claude Code, then Codex when Claude hits its limit
  uuldana run codex -- --model o4-mini pass arguments to the agent

Exit code: the agent's own; 3 when every agent is limited; 127 when the agent is not installed.`,
    )
    .action(async (agent, args, opts) => {
      const then = opts.then ? opts.then.split(",").map((s) => s.trim()).filter(Boolean) : null;
      const size = { cols: _size(opts.cols, "--cols"), rows: _size(opts.rows, "--rows") };
      // What the journal cannot take is said on the status line, once the terminal is ours.
      let report = (line: string) => console.error(`uuldana: ${line}`);
      const ctx = openContext({ live: { report: (line) => report(line) } });
      // The data folder's bound, a few seconds in, in the background: never in the keys' way.
      retainInBackground(ctx.journal, ctx.dataDir, ctx.config.retention);
      const term = new TerminalSession(size);
      report = term.status;
      let code: number;
      try {
        code = await runChain({
          ctx,
          first: agent ?? null,
          then,
          extraArgs: args,
          noWait: !opts.wait,
          workspace: Deno.cwd(),
          ...term.chainIO(ctx.config.notify),
        });
        await term.notificationsSent();
      } finally {
        term.close();
        ctx.journal.close();
      }
      if (code !== 0) throw new ExitWith(code);
    });
}
