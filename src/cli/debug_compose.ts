/**
 * `uuldana compose`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana compose`: compose the handoff text for a package and a road. */
export function debugComposeCommand() {
  return new Command("compose")
    .description("compose the handoff text for a package and a road")
    .action(() => {
      throw new UuldanaError("'compose' is not built yet");
    });
}
