/**
 * The chain's decisions, in the style of a reducer: the members, the ledger and what just happened
 * go in; the step to carry out comes out. Pure: `src/session/chain.ts` (a terminal run) and
 * `src/exec/exec_task.ts` (headless) only carry the steps out.
 *
 * @module
 */
import { availableAt, isLimited, limitedLine, type LimitEntry } from "./limits.ts";
import { type Member, roadOf, usable } from "./member.ts";
import { rotation, type RotationMode } from "./rotation.ts";
import type { Road } from "../config/config.ts";

/** What the decisions read: the chain, each agent's latest limit, who refused, and the time. */
export interface ChainState {
  members: readonly Member[];
  /** Each agent's latest limit (the shared ledger, and this run's stalls). */
  limits: ReadonlyMap<string, LimitEntry>;
  /** Agents that could not take a handoff in this run (no prompt proof, a road refused). */
  refused: ReadonlySet<string>;
  now: Date;
}

/** The step after a decision. */
export type Step =
  /** Start `member`; for a handoff, on `road`. `notes` say which agents were passed over, and why. */
  | { kind: "start"; member: Member; road: Road; notes: string[] }
  /** Every agent is limited: wait for `member`'s reset at `at`, then decide again. */
  | { kind: "wait"; member: Member; at: Date; notes: string[] }
  /** Nothing can go on. */
  | { kind: "none"; why: "not-installed" | "unavailable" };

/** Whether `member` may take work now (usable, not refused, not limited). */
export function eligible(state: ChainState, member: Member): boolean {
  return usable(member) && !state.refused.has(member.name) &&
    !isLimited(state.limits.get(member.name), state.now);
}

/**
 * The first agent of a run. A named agent starts (when installed) whatever the ledger says, with a
 * note if it is limited: the user asked for it. Otherwise the first eligible member, with one note
 * per limited agent passed over; when all are limited, wait for the earliest reset.
 */
export function firstStep(state: ChainState, named: boolean): Step {
  const { members, now } = state;
  if (named) {
    const m = members[0];
    if (!m?.found) return { kind: "none", why: "not-installed" };
    const entry = state.limits.get(m.name);
    const notes = isLimited(entry, now)
      ? [`${limitedLine(entry!, now)}; starting it as asked`]
      : [];
    return { kind: "start", member: m, road: roadOf(m), notes };
  }
  if (!members.some(usable)) return { kind: "none", why: "not-installed" };
  return _pick(state, rotation(members, null, "once"));
}

/**
 * The next agent after `from` stopped working (a limit, a stall, a refusal), in `mode` order. When
 * every agent is limited, wait for the earliest reset (`once` never waits: each agent runs once).
 */
export function nextStep(state: ChainState, from: Member, mode: RotationMode): Step {
  const order = rotation(state.members, from, mode);
  const step = _pick(state, order);
  if (step.kind === "wait" && mode === "once") return { kind: "none", why: "unavailable" };
  return step;
}

/**
 * After `from`'s usage warning (`handoffEarly`): the agent the work would move on to now, never
 * `from` itself and never a wait (a warning is no limit: with nobody else available, `from` simply
 * goes on). Null when there is none.
 */
export function earlyStep(
  state: ChainState,
  from: Member,
): Extract<Step, { kind: "start" }> | null {
  const step = nextStep(
    { ...state, refused: new Set([...state.refused, from.name]) },
    from,
    "wrap",
  );
  return step.kind === "start" ? step : null;
}

function _pick(state: ChainState, order: readonly Member[]): Step {
  const notes: string[] = [];
  for (const m of order) {
    if (eligible(state, m)) return { kind: "start", member: m, road: roadOf(m), notes };
    const entry = state.limits.get(m.name);
    if (usable(m) && !state.refused.has(m.name) && entry) {
      notes.push(limitedLine(entry, state.now));
    }
  }
  const waitable = order
    .filter((m) => usable(m) && !state.refused.has(m.name) && state.limits.has(m.name))
    .map((m) => ({ member: m, at: availableAt(state.limits.get(m.name)!) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  if (waitable.length === 0) return { kind: "none", why: "unavailable" };
  return { kind: "wait", member: waitable[0].member, at: waitable[0].at, notes };
}

/** The preferred agent: the first usable member of the chain. */
export function preferred(members: readonly Member[]): Member | null {
  return members.find(usable) ?? null;
}

/**
 * While `current` works, whether the work may go back to the preferred agent: `available` when it
 * is eligible again, `later` with when to look again while it is limited, `no` otherwise (it is
 * the one working, or cannot take work this run).
 */
export function returnCheck(
  state: ChainState,
  current: Member,
): { kind: "available"; to: Member } | { kind: "later"; at: Date } | { kind: "no" } {
  const first = preferred(state.members);
  if (!first || first === current || state.refused.has(first.name)) return { kind: "no" };
  if (eligible(state, first)) return { kind: "available", to: first };
  const entry = state.limits.get(first.name);
  return entry ? { kind: "later", at: availableAt(entry) } : { kind: "no" };
}

/** The line that tells the user the preferred agent can take the work back. */
export function availableAgainLine(to: Member, returnToFirst: boolean): string {
  return returnToFirst
    ? `${to.name} is available again: the work goes back to it at the next quiet moment`
    : `${to.name} is available again: type /agent ${to.name} to go back`;
}
