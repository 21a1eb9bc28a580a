/**
 * A run replayed: its recorded inputs fed to a fresh {@link Detector} in order, with their times,
 * exactly as the live run fed them. What the live run decided, the replay decides, at the same
 * byte offset and time (the decision log of both is the same list). Pure.
 *
 * @module
 */
import type { Decision } from "./decision.ts";
import { Detector, type DetectorOptions, type DetectorState, type Verdict } from "./detector.ts";
import type { TimedInput } from "./timed_input.ts";

/** What a replay concluded. */
export interface ReplayResult {
  /** The verdict the run would act on, or null. */
  verdict: Verdict | null;
  /** Every decision record, oldest first. */
  decisions: Decision[];
  /** Records beyond the bound (counted, not kept). */
  droppedDecisions: number;
  /** Output bytes read. */
  offset: number;
  /**
   * How the inputs ended: the agent's output ended (`end`), the run was decided elsewhere
   * (`halt`), a verdict was reached first (`verdict`), or the recording stops without saying
   * (`cut`: the run was killed or the recording reached its size bound).
   */
  ending: "end" | "halt" | "verdict" | "cut";
}

/**
 * Replays `inputs` through a new detector made with `opts`, or, given `from` (a state the live
 * detector saved just before the first of `inputs`: a long run's recording begins there), through
 * one resumed from it: its decisions are then those the live run made after that moment.
 */
export function replay(
  inputs: Iterable<TimedInput>,
  opts: DetectorOptions,
  from?: DetectorState,
): ReplayResult {
  const detector = from ? Detector.resume(opts, from) : new Detector(opts);
  const decisions: Decision[] = [];
  let verdict: Verdict | null = null;
  let ending: ReplayResult["ending"] = "cut";
  for (const input of inputs) {
    verdict = detector.input(input);
    decisions.push(...detector.takeDecisions());
    if (verdict) {
      ending = "verdict";
      break;
    }
    // The output's end is not the run's: the channel may still speak until the agent has exited
    // (Claude's SessionEnd hook as it quits), and the live run records and hears that too.
    if (input.type === "end") ending = "end";
    if (input.type === "halt") {
      ending = "halt";
      break;
    }
  }
  return {
    verdict,
    decisions,
    droppedDecisions: detector.droppedDecisions,
    offset: detector.offset,
    ending,
  };
}
