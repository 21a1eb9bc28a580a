/**
 * Simulated coding agents for end-to-end tests and `uuldana demo`.
 *
 * @module
 */
export { runSimAgent } from "./agent.ts";
export { installSimAgents, selfArgv } from "./install.ts";
export { readSimLog, type SimEvent } from "./log.ts";
export { PERSONA_NAMES, type PersonaName } from "./persona.ts";
