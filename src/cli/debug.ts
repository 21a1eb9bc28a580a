/**
 * `uuldana debug …`: the pure parts (VT interpreter, composer, limit detectors) run on files.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { debugScreenCommand } from "./debug_screen.ts";
import { debugComposeCommand } from "./debug_compose.ts";
import { debugDetectCommand } from "./debug_detect.ts";
import { debugBundleCommand } from "./debug_bundle.ts";

/** `uuldana debug`. */
export function debugCommand() {
  return new Command("debug")
    .description(
      "run uuldana's pure parts on files (screen rendering, handoff composing, limit detection) " +
        "and bundle a run for a bug report",
    )
    .addCommand(debugScreenCommand())
    .addCommand(debugComposeCommand())
    .addCommand(debugDetectCommand())
    .addCommand(debugBundleCommand())
    .addHelpText(
      "after",
      `
Examples:
  uuldana debug screen rec.raw --cols 120 --rows 40        what our VT interpreter shows
  uuldana debug detect last                                replay the newest run: the limit it acted on
  uuldana debug bundle last                                one archive to attach to a bug report
  uuldana debug compose package.json --road prompt         the text a road would deliver`,
    );
}
