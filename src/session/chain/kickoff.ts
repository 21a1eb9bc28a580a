/**
 * The kickoff step: roads whose argv cannot start the turn (OpenCode's store road) get a one-line
 * kickoff typed into the new agent's input box and submitted, once it shows there.
 *
 * @module
 */
import type { AgentRun } from "../agent_run.ts";
import { pasteUntilVisible } from "../paste.ts";
import type { Chain } from "./state.ts";

/** Types `kickoff` into `run`'s input box once it shows, and submits it with `submitKey`. */
export async function submitKickoff(
  chain: Chain,
  run: AgentRun,
  kickoff: string,
  submitKey: string,
): Promise<void> {
  let problem: string | null = null;
  try {
    // A TUI still loading can drop a paste (OpenCode while it opens the imported session): the
    // kickoff is sent only once it is visible in the input box.
    const result = await pasteUntilVisible(run, kickoff, {
      timeoutMs: chain.pasteTimeoutMs(),
      probes: [kickoff.slice(0, 40)],
    });
    if (!result.pasted) problem = result.reason;
    else if (!result.visible) problem = "the pasted kickoff never showed in its input box";
    else {
      await run.write(submitKey);
      run.noteInputSubmitted();
    }
  } catch (e) {
    problem = (e as Error)?.message ?? String(e);
  }
  // Once the agent is gone there is no turn to start and nobody to tell.
  if (problem !== null && !run.finished) {
    chain.undelivered(
      run.adapterName,
      `could not start ${run.adapterName}'s turn (${problem})`,
      `type "continue" to start it`,
    );
  }
}
