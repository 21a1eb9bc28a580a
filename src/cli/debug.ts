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
    .addCommand(debugDetectCommand())
    .addHelpText(
      "after",
      `
Examples:
  uuldana debug screen rec.raw --cols 120 --rows 40        what our VT interpreter shows
  uuldana debug detect rec.raw --agent claude              the first limit a live run would see
  uuldana debug compose package.json --road prompt         the text a road would deliver`,
    );
}
