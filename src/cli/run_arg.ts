/**
 * The RUN argument of the commands that read one run from the journal (`show`, `export`,
 * `debug detect`, `debug bundle`): a run id from `uuldana runs`, or `last`.
 *
 * @module
 */
import { UsageError, UuldanaError } from "../errors.ts";
import type { Journal, RunRow } from "../journal/journal.ts";

/** True when `value` has the shape of a RUN argument (it may still name no run). */
export function looksLikeRun(value: string): boolean {
  return value === "last" || /^\d+$/.test(value);
}

/** The run `value` names; a one-line error when it names none. */
export function runFromArgument(value: string, journal: Journal): RunRow {
  const id = value === "last" ? journal.runs(1)[0]?.id : Number(value);
  if (id === undefined) {
    throw new UuldanaError("the journal has no runs yet", 1, "start one with `uuldana run`");
  }
  if (!Number.isInteger(id) || id <= 0) {
    throw new UsageError(`"${value}" is not a run id`, "see `uuldana runs`");
  }
  const run = journal.run(id);
  if (!run) throw new UuldanaError(`no run ${id} in the journal`, 1, "see `uuldana runs`");
  return run;
}
