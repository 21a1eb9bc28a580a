/**
 * `uuldana sim-agent PERSONA [ARGS…]` (hidden): runs a simulated agent for tests and the demo.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { runSimAgent } from "../sim/agent.ts";

/** The hidden `sim-agent` command; add it with `{ hidden: true }`. */
export function simAgentCommand() {
  return new Command("sim-agent")
    .description("run a simulated agent (for tests and the demo)")
    .usage("PERSONA [ARGS…]")
    .argument("<persona>", "claude, codex, gemini, opencode, qwen or copilot")
    .argument("[args...]", "arguments for the simulated agent, passed through untouched")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .passThroughOptions()
    .action(async (persona: string, args: string[]) => {
      // Exit here: the agent's own exit code must reach the caller, and a pending stdin read
      // must not keep the process alive.
      Deno.exit(await runSimAgent(persona, args));
    });
}
