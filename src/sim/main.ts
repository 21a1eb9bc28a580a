/**
 * Stand-alone entry of the simulated agents, taking the same arguments as
 * `uuldana sim-agent PERSONA [ARGS…]` (so `selfArgv()`-style wrappers work with it too):
 * `deno run -A src/sim/main.ts sim-agent claude "hello"`.
 *
 * @module
 */
import { runSimAgent } from "./agent.ts";

if (import.meta.main) {
  const args = Deno.args[0] === "sim-agent" ? Deno.args.slice(1) : Deno.args;
  Deno.exit(await runSimAgent(args[0] ?? "", args.slice(1)));
}
