/**
 * The warning step: a usage warning the working agent shows ("You've used 90% of your 5-hour
 * limit · resets 3pm") is kept in the ledger as *near its limit* and said once; with
 * `handoffEarly` the work moves to the next agent at the agent's next turn boundary (idle, its
 * input box empty, nothing typed), never mid-turn, so the next one starts at a boundary instead of
 * mid-edit. Off, nothing else changes.
 *
 * @module
 */
import type { LimitWarning } from "../../../adapters/adapter.ts";
import type { TranscriptEntry } from "../../handoff/package.ts";
import { handoffEarlyFor } from "../../config/config.ts";
import type { Member } from "../../chain/member.ts";
import { earlyStep } from "../../chain/decide.ts";
import type { AgentRun } from "../agent_run.ts";
import { afterStop } from "./auto_handoff.ts";
import type { Chain, Start } from "./state.ts";

/**
 * Follows the usage warnings of `run` (agent `member`): each new one into the ledger and said
 * once; with `handoffEarly` for that agent, the handoff at its next turn boundary. Returns a
 * function that stops it.
 */
export function watchWarnings(chain: Chain, run: AgentRun, member: Member): () => void {
  const early = handoffEarlyFor(chain.ctx.config, member.config);
  let waiting = false;
  return run.onWarning((warning) => {
    // The ledger keeps a warning once; this run acts on the first it shows (also one the ledger
    // already had from an earlier run).
    const kept = chain.noteWarning(member, run.runId, warning);
    const next = early && !waiting ? earlyStep(chain.state(), member) : null;
    if (!kept && !next) return;
    chain.opts.status(
      `${member.name} is near its usage limit: "${warning.message}"` +
        (next ? `; the work moves to ${next.member.name} once this turn is over` : ""),
    );
    if (!next) return;
    waiting = true;
    // Nobody left to move on to by the boundary: a later warning may arm it again.
    _handOffAtBoundary(chain, run, member, warning).then((done) => waiting = done, () => {});
  });
}

/** How long one wait for a turn boundary lasts before it is looked at again. */
const _WAIT_MS = 60_000;

/**
 * Ends `run` at its next turn boundary while there still is an agent to move on to; false when
 * there is none by then (or the run ended first).
 */
async function _handOffAtBoundary(
  chain: Chain,
  run: AgentRun,
  member: Member,
  warning: LimitWarning,
): Promise<boolean> {
  while (!run.finished) {
    if (!await run.waitUntil(() => run.atTurnBoundary(), _WAIT_MS)) continue;
    // Still someone to move on to (another uuldana may have seen them limited meanwhile).
    if (earlyStep(chain.state(), member) === null) return false;
    run.handOffEarly(warning);
    return true;
  }
  return false;
}

/**
 * After an early handoff: the next agent (never `from` itself: it is only near its limit) gets the
 * conversation on its road, framed as handed over at a turn boundary.
 */
export function afterWarning(
  chain: Chain,
  from: Member,
  fromRun: number,
  warning: LimitWarning,
  conversation: TranscriptEntry[],
): Promise<Start | number> {
  // `from` sits out this one choice: the rotation would otherwise come back to it.
  chain.refused.add(from.name);
  return afterStop(chain, from, fromRun, { kind: "warning", warning }, conversation).then(
    (next) => {
      chain.refused.delete(from.name);
      // Nobody could take it after all (a refused road, a limit meanwhile): a warning is no
      // limit, so the work does not stop: `from` starts again (the handoff stays saved).
      if (typeof next === "number" && from.found) {
        chain.opts.status(`${from.name} goes on: no other agent could take the work`);
        return { member: from, handoff: null, road: null, extraArgs: [] };
      }
      return next;
    },
  );
}
