/**
 * A chain of agent runs in the user's terminal: the first agent runs untouched; on a usage limit
 * (or a stall) the conversation is handed to the next available agent through its road and it
 * starts on it at once; on `/agent NAME` the next agent starts clean and the handoff is pasted into
 * its input box, not sent. Every decision (who starts, who is next, when to wait, when the work may
 * go back, a handoff's status) is made by the pure core in `src/chain/`; this file is the loop
 * (start, watch, follow the outcome) and each step it carries out is a file in `chain/`:
 *
 * - `chain/state.ts`: the options, the members and what the core decides on; handoff statuses
 * - `chain/first.ts`: the members looked up, the first agent to start
 * - `chain/launch.ts`: an agent started in its pty, its handoff on a launch road
 * - `chain/kickoff.ts`, `chain/paste_handoff.ts`: what a started agent still has to receive
 * - `chain/agent_command.ts`: what `/agent` and `/agent NAME` answer
 * - `chain/proofs.ts`: whether an agent takes an opening prompt, proven once per run
 * - `chain/auto_handoff.ts`: the next agent after a limit, a stall or a refused road
 * - `chain/manual_switch.ts`: `/agent NAME`
 * - `chain/wait.ts`: the wait for a reset when every agent is limited
 * - `chain/return_to_first.ts`: the work handed back to the first agent, available again
 * - `chain/early_handoff.ts`: a usage warning into the ledger; with `handoffEarly`, the work moved
 *   on at the next turn boundary
 *
 * @module
 */
import { RoadError } from "../../adapters/launch_rules.ts";
import type { TranscriptEntry } from "../handoff/package.ts";
import { runConversation } from "../handoff/prepare.ts";
import { signalExitCode } from "../pty/signals.ts";
import type { Member } from "../chain/member.ts";
import type { WorkStop } from "../chain/reason.ts";
import type { AgentRun, RunOutcome } from "./agent_run.ts";
import { Chain, type ChainOptions, type Start } from "./chain/state.ts";
import { firstStart, resolveMembers } from "./chain/first.ts";
import { launch } from "./chain/launch.ts";
import { proveOthers } from "./chain/proofs.ts";
import { afterStop } from "./chain/auto_handoff.ts";
import { manualSwitch } from "./chain/manual_switch.ts";
import { handBack, watchForReturn } from "./chain/return_to_first.ts";
import { afterWarning, watchWarnings } from "./chain/early_handoff.ts";

export type { ChainOptions, RunOutcome };

/**
 * Runs the chain until an agent exits by itself or nothing can continue; returns the exit code.
 * Returns only when every agent it started is gone and journaled, and every delivery settled.
 */
export async function runChain(opts: ChainOptions): Promise<number> {
  const chain = new Chain(opts, resolveMembers(opts));
  try {
    return await _runChain(chain);
  } finally {
    await Promise.allSettled(chain.stopping);
  }
}

async function _runChain(chain: Chain): Promise<number> {
  const { opts, ctx } = chain;
  let conversation: TranscriptEntry[] = opts.initial?.conversation ?? [];
  const first = await firstStart(chain);
  if (typeof first === "number") return first;
  // `uuldana handoff`: the named agent starts on the saved handoff.
  const initial = opts.initial ? { handoff: opts.initial.handoff, road: opts.initial.road } : {};
  let start: Start = { ...first, ...initial, extraArgs: opts.extraArgs };

  for (;;) {
    const { member } = start;
    // A signal that came while no agent ran (a switch, a wait) had no run to stop: start no other.
    if (opts.abort?.aborted) {
      if (start.handoff) chain.settle(start.handoff, { kind: "interrupted" });
      return signalExitCode(String(opts.abort.reason));
    }
    let launched: { run: AgentRun; delivery: Promise<void> };
    try {
      launched = await launch(chain, start);
    } catch (e) {
      if (!start.handoff) throw e;
      if (!(e instanceof RoadError)) {
        chain.settle(start.handoff, {
          kind: "start-failed",
          agent: member.name,
          reason: (e as Error)?.message ?? String(e),
        });
        throw e;
      }
      // The road cannot carry this handoff (too long for argv, a failed import…): never guess.
      chain.settle(start.handoff, {
        kind: "road-refused",
        reason: `${e.message}${e.hint ? ` (${e.hint})` : ""}`,
      });
      opts.status(
        `${member.name} cannot take this handoff: ${e.message}. Saved: ${start.handoff.file}`,
      );
      chain.refused.add(member.name);
      const origin = start.origin;
      if (!origin) throw e;
      const next = await afterStop(chain, origin.from, origin.fromRun, origin.stop, conversation);
      if (typeof next === "number") return next;
      start = next;
      continue;
    }
    const { run } = launched;
    chain.stopping.push(run.ended, launched.delivery);
    opts.onRun?.(run);
    // A signal or a resize while the agent was being started reached no run.
    if (opts.abort?.aborted) run.stop(String(opts.abort.reason));
    else _followSize(opts, run);
    proveOthers(chain, member);
    const stopWatching = watchForReturn(chain, run, member);
    const stopWarnings = watchWarnings(chain, run, member);
    const outcome = await run.outcome;
    stopWatching();
    stopWarnings();
    opts.onRun?.(null);
    // The journal has the limit only once the run has ended; the screen is cut at it now.
    const limitMessage = outcome.reason === "limit" ? outcome.limit.message : undefined;
    conversation = [...conversation, ...runConversation(ctx.journal, run.runId, limitMessage)];

    const next = await _afterRun(chain, member, run.runId, outcome, conversation);
    if (typeof next === "number") return next;
    start = next;
  }
}

/** What follows a run's outcome: an exit code, or the next start. */
function _afterRun(
  chain: Chain,
  member: Member,
  runId: number,
  outcome: RunOutcome,
  conversation: TranscriptEntry[],
): Promise<Start | number> | number {
  switch (outcome.reason) {
    case "exit":
      return outcome.exitCode;
    case "stopped":
      return signalExitCode(outcome.signal);
    case "switch":
      return manualSwitch(chain, member, runId, outcome.to, conversation);
    case "return":
      return handBack(chain, member, runId, outcome.to, conversation);
    case "early":
      return afterWarning(chain, member, runId, outcome.warning, conversation);
    case "limit":
    case "stall": {
      const stop: WorkStop = outcome.reason === "limit"
        ? { kind: "limit", limit: outcome.limit }
        : { kind: "stall", message: outcome.message };
      chain.noteStop(member, runId, stop);
      return afterStop(chain, member, runId, stop, conversation);
    }
  }
}

/** Gives a new run the terminal's size now: a resize while it was starting reached no pty. */
function _followSize(opts: ChainOptions, run: AgentRun): void {
  const { cols, rows } = opts.size();
  if (cols !== run.vt.cols || rows !== run.vt.rows) run.resize(cols, rows);
}
