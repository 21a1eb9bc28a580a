/**
 * `uuldana limits [--json]` and `uuldana limits clear AGENT`: the limit ledger every run shares,
 * and clearing an entry the user knows is stale.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { adapterByName } from "../../adapters/registry.ts";
import { chainProfiles } from "../chain/member.ts";
import { profileByName } from "../chain/profile.ts";
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
      "print a JSON array of {agent, limited, near, warning, availableAt, message, seenAt, runId…}",
    )
    .addHelpText(
      "after",
      `
Every uuldana run and exec on your machine reads and writes the same ledger: an agent limited
until 03:01 is skipped by any run started before then. An agent whose reset has passed is chosen
again. A usage warning an agent showed ("You've used 90% of your 5-hour limit · resets 3pm") is
kept as "near its limit" until that reset: the agent is still chosen (with "handoffEarly" in the
config, the work moves on at its next turn boundary).

Examples:
  uuldana limits                 which agents are limited or near their limit, until when, and where
                                 it was seen
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
          console.log(s.limited || s.near ? yellow(s.line) : s.line);
          console.log(dim(`    "${s.message}"`));
        }
      } finally {
        journal.close();
      }
    });
  limits.addCommand(
    new Command("clear")
      .description(
        "forget an agent's (or a profile's) limit in the ledger (it is chosen again at once)",
      )
      .argument("<agent>", "the agent's or profile's name, e.g. claude or claude-api")
      .addHelpText(
        "after",
        "\nExamples:\n  uuldana limits clear claude    claude is chosen again at once",
      )
      .action((agent) => {
        const { journal, config } = openContext();
        try {
          const [{ name }] = chainProfiles(
            [agent],
            (n) => profileByName(config, n, adapterByName),
          );
          const cleared = journal.clearLimits(name);
          console.log(
            cleared
              ? `cleared ${name}'s limit; runs choose it again`
              : `${name} has no limit in the ledger; nothing to clear`,
          );
        } finally {
          journal.close();
        }
      }),
  );
  return limits;
}
