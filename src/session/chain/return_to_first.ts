/**
 * The return step: while a later agent works and the chain's first agent is limited, the ledger is
 * watched; once the first agent is available again the user is told, and with `returnToFirst` the
 * work is handed back at the next moment the working agent is quiet with an empty input box.
 *
 * @module
 */
import type { TranscriptEntry } from "../../handoff/package.ts";
import { type Member, roadOf } from "../../chain/member.ts";
import { availableAgainLine, returnCheck } from "../../chain/decide.ts";
import type { AgentRun } from "../agent_run.ts";
import { prepareAuto } from "./auto_handoff.ts";
import type { Chain, Start } from "./state.ts";

/**
 * While a later agent works and the chain's first agent is limited: once the ledger shows the
 * first one available again, tell the user; with `returnToFirst`, hand the work back at the next
 * moment the working agent is quiet and its input box empty. Returns a function that stops it.
 */
export function watchForReturn(chain: Chain, run: AgentRun, current: Member): () => void {
  const initial = returnCheck(chain.state(), current);
  if (initial.kind !== "later") return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const look = () => {
    if (stopped || run.finished) return;
    const check = returnCheck(chain.state(), current);
    if (check.kind === "no") return;
    if (check.kind === "later") {
      // Looked at again at its reset, and every few seconds (another uuldana may clear it): one
      // small read of the ledger.
      const wait = Math.min(Math.max(check.at.getTime() - Date.now(), 200), 5_000);
      timer = setTimeout(look, wait);
      return;
    }
    const back = chain.ctx.config.returnToFirst;
    chain.opts.status(availableAgainLine(check.to, back));
    chain.notify({ kind: "available", agent: check.to.name });
    if (back) _returnWhenIdle(chain, run, check.to).catch(() => {});
  };
  timer = setTimeout(look, 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Hands the work back to `to` once the run is quiet with an empty input box (and `to` proven). */
async function _returnWhenIdle(chain: Chain, run: AgentRun, to: Member): Promise<void> {
  if (!(await chain.proofs.of(to)).accepted) return;
  while (!run.finished) {
    if (await run.waitUntil(() => run.isQuiet() && run.inputEmpty, 60_000)) {
      run.returnTo(to.name);
      return;
    }
  }
}

/** The work goes back to `to`, available again: an automatic handoff on its road and frame. */
export async function handBack(
  chain: Chain,
  from: Member,
  fromRun: number,
  to: string,
  conversation: TranscriptEntry[],
): Promise<Start | number> {
  const member = chain.members.find((m) => m.name === to)!;
  const road = roadOf(member);
  const handoff = await prepareAuto(chain, from, fromRun, { kind: "return" }, conversation, {
    name: to,
    road,
    cap: member.adapter.roadCap(road) ?? undefined,
  });
  chain.opts.status(
    `${from.name} → ${to}: ${to} is available again. ` +
      (handoff ? `Handoff via ${road}: ${handoff.file}` : `Nobody spoke to ${from.name}.`),
  );
  chain.notify({ kind: "return", from: from.name, to });
  return { member, handoff, road: handoff ? road : null, extraArgs: [] };
}
