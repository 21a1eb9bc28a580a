/**
 * The order agents are tried in after one of them stops. Pure.
 *
 * @module
 */

/**
 * How the chain goes round: `wrap` (a terminal run: after the last agent comes the first again,
 * the agent that stopped last of all, so a reset agent can take the work back) or `once` (`exec`:
 * each agent of the chain at most once, in order).
 */
export type RotationMode = "wrap" | "once";

/** The members to try after `from` (null: from the start of the chain), in order. */
export function rotation<T>(members: readonly T[], from: T | null, mode: RotationMode): T[] {
  const i = from === null ? -1 : members.indexOf(from);
  const after = members.slice(i + 1);
  return mode === "once" || i < 0 ? after : [...after, ...members.slice(0, i + 1)];
}
