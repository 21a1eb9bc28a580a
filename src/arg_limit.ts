/**
 * The operating system's limit on one command-line argument, shared by the pty shim (which passes
 * each of the agent's arguments in one environment string, the same limit) and the adapters
 * (which put a handoff in one argument).
 *
 * @module
 */

/** Largest single argv string on Linux (`MAX_ARG_STRLEN` − 1 for the NUL), in UTF-8 bytes. */
export const MAX_ARG_BYTES = 131_071;
