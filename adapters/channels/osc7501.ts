/**
 * OSC 7501, the Program Status Protocol, as an agent prints it into its output:
 * `ESC ] 7501 ; state=<state>[:app=<name>][:kind=…][:msg=<base64>] ST` (ST is `ESC \` or BEL).
 * Codex CLI 0.171.0 prints it on every TTY with no flag (verified live,
 * testdata/channels/codex-0.171.0/session/osc7501.bin): `idle` at start, `working` while a
 * turn runs, `done` then `idle` when it ends, `error` then `idle` when it ends in an error (a usage
 * limit and a server error alike), `clear` at exit. The VT parser finds the strings (whole across
 * chunks, bounded; `Terminal.onOsc`); this reads their text. Pure.
 *
 * @module
 */
import type { ChannelEvent } from "../channel.ts";

/** The longest payload kept (`state=…:app=…` is about 30 bytes; `msg` is short base64). */
export const OSC7501_MAX = 512;

/** One status report. */
export interface ProgramStatus {
  /** `idle`, `working`, `blocked`, `done`, `error` or `clear`. */
  state: string;
  /** The `app=` field, when given. */
  app?: string;
}

/** The OSC number of the Program Status Protocol. */
export const OSC7501 = 7501;

/**
 * The report in the text of an OSC 7501 string (`state=working:app=codex`), or null when it is
 * longer than {@link OSC7501_MAX} or names no plain state.
 */
export function parseProgramStatus(text: string): ProgramStatus | null {
  if (text.length > OSC7501_MAX) return null;
  const fields = new Map<string, string>();
  for (const f of text.split(":")) {
    const eq = f.indexOf("=");
    if (eq > 0) fields.set(f.slice(0, eq), f.slice(eq + 1));
  }
  const state = fields.get("state");
  if (!state || !/^[a-z]{1,16}$/.test(state)) return null;
  const app = fields.get("app");
  return { state, ...(app ? { app } : {}) };
}

/**
 * What a report says about the turn: `working` is busy; `done`, `idle` and `error` mean the turn
 * is over (an error may be a usage limit or a server error: the state does not say which, the
 * screen does). `blocked` (waiting for an approval) and `clear` say nothing of the turn.
 */
export function programStatusEvent(status: ProgramStatus): ChannelEvent | null {
  switch (status.state) {
    case "working":
      return { type: "busy" };
    case "done":
    case "idle":
    case "error":
      return { type: "idle" };
  }
  return null;
}
