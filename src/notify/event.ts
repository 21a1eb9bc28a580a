/**
 * What uuldana tells the user about while they may not be looking, and how a terminal is told.
 * Pure: `notifier.ts` writes the bytes and runs the configured command.
 *
 * @module
 */
import osc777 from "./osc777_terminals.json" with { type: "json" };

/** Something the user should know about even when not looking. */
export type NotifyEvent =
  /** An automatic handoff: `from` stopped (a limit, a stall) and `to` took the work. */
  | { kind: "switch"; from: string; to: string; why: string }
  /** Every agent is limited: uuldana waits for `agent`'s reset at `until` (ISO-8601). */
  | { kind: "wait"; agent: string; until: string }
  /** The chain's first agent can take the work back. */
  | { kind: "available"; agent: string }
  /** The work went back to the chain's first agent. */
  | { kind: "return"; from: string; to: string }
  /**
   * What uuldana had to give a running agent (a handoff's paste, the kickoff of its turn) did not
   * reach it: `why` (naming the agent), and what the user can do (`todo`). Said now, beside the agent's screen, and
   * on the status line once the agent is gone.
   */
  | { kind: "undelivered"; agent: string; why: string; todo: string };

/** The one line a notification shows. */
export function notifyText(event: NotifyEvent): string {
  switch (event.kind) {
    case "switch":
      return `${event.from} → ${event.to}: ${event.why}`;
    case "wait":
      return `every agent is limited; waiting for ${event.agent} (resets ${event.until})`;
    case "available":
      return `${event.agent} is available again`;
    case "return":
      return `${event.from} → ${event.to}: ${event.to} is available again`;
    case "undelivered":
      return `${event.why}; ${event.todo}`;
  }
}

/** Whether the terminal described by `env` is known to show OSC 777 notifications. */
export function takesOsc777(env: (name: string) => string | undefined): boolean {
  const program = env("TERM_PROGRAM") ?? "";
  const term = env("TERM") ?? "";
  return osc777.termPrograms.includes(program) ||
    osc777.termPrefixes.some((p: string) => term.startsWith(p));
}

// Text from an agent's screen must not end the sequence early or start another one.
function _plain(text: string, max = 200): string {
  // deno-lint-ignore no-control-regex
  const one = text.replace(/[\x00-\x1f\x7f-\x9f;]+/g, " ").replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}

/**
 * The bytes for the user's terminal: the bell, then a desktop notification (OSC 9, or OSC 777
 * where the terminal is known to take it). Either may be off.
 */
export function terminalNotification(
  event: NotifyEvent,
  opts: { bell: boolean; desktop: boolean; osc777: boolean },
): string {
  const text = _plain(`uuldana: ${notifyText(event)}`);
  const desktop = !opts.desktop
    ? ""
    : opts.osc777
    ? `\x1b]777;notify;uuldana;${_plain(notifyText(event))}\x1b\\`
    : `\x1b]9;${text}\x1b\\`;
  return `${opts.bell ? "\x07" : ""}${desktop}`;
}
