/**
 * `uuldana screen`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana screen`: render a terminal recording with uuldana's VT interpreter. */
export function debugScreenCommand() {
  return new Command("screen")
    .description("render a terminal recording with uuldana's VT interpreter")
    .action(() => {
      throw new UuldanaError("'screen' is not built yet");
    });
}
