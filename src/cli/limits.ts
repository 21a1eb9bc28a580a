/**
 * `uuldana limits [--json]` and `uuldana limits clear AGENT`: the limit ledger every run shares,
 * and clearing an entry the user knows is stale.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { adapterByName } from "../../adapters/registry.ts";
import { chainAdapters } from "../chain/member.ts";
import { limitState } from "../chain/limits.ts";
import { openContext } from "../context.ts";
import { dim, yellow } from "./style.ts";

/** `uuldana limits`. */
export function limitsCommand() {
  const limits = new Command("limits")
    .description(
      "show the usage limits uuldana has seen (shared by every run), or clear one that is stale",
    )
    .option(
      "--json",
      "print a JSON array of {agent, limited, availableAt, message, seenAt, runId…}",
    )
    .addHelpText(
      "after",
      `
Every uuldana run and exec on your machine reads and writes the same ledger: an agent limited
until 03:01 is skipped by any run started before then. An agent whose reset has passed is chosen
again.

Examples:
  uuldana limits                 which agents are limited, until when, and where it was seen
  uuldana limits clear claude    forget claude's limit (you know it has reset)`,
    )
    .action((opts) => {
      const { journal } = openContext();
      try {
        const now = new Date();
        const states = [...journal.latestLimits().values()].map((e) => ({
          agent: e.agent,
          ...limitState(e, now),
        }));
        if (opts.json) return console.log(JSON.stringify(states, null, 2));
        if (states.length === 0) return console.log("no limits seen (or all cleared)");
        for (const s of states) {
          console.log(s.limited ? yellow(s.line) : s.line);
          console.log(dim(`    "${s.message}"`));
        }
      } finally {
        journal.close();
      }
    });
  limits.addCommand(
    new Command("clear")
      .description("forget an agent's limit in the ledger (it is chosen again at once)")
      .argument("<agent>", "the agent's name, e.g. claude")
      .addHelpText(
        "after",
        "\nExamples:\n  uuldana limits clear claude    claude is chosen again at once",
      )
      .action((agent) => {
        const [adapter] = chainAdapters([agent], adapterByName);
        const { journal } = openContext();
        try {
          const cleared = journal.clearLimits(adapter.name);
          console.log(
            cleared
              ? `cleared ${adapter.name}'s limit; runs choose it again`
              : `${adapter.name} has no limit in the ledger; nothing to clear`,
          );
        } finally {
          journal.close();
        }
      }),
  );
  return limits;
}
