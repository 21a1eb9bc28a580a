/**
 * `uuldana run`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana run`: run an agent in a pseudo-terminal and hand off to the next on a usage limit. */
export function runCommand() {
  return new Command("run")
    .description("run an agent in a pseudo-terminal and hand off to the next on a usage limit")
    .action(() => {
      throw new UuldanaError("'run' is not built yet");
    });
}
