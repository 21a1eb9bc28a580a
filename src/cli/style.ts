/**
 * Small helpers for human output: colour only when both stdout and stderr are terminals (the same
 * helpers write to either, and a redirected report must not carry escape codes), and never when
 * NO_COLOR is set.
 *
 * @module
 */

function _colorEnabled(): boolean {
  if (Deno.env.get("NO_COLOR")) return false;
  try {
    return Deno.stdout.isTerminal() && Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

const _enabled = _colorEnabled();

function _wrap(open: number, close: number): (s: string) => string {
  return (s) => (_enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
}

/** Bold text. */
export const bold: (s: string) => string = _wrap(1, 22);
/** Dimmed text. */
export const dim: (s: string) => string = _wrap(2, 22);
/** Red text, for errors. */
export const red: (s: string) => string = _wrap(31, 39);
/** Green text, for success. */
export const green: (s: string) => string = _wrap(32, 39);
/** Yellow text, for warnings. */
export const yellow: (s: string) => string = _wrap(33, 39);

/** Writes one status line to stderr, prefixed with "uuldana:". */
export function status(line: string): void {
  console.error(`${dim("uuldana:")} ${line}`);
}
