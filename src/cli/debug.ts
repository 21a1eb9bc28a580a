/**
 * `uuldana debug …`: the pure parts (VT interpreter, composer, limit detectors) run on files.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { debugScreenCommand } from "./debug_screen.ts";
import { debugComposeCommand } from "./debug_compose.ts";
import { debugDetectCommand } from "./debug_detect.ts";

/** `uuldana debug`. */
export function debugCommand() {
  return new Command("debug")
    .description(
      "run uuldana's pure parts on files: screen rendering, handoff composing, limit detection",
    )
    .addCommand(debugScreenCommand())
    .addCommand(debugComposeCommand())
    .addCommand(debugDetectCommand());
}
