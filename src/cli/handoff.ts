/**
 * `uuldana handoff`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana handoff`: hand a past run's conversation to an agent. */
export function handoffCommand() {
  return new Command("handoff")
    .description("hand a past run's conversation to an agent")
    .action(() => {
      throw new UuldanaError("'handoff' is not built yet");
    });
}
