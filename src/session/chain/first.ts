/**
 * The first step of a chain: who its members are (each looked up once) and which of them starts,
 * as the core (`firstStep`) decides; when every one is limited, the wait for the earliest reset.
 *
 * @module
 */
import { adapterByName } from "../../../adapters/registry.ts";
import { foundWithoutVersion } from "../../../adapters/find.ts";
import { NotFoundError } from "../../errors.ts";
import { chainNames, chainProfiles, type Member } from "../../chain/member.ts";
import { profileByName } from "../../chain/profile.ts";
import { checkLaunchable, locateConfig } from "../../config/profile_check.ts";
import { firstStep } from "../../chain/decide.ts";
import type { Chain, ChainOptions, Start } from "./state.ts";
import { waitForMember } from "./wait.ts";

/**
 * The chain's members (agents or profiles), in order, each with its binary found (or not) and its
 * config. Nothing is run: the first agent starts without waiting for any agent's `--version`
 * (`Proofs` asks the one that starts, and the others in the background). A member whose profile
 * cannot launch (a `${VAR}` not set, a setting that would turn its channel off) is an error before
 * anything starts.
 */
export function resolveMembers(opts: ChainOptions): Member[] {
  const { config } = opts.ctx;
  const profiles = chainProfiles(
    chainNames(config.chain, opts.first, opts.then),
    (name) => profileByName(config, name, adapterByName),
  );
  return profiles.map((p) => {
    checkLaunchable(p, config);
    return { ...p, found: foundWithoutVersion(p.adapter, config, locateConfig(p)) };
  });
}

/** The first agent to start: the core's choice, said in one line when it passed agents over. */
export async function firstStart(
  chain: Chain,
): Promise<Omit<Start, "extraArgs"> | number> {
  const { opts, members } = chain;
  for (;;) {
    const step = firstStep(chain.state(), opts.first !== null);
    if (step.kind === "none") {
      const m = members[0];
      if (opts.first) {
        throw new NotFoundError(
          `${m.adapter.displayName} (${m.name}) is not installed`,
          m.adapter.installHint,
        );
      }
      const hints = members.map((x) => `  ${x.name}: ${x.adapter.installHint}`).join("\n");
      throw new NotFoundError(
        `no agent of your chain is installed (${members.map((x) => x.name).join(", ")})`,
        `install one:\n${hints}`,
      );
    }
    if (step.kind === "start") {
      if (step.notes.length) {
        opts.status(
          opts.first
            ? step.notes.join("; ")
            : `${step.notes.join("; ")}; starting ${step.member.name}`,
        );
      }
      return { member: step.member, handoff: null, road: null };
    }
    const waited = await waitForMember(chain, step.member, step.at, step.notes, "");
    if (typeof waited === "number") return waited;
  }
}
