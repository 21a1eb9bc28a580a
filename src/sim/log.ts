/**
 * The simulated agents' record of everything they received: JSON lines appended to
 * `$SIM_AGENT_LOG` (nothing is written when it is unset). Tests read it to assert exactly what
 * arrived.
 *
 * @module
 */

/** One logged event (`event` names it; the other fields depend on it). */
export type SimEvent = { event: string } & Record<string, unknown>;

/** Appends events to a JSON-lines file, synchronously so their order is the order of arrival. */
export class SimLog {
  readonly #path: string | null;

  /** Logs to `path`, or nowhere when null. */
  constructor(path: string | null) {
    this.#path = path || null;
  }

  /** Appends one event with a timestamp. */
  write(e: SimEvent): void {
    if (!this.#path) return;
    const line = JSON.stringify({ ...e, time: new Date().toISOString() }) + "\n";
    Deno.writeTextFileSync(this.#path, line, { append: true });
  }
}

/** Reads every event of a log file (for tests and the demo). */
export function readSimLog(path: string): SimEvent[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as SimEvent);
}
