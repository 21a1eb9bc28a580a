/**
 * `uuldana doctor`.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UuldanaError } from "../errors.ts";

/** `uuldana doctor`. */
export function doctorCommand() {
  return new Command("doctor").description("check this machine").action(() => {
    throw new UuldanaError("'doctor' is not built yet");
  });
}
