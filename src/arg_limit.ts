/**
 * The operating system's limit on one command-line argument, shared by the pty shim (which puts
 * the whole agent command in one `script -c` string) and the adapters (which put a handoff in one
 * argument).
 *
 * @module
 */

/** Largest single argv string on Linux (`MAX_ARG_STRLEN` − 1 for the NUL), in UTF-8 bytes. */
export const MAX_ARG_BYTES = 131_071;
