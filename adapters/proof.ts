/**
 * Initial-prompt proof: the documented help line, matched on the binary's real `--help` text. Pure.
 *
 * @module
 */
import type { Proof } from "./adapter.ts";

// deno-lint-ignore no-control-regex
const _ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/**
 * Proves an initial prompt when a line of `helpText` (ANSI stripped) matches one of `patterns`;
 * `what` names the expected line in the refusal reason.
 */
export function proveByHelpLine(
  helpText: string,
  patterns: readonly RegExp[],
  what: string,
): Proof {
  const lines = helpText.replace(_ANSI, "").split(/\r?\n/);
  for (const re of patterns) {
    const line = lines.find((l) => re.test(l));
    if (line !== undefined) return { accepted: true, line: line.trim() };
  }
  return {
    accepted: false,
    line: null,
    reason: `its --help does not show ${what}; unknown version, wrapper script or changed flag`,
  };
}

/**
 * An adapter's `proveInitialPrompt` for a CLI whose `--help` documents the initial prompt on one
 * line: `pattern` finds it, `line` is how the refusal names it.
 */
export function helpLineProof(pattern: RegExp, line: string): (helpText: string) => Proof {
  return (helpText) => proveByHelpLine(helpText, [pattern], `'${line}'`);
}

/** The proof of an agent whose CLI has no interactive initial prompt (the paste road only). */
export function noInitialPrompt(agent: string): Proof {
  return {
    accepted: false,
    line: null,
    reason: `${agent} has no interactive initial prompt; it takes a handoff by paste only`,
  };
}
