/**
 * `uuldana detect`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana detect`: feed a recording to an agent's limit detector. */
export function debugDetectCommand() {
  return new Command("detect")
    .description("feed a recording to an agent's limit detector")
    .action(() => {
      throw new UuldanaError("'detect' is not built yet");
    });
}
