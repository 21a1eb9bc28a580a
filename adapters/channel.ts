/**
 * uuldana's own model of what an agent's structured channel says (hooks, event streams, OSC
 * notifications), the same for every agent. Each adapter turns its raw channel lines into these.
 * Pure types.
 *
 * This is the minimal shape the detection core (src/detect/) was built against; issue 20 owns it
 * and fills in how each adapter enables and reads its channel.
 *
 * @module
 */

/** One thing an agent's structured channel said. */
export type ChannelEvent =
  /** The exact text the user submitted. */
  | { type: "prompt"; text: string }
  /** The agent's text for a turn. */
  | { type: "reply"; text: string }
  /** A limit the provider or the agent reported. */
  | {
    type: "limit";
    kind: "usage" | "rate";
    message: string;
    /** ISO-8601 (UTC), or null when not given. */
    resetsAt: string | null;
    /** The provider's HTTP status, when given. */
    status?: number;
    /** The provider's error code, when given (e.g. `insufficient_quota`). */
    code?: string;
  }
  /** A turn started. */
  | { type: "busy" }
  /** The turn ended; the agent waits for input. */
  | { type: "idle" }
  /** An error that is not a limit. */
  | { type: "error"; message: string }
  /** The agent's session started or ended. */
  | { type: "session"; phase: "start" | "end"; id?: string };
