/**
 * The agent's own status, as it prints it into its output (OSC 7501, `Adapter.programStatus`;
 * Codex CLI 0.171.0 always does): a second opinion on the limit its screen shows. Codex says
 * `working` while a turn runs and `error` when it ends in one, but its `error` is the same for a
 * usage limit and a server error, so the status alone never decides anything:
 *
 * - a limit on the screen in a turn whose status went `error` is confirmed: it acts at once,
 *   without waiting for the agent to finish drawing (Codex prints `error` in the very write that
 *   draws its `■` limit row);
 * - a limit on the screen while the status says `working` (the model's own text quoting a limit,
 *   a turn still streaming) is held, for at most {@link STATUS_HOLD_MS}; then the screen's own
 *   rules decide (a status stuck at `working` must not keep the user at a limit);
 * - any other state (`done`, `idle`, no report yet) leaves the screen's rules as they are.
 *
 * It lives in the detector, fed the OSC 7501 texts its terminal found in the output it is fed
 * (`Terminal.onOsc`), so a replay of a run's recording hears the same reports at the same byte
 * offsets. Pure.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";
import { parseProgramStatus, programStatusEvent } from "../../adapters/channels/osc7501.ts";

/** How long a limit the screen shows waits while the agent's status says it still works. */
export const STATUS_HOLD_MS = 10_000;

/** A change of the agent's status, for the decision log. */
export interface StatusChange {
  state: string;
  /** What it says of the turn (busy, idle), when it says anything. */
  event: ChannelEvent | null;
}

/** What the status says about a limit the screen shows now. */
export type StatusWord = "confirms" | "working" | null;

/** One run's program status. */
export class ProgramStatus {
  #state: string | null = null;
  /** The turn now (since the last `working`) went `error`. */
  #errored = false;

  /** What it holds, as JSON data (a detector's saved state, detector_state.ts). */
  save(): { state: string | null; errored: boolean } {
    return { state: this.#state, errored: this.#errored };
  }

  /** Puts back what {@link save} returned. */
  restore(saved: { state: string | null; errored: boolean }): void {
    this.#state = saved.state;
    this.#errored = saved.errored;
  }

  /** The last state reported, or null before the first report. */
  get state(): string | null {
    return this.#state;
  }

  /** Reads the reports in `texts` (OSC 7501 strings, in order); returns the changes of state. */
  feed(texts: readonly string[]): StatusChange[] {
    const out: StatusChange[] = [];
    for (const text of texts) {
      const status = parseProgramStatus(text);
      if (!status) continue;
      if (status.state === "working" && this.#state !== "working") this.#errored = false;
      if (status.state === "error") this.#errored = true;
      if (status.state === this.#state) continue;
      this.#state = status.state;
      out.push({ state: status.state, event: programStatusEvent(status) });
    }
    return out;
  }

  /** What the status says about a limit the screen shows now (see the module documentation). */
  word(): StatusWord {
    if (this.#errored) return "confirms";
    return this.#state === "working" ? "working" : null;
  }
}
