/**
 * The wait step: every agent of the chain is limited, so uuldana waits for the earliest reset the
 * core named (Ctrl-C stops it), or with `--no-wait` exits 3 at once.
 *
 * @module
 */
import { ExitCode } from "../../errors.ts";
import type { Member } from "../../chain/member.ts";
import { clock } from "../../chain/limits.ts";
import { signalExitCode } from "../../pty/signals.ts";
import { waitForReset } from "../reset_wait.ts";
import type { Chain } from "./state.ts";

/**
 * Waits for `member`'s reset at `at` (or, with `--no-wait`, exits 3); null when the reset came.
 */
export async function waitForMember(
  chain: Chain,
  member: Member,
  at: Date,
  notes: string[],
  where: string,
): Promise<number | null> {
  const { opts } = chain;
  const why = notes.length ? ` (${notes.join("; ")})` : "";
  if (opts.noWait) {
    opts.status(`every agent of the chain is limited or unavailable${why}.${where}`);
    return ExitCode.allLimited;
  }
  opts.status(
    `every agent is limited; waiting for ${member.name} to reset at ${
      clock(at, chain.now())
    } (${at.toISOString()}; Ctrl-C to stop).${where}`,
  );
  chain.notify({ kind: "wait", agent: member.name, until: at.toISOString() });
  const waited = await waitForReset(at, {
    keyboard: opts.keyboard,
    status: opts.status,
    abort: opts.abort,
  });
  if (waited === "stopped") {
    return signalExitCode(opts.abort?.aborted ? String(opts.abort.reason) : "SIGINT");
  }
  return null;
}
