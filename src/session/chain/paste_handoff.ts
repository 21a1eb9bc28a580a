/**
 * The paste step: a handoff on the paste road (every `/agent NAME` switch) is pasted into the new
 * agent's input box, unsent, once it can take it (paste.ts); what became of it is settled in the
 * journal, and when it never showed the user is told where the handoff is saved (a notification
 * now, the status line once the agent is gone: nothing is written into its screen).
 *
 * @module
 */
import { join } from "node:path";
import { copyFileSync } from "node:fs";
import type { PreparedHandoff } from "../../handoff/prepare.ts";
import { closingLine, openingLine } from "../../handoff/frame.ts";
import type { AgentRun } from "../agent_run.ts";
import { pasteUntilVisible } from "../paste.ts";
import type { Chain } from "./state.ts";

/** Pastes `handoff` into `run`'s input box once it shows, and settles what became of it. */
export async function pasteWhenReady(
  chain: Chain,
  run: AgentRun,
  handoff: PreparedHandoff,
): Promise<void> {
  const { dataDir } = chain.ctx;
  let reason: string;
  try {
    const { nonce } = handoff.composed;
    // A TUI still loading drops a paste: it is pasted again until it shows (paste.ts).
    const result = await pasteUntilVisible(run, handoff.composed.text, {
      timeoutMs: chain.pasteTimeoutMs(),
      probes: [openingLine(nonce), closingLine(nonce)],
    });
    if (result.pasted && result.visible) {
      chain.settle(handoff, { kind: "pasted", receipt: result.receipt });
      return;
    }
    if (result.pasted) {
      // Written but never seen: the journal and the user are told so, never "pasted".
      chain.settle(handoff, {
        kind: "not-seen",
        receipt: result.receipt,
        reason: `the paste never showed in ${run.adapterName}'s input box`,
      });
      if (run.finished) return;
      chain.undelivered(
        run.adapterName,
        `the handoff was pasted ${result.attempts} times but never showed in ${run.adapterName}'s ` +
          "input box",
        `look before you send anything; it is saved in ${_saveHandoffMd(dataDir, handoff)}`,
      );
      return;
    }
    reason = result.reason;
  } catch (e) {
    reason = `the paste failed: ${(e as Error)?.message ?? e}`;
  }
  chain.settle(handoff, { kind: "not-pasted", reason });
  if (run.finished) return; // the agent is gone; the handoff file is in the journal
  chain.undelivered(
    run.adapterName,
    `${run.adapterName}: ${reason}; nothing was pasted`,
    `the handoff is saved in ${_saveHandoffMd(dataDir, handoff)}`,
  );
}

// A copy of the handoff where the user finds it: `handoff.md` in the data directory; when that
// cannot be written yet (a full disk), the handoff's own file, written there when it can be.
function _saveHandoffMd(dataDir: string, handoff: PreparedHandoff): string {
  const saved = join(dataDir, "handoff.md");
  try {
    copyFileSync(handoff.file, saved);
    return saved;
  } catch {
    return handoff.file;
  }
}
