/**
 * The automatic handoff step: after an agent stopped working (a limit, a stall, a refused road),
 * the next agent the core (`nextStep`) names, proven to take an opening prompt, gets the
 * conversation on its road; when every agent is limited, the handoff is saved so nothing is lost,
 * and uuldana waits for the earliest reset or gives up with an exit code.
 *
 * @module
 */
import type { Road } from "../../config/config.ts";
import { ExitCode } from "../../errors.ts";
import type { HandoffReason, TranscriptEntry } from "../../handoff/package.ts";
import { type PreparedHandoff, prepareHandoff } from "../../handoff/prepare.ts";
import { CONTINUE_REQUEST } from "../../handoff/frame.ts";
import type { Member } from "../../chain/member.ts";
import { nextStep } from "../../chain/decide.ts";
import { handoffReason, stopMessage, type WorkStop } from "../../chain/reason.ts";
import { proven } from "./proofs.ts";
import type { Chain, Start } from "./state.ts";
import { waitForMember } from "./wait.ts";

/** Where an automatic handoff goes: its agent and road, and its road's cap or why it is refused. */
export interface AutoTarget {
  name: string;
  road: Road;
  cap?: number;
  refused?: string;
}

/** Saves an automatic handoff to `to` on its road (or refused with `refused`). */
export function prepareAuto(
  chain: Chain,
  from: Member,
  fromRun: number,
  reason: HandoffReason,
  conversation: TranscriptEntry[],
  to: AutoTarget,
): Promise<PreparedHandoff | null> {
  return prepareHandoff({
    journal: chain.ctx.journal,
    dataDir: chain.ctx.dataDir,
    fromRun,
    from: from.name,
    to: to.name,
    road: to.road,
    mode: "auto",
    reason,
    workspace: chain.opts.workspace,
    entries: conversation,
    ...(to.refused ? { refused: to.refused } : { cap: to.cap, followUp: CONTINUE_REQUEST }),
  });
}

/**
 * After `from` stopped working (a limit, a stall, a refused road): the next agent the core names,
 * proven to take an opening prompt; when every agent is limited, the handoff is saved and uuldana
 * waits for the earliest reset (then decides again) or gives up with an exit code.
 */
export async function afterStop(
  chain: Chain,
  from: Member,
  fromRun: number,
  stop: WorkStop,
  conversation: TranscriptEntry[],
): Promise<Start | number> {
  const { opts } = chain;
  const reason = handoffReason(stop);
  const prepare = (to: AutoTarget) => prepareAuto(chain, from, fromRun, reason, conversation, to);
  for (;;) {
    const step = nextStep(chain.state(), from, "wrap");
    if (step.kind === "start") {
      const { member, road } = step;
      // An agent that was waited for is proven like any other: a reset does not make it take a prompt.
      if (
        !await proven(chain, member, (refused) => prepare({ name: member.name, road, refused }))
      ) {
        continue;
      }
      const handoff = await prepare({
        name: member.name,
        road,
        cap: member.adapter.roadCap(road) ?? undefined,
      });
      opts.status(
        `${from.name} → ${member.name}: "${stopMessage(stop)}". ` +
          (handoff
            ? `Handoff via ${road}: ${handoff.file}`
            : `Nobody spoke to ${from.name}; ${member.name} starts clean.`),
      );
      chain.notify({ kind: "switch", from: from.name, to: member.name, why: stopMessage(stop) });
      return {
        member,
        handoff,
        road: handoff ? road : null,
        extraArgs: [],
        origin: { from, fromRun, stop },
      };
    }
    // Nothing left to hand to: save the handoff so nothing is lost, then wait or stop.
    const saved = await prepare({
      name: "(none)",
      road: "paste",
      refused: "every agent of the chain is limited, missing or refused",
    });
    const where = saved ? ` The handoff is saved in ${saved.file}` : "";
    if (step.kind === "none") {
      opts.status(
        `every agent of the chain is limited or unavailable and no reset time is known.${where}`,
      );
      return ExitCode.allLimited;
    }
    const waited = await waitForMember(chain, step.member, step.at, [], where);
    if (waited !== null) return waited;
  }
}
