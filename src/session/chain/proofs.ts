/**
 * The proofs step: whether an agent takes an opening prompt, shown by its `--help` (find.ts), so a
 * handoff is never guessed onto a road it cannot carry, and its version. Each member is probed
 * once per run (the journal's cache answers for a binary probed before), in the background while
 * another agent works, so neither the first start nor a switch waits for an agent's probes.
 *
 * @module
 */
import type { Proof } from "../../../adapters/adapter.ts";
import { BACKGROUND_PROBE_TIMEOUT_MS, proveAgent, versionOf } from "../../../adapters/find.ts";
import type { Journal } from "../../journal/journal.ts";
import type { PreparedHandoff } from "../../handoff/prepare.ts";
import { type Member, usable } from "../../chain/member.ts";
import type { Chain } from "./state.ts";

/** The members' probes of one run: each asked once (a proof again only when it proved nothing). */
export class Proofs {
  readonly #journal: Journal;
  readonly #proofs = new Map<string, Promise<Proof>>();
  readonly #versions = new Map<string, Promise<string | null>>();

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  /** What `member`'s `--help` proves (it must be installed). */
  async of(member: Member): Promise<Proof> {
    let p = this.#proofs.get(member.name);
    if (!p) {
      p = this.#prove(member);
      this.#proofs.set(member.name, p);
    }
    const proof = await p;
    if (!proof.inconclusive) return proof;
    // A probe that timed out proved nothing either way (a slow start): it is not kept, probe again.
    p = this.#prove(member);
    this.#proofs.set(member.name, p);
    return p;
  }

  /** What `member`'s `--version` says (it must be installed), asked once per run. */
  version(member: Member): Promise<string | null> {
    let v = this.#versions.get(member.name);
    if (!v) {
      v = versionOf(member.adapter, member.found!, this.#options()).catch(() => null);
      this.#versions.set(member.name, v);
    }
    return v;
  }

  #prove(member: Member): Promise<Proof> {
    return proveAgent(member.adapter, member.found!, this.#journal, this.#options());
  }

  #options() {
    return { journal: this.#journal, retryTimeoutMs: BACKGROUND_PROBE_TIMEOUT_MS };
  }
}

/** While `running` works, proves the others take an opening prompt: a switch then waits for none. */
export function proveOthers(chain: Chain, running: Member): void {
  for (const m of chain.members) {
    if (!usable(m) || m === running) continue;
    // A handoff's launch asks the version: then it is known (or cached) already.
    chain.proofs.version(m);
    chain.proofs.of(m).catch(() => {});
  }
}

/**
 * Whether `member` proves it takes an opening prompt; when not, the handoff is saved as refused,
 * the user told, and the member refused for the rest of the run.
 */
export async function proven(
  chain: Chain,
  member: Member,
  saveRefused: (why: string) => Promise<PreparedHandoff | null>,
): Promise<boolean> {
  const proof = await chain.proofs.of(member);
  if (proof.accepted) return true;
  const saved = await saveRefused(
    `no initial-prompt proof: ${proof.reason ?? "help text did not show it"}`,
  );
  chain.opts.status(
    `${member.name} cannot be shown to take an opening prompt (${
      proof.reason ?? "unknown"
    }); not guessing.` + (saved ? ` Handoff saved: ${saved.file}` : ""),
  );
  chain.refused.add(member.name);
  return false;
}
