/**
 * `uuldana exec`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana exec`: run a task headless (CI) through the agents' JSON modes, failing over on usage limits. */
export function execCommand() {
  return new Command("exec")
    .description(
      "run a task headless (CI) through the agents' JSON modes, failing over on usage limits",
    )
    .action(() => {
      throw new UuldanaError("'exec' is not built yet");
    });
}
