/**
 * The manual switch step (`/agent NAME`): the named agent (looked up now when it is outside the
 * chain) starts clean, and the conversation so far is saved as a handoff for the paste road: it
 * lands in the new agent's input box for the user to read and send.
 *
 * @module
 */
import { adapterByName } from "../../../adapters/registry.ts";
import { findAgent } from "../../../adapters/find.ts";
import { profileByName } from "../../chain/profile.ts";
import { checkLaunchable, locateConfig } from "../../config/profile_check.ts";
import { NotFoundError } from "../../errors.ts";
import type { TranscriptEntry } from "../../handoff/package.ts";
import { prepareHandoff } from "../../handoff/prepare.ts";
import type { Member } from "../../chain/member.ts";
import type { Chain, Start } from "./state.ts";

/** The start that follows `/agent to` in run `fromRun` of `from`. */
export async function manualSwitch(
  chain: Chain,
  from: Member,
  fromRun: number,
  to: string,
  conversation: TranscriptEntry[],
): Promise<Start> {
  const { opts, ctx } = chain;
  let target = chain.members.find((m) => m.name === to);
  if (!target) {
    const profile = profileByName(ctx.config, to, adapterByName)!;
    checkLaunchable(profile, ctx.config);
    const { adapter } = profile;
    target = {
      ...profile,
      found: await findAgent(adapter, ctx.config, { journal: ctx.journal }, locateConfig(profile)),
    };
    if (!target.found) {
      throw new NotFoundError(
        `${adapter.displayName} (${adapter.name}) is not installed`,
        adapter.installHint,
      );
    }
    chain.members.push(target);
  }
  const handoff = await prepareHandoff({
    journal: ctx.journal,
    dataDir: ctx.dataDir,
    fromRun,
    from: from.name,
    to,
    road: "paste",
    mode: "manual",
    reason: { kind: "manual" },
    workspace: opts.workspace,
    entries: conversation,
  });
  opts.status(
    handoff
      ? `switching ${from.name} → ${to} (manual); the handoff will be pasted into ${to}'s input for you to send. Full file: ${handoff.file}`
      : `switching ${from.name} → ${to} (manual); nobody spoke to ${from.name}, so ${to} starts clean`,
  );
  return { member: target, handoff, road: handoff ? "paste" : null, extraArgs: [] };
}
