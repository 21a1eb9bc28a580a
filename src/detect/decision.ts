/**
 * What detection concluded and when: the records a {@link Detector} appends as it looks at a run's
 * screen (and, with issue 20, hears its structured channel). The journal keeps them per run, and a
 * replay of the run's recording must produce the same list. Pure data.
 *
 * @module
 */
import type { LimitHit, LimitWarning } from "../../adapters/adapter.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";

/**
 * What a record says:
 * - `seen`: a limit showed (on a look at the screen) that was not showing on the look before;
 * - `waiting`: it is worth a handoff, but the agent may not have finished showing it yet;
 * - `acted`: the run ends on it (a limit, or the stall rule);
 * - `rejected`: it was not acted on, and `why` says why (a rate limit still being retried, gone
 *   or changed before it was confirmed);
 * - `event`: a structured-channel event was heard (`event`);
 * - `disagree`: the channel and the screen said different things about a limit (the agent
 *   reported one the screen reader did not see, or the screen showed one the channel called an
 *   error): `lines` is the screen at that moment, `why` says which;
 * - `warning`: the agent drew a usage warning (`warning`) other than the last one recorded: never
 *   a limit, the ledger's *near its limit*.
 */
export type DecisionVerdict =
  | "seen"
  | "waiting"
  | "acted"
  | "rejected"
  | "event"
  | "disagree"
  | "warning";

/** One record of the decision log. */
export interface Decision {
  /** When, in ms since the run started (the recording's clock), to the microsecond. */
  atMs: number;
  /** Bytes of the agent's output the detector had read at that moment. */
  offset: number;
  /** Where it came from: a look at the screen, or the agent's structured channel. */
  source: "screen" | "channel";
  verdict: DecisionVerdict;
  /** The limit concerned (not for `event`, nor for an `acted` stall). */
  hit?: LimitHit;
  /** For `waiting`: the next look is due this many ms later at the latest. */
  retryInMs?: number;
  /** For `rejected`, and an `acted` stall: why, in words. */
  why?: string;
  /** For `event`: the channel event heard. */
  event?: ChannelEvent;
  /** For `disagree`: the screen's lines with text at that moment. */
  lines?: string[];
  /** For `warning`: the usage warning shown, with the reset it states. */
  warning?: LimitWarning;
}

/** Most records one run keeps; later ones are counted, not kept (hostile output is normal input). */
export const MAX_DECISIONS = 1000;

/** What the run must do: end on a limit, or on the stall rule. Reached once. */
export type Verdict =
  | { kind: "limit"; hit: LimitHit; atMs: number; offset: number; lines: string[] }
  | { kind: "stall"; message: string; atMs: number; offset: number; lines: string[] };
