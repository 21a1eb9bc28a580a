/**
 * Error types that carry the process exit code. Expected failures are `UuldanaError`s: the CLI
 * prints their message on one line (no stack trace unless UULDANA_DEBUG=1) and exits with `code`.
 *
 * @module
 */

/** Exit codes used across uuldana. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  allLimited: 3,
  notFound: 127,
} as const;

/** An expected failure with a message for the user and an exit code. */
export class UuldanaError extends Error {
  /** Process exit code for this failure. */
  readonly code: number;
  /** Optional second line telling the user what to do. */
  readonly hint?: string;

  constructor(message: string, code: number = ExitCode.failure, hint?: string) {
    super(message);
    this.name = "UuldanaError";
    this.code = code;
    this.hint = hint;
  }
}

/** Bad command-line usage or an invalid configuration file (exit 2). */
export class UsageError extends UuldanaError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
    this.name = "UsageError";
  }
}

/** An agent binary or another needed program is missing (exit 127). */
export class NotFoundError extends UuldanaError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.notFound, hint);
    this.name = "NotFoundError";
  }
}

/** Ends the program with `code` without printing anything (the agent already said it all). */
export class ExitWith extends UuldanaError {
  constructor(code: number) {
    super("", code);
    this.name = "ExitWith";
  }
}
