/**
 * `uuldana agents`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana agents`: list the agents uuldana knows, whether they are installed and how they take a handoff. */
export function agentsCommand() {
  return new Command("agents")
    .description(
      "list the agents uuldana knows, whether they are installed and how they take a handoff",
    )
    .action(() => {
      throw new UuldanaError("'agents' is not built yet");
    });
}
