/**
 * OSC 7501, the Program Status Protocol, as an agent prints it into its output:
 * `ESC ] 7501 ; state=<state>[:app=<name>][:kind=…][:msg=<base64>] ST` (ST is `ESC \` or BEL).
 * Codex CLI 0.171.0 prints it on every TTY with no flag (verified live,
 * testdata/channels/codex-0.171.0/session/osc7501.bin): `idle` at start, `working` while a
 * turn runs, `done` then `idle` when it ends, `error` then `idle` when it ends in an error (a usage
 * limit and a server error alike), `clear` at exit. A streaming reader: sequences split across
 * chunks are found whole; memory is bounded (a payload longer than {@link OSC7501_MAX} is
 * skipped); each byte is looked at once. Pure.
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

const _ESC = 0x1b;
const _BEL = 0x07;
const _PREFIX = [0x5d, 0x37, 0x35, 0x30, 0x31, 0x3b]; // "]7501;"

/** Finds OSC 7501 reports in an agent's output, chunk by chunk. */
export class Osc7501Reader {
  // 0: ground; 1: after ESC; 2..7: matching the prefix; 8: payload; 9: ESC inside the payload.
  #state = 0;
  #payload: number[] = [];
  #overflow = false;

  /** The reports completed in `chunk`, in order. */
  feed(chunk: Uint8Array): ProgramStatus[] {
    const out: ProgramStatus[] = [];
    for (const b of chunk) {
      switch (this.#state) {
        case 0:
          if (b === _ESC) this.#state = 1;
          break;
        case 8:
          if (b === _BEL) this.#end(out);
          else if (b === _ESC) this.#state = 9;
          else if (this.#payload.length < OSC7501_MAX) this.#payload.push(b);
          else this.#overflow = true;
          break;
        case 9:
          if (b === 0x5c) this.#end(out);
          else this.#state = b === _ESC ? 1 : 0; // ESC + anything else ends it, unreported
          break;
        default: {
          // 1..7: ESC, then "]7501;" byte by byte.
          const at = this.#state - 1;
          if (b === _PREFIX[at]) {
            this.#state = at + 1 === _PREFIX.length ? 8 : this.#state + 1;
            if (this.#state === 8) {
              this.#payload = [];
              this.#overflow = false;
            }
          } else this.#state = b === _ESC ? 1 : 0;
        }
      }
    }
    return out;
  }

  #end(out: ProgramStatus[]): void {
    this.#state = 0;
    if (this.#overflow) return;
    const text = String.fromCharCode(...this.#payload);
    const fields = new Map<string, string>();
    for (const f of text.split(":")) {
      const eq = f.indexOf("=");
      if (eq > 0) fields.set(f.slice(0, eq), f.slice(eq + 1));
    }
    const state = fields.get("state");
    if (!state || !/^[a-z]{1,16}$/.test(state)) return;
    const app = fields.get("app");
    out.push({ state, ...(app ? { app } : {}) });
  }
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
