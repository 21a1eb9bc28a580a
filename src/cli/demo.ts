/**
 * `uuldana demo`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana demo`: watch a switch happen between two simulated agents. */
export function demoCommand() {
  return new Command("demo")
    .description("watch a switch happen between two simulated agents")
    .action(() => {
      throw new UuldanaError("'demo' is not built yet");
    });
}
