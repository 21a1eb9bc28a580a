/**
 * The signals uuldana names, and the exit code a shell reports for a process they ended. Pure
 * data: the pty shim and the chain's decisions read the same table.
 *
 * @module
 */

/** Signal numbers by name (Linux and the BSDs agree on these). */
export const SIGNAL_NUMBERS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGTERM: 15,
};

/** The name of signal number `n`, or null when uuldana does not name it. */
export function signalName(n: number): string | null {
  for (const [name, num] of Object.entries(SIGNAL_NUMBERS)) if (num === n) return name;
  return null;
}

/**
 * 128 + the signal's number, as a shell reports a process ended by that signal. A signal uuldana
 * does not know counts as SIGTERM (what uuldana is asked to stop with).
 */
export function signalExitCode(signal: string): number {
  return 128 + (SIGNAL_NUMBERS[signal] ?? SIGNAL_NUMBERS.SIGTERM);
}
