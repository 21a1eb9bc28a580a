/**
 * `uuldana runs`, `uuldana show`, `uuldana export`: reading the journal.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana runs`. */
export function runsCommand() {
  return new Command("runs").description("list recorded runs").action(() => {
    throw new UuldanaError("'runs' is not built yet");
  });
}

/** `uuldana show RUN`. */
export function showCommand() {
  return new Command("show").description("show one run").action(() => {
    throw new UuldanaError("'show' is not built yet");
  });
}

/** `uuldana export RUN`. */
export function exportCommand() {
  return new Command("export").description("export a run's recorded output").action(() => {
    throw new UuldanaError("'export' is not built yet");
  });
}
