/**
 * The conversation of a run whose agent speaks through a channel: the exact text of each user turn
 * from the agent's `prompt` event and each turn's answer from its `reply` event, in place of what
 * the keys and the screen reconstruct. The channel's folder is reachable by every process the
 * agent runs, so nothing it says is taken on its word alone:
 *
 * - a `prompt` becomes a user turn only when uuldana saw the user submit it just before: a submit
 *   still waiting for its event, with the same text, or whose keys were not exact (history
 *   recall, completion: the event is surer than they are) — or it is the opening prompt uuldana
 *   itself gave, which opens the turn but is not the user's; any other `prompt` is ignored and
 *   said (when the keys were exact and say something else, the keys are kept, the difference
 *   said);
 * - a `reply` counts only inside a turn that such a prompt opened (until `idle`);
 * - a submit whose event never comes is kept as typed: at once when the channel has said nothing
 *   at all within {@link PROMPT_WAIT_MS} (it is off), otherwise when the run ends or when it has
 *   waited {@link PENDING_MAX_MS} (a message queued behind a long turn).
 *
 * Slash commands fire no event and never wait here. Time is passed in; no I/O. Pure.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";
import type { Certainty, Submitted } from "./reconcile.ts";

/** How long a submit waits for its `prompt` event while the channel has said nothing yet. */
export const PROMPT_WAIT_MS = 4_000;
/** How long a submit waits for its `prompt` event at most, once the channel is known to speak. */
export const PENDING_MAX_MS = 10 * 60_000;
/** Submits waiting at most; an older one is kept as typed when more come. */
export const PENDING_MAX = 16;

/** A journal entry the conversation decided on. */
export interface TurnEntry {
  role: "user" | "agent";
  text: string;
  fidelity: "keystrokes" | "event";
  certainty?: Certainty;
}

/** What the shell does with a step's outcome: journal an entry, or note (count, say) a refusal. */
export type TurnOutput =
  | { kind: "entry"; entry: TurnEntry }
  | { kind: "ignored"; event: "prompt" | "reply"; why: string }
  | { kind: "differs"; typed: string; received: string }
  | { kind: "silent"; why: string };

interface _Pending {
  turn: Submitted;
  atMs: number;
}

// What the keys and the event can be compared on: whitespace aside.
function _squash(s: string): string {
  return s.replace(/\s+/g, "");
}

/** One run's channel conversation. */
export class ChannelTurns {
  readonly #pending: _Pending[] = [];
  readonly #own: string[];
  #heard = false;
  #open: boolean;
  /** The channel was found silent (said once); it may speak again later. */
  #silent = false;

  /**
   * `ownPrompts`: the opening prompts uuldana gave the agent itself (a handoff as its argument,
   * the hook road's kickoff); `turnOpen`: the agent starts working on one at once.
   */
  constructor(opts: { ownPrompts?: readonly string[]; turnOpen?: boolean } = {}) {
    this.#own = (opts.ownPrompts ?? []).map(_squash);
    this.#open = opts.turnOpen ?? false;
  }

  /** Whether the channel has said anything in this run. */
  get heard(): boolean {
    return this.#heard;
  }

  /** Whether a turn the user (or uuldana) started is in progress, as the channel tells it. */
  get turnOpen(): boolean {
    return this.#open;
  }

  /** How many submits wait for their event. */
  get waiting(): number {
    return this.#pending.length;
  }

  /** Whether the channel was found silent and has said nothing since. */
  get silent(): boolean {
    return this.#silent;
  }

  /**
   * The user submitted `turn` (not a slash command) at `atMs`: it waits for its `prompt` event, or
   * is kept as typed at once when the channel was found silent.
   */
  submit(turn: Submitted, atMs: number): TurnOutput[] {
    if (this.#silent) return [this.#typed({ turn, atMs })];
    this.#pending.push({ turn, atMs });
    const out: TurnOutput[] = [];
    while (this.#pending.length > PENDING_MAX) out.push(this.#typed(this.#pending.shift()!));
    return out;
  }

  /** The channel said `event` at `atMs`. */
  event(event: ChannelEvent, atMs: number): TurnOutput[] {
    this.#heard = true;
    this.#silent = false;
    switch (event.type) {
      case "prompt":
        return this.#prompt(event.text, atMs);
      case "reply":
        if (!this.#open) {
          return [{ kind: "ignored", event: "reply", why: "no turn uuldana saw start was open" }];
        }
        return [{ kind: "entry", entry: { role: "agent", text: event.text, fidelity: "event" } }];
      case "idle":
        this.#open = false;
        return [];
      default:
        return [];
    }
  }

  /** Time passed: submits that waited long enough are kept as typed. */
  tick(atMs: number): TurnOutput[] {
    const out: TurnOutput[] = [];
    const first = this.#pending[0];
    if (!this.#heard && first && atMs - first.atMs >= PROMPT_WAIT_MS && !this.#silent) {
      this.#silent = true;
      out.push({
        kind: "silent",
        why: `no event came ${PROMPT_WAIT_MS / 1000} s after a submit`,
      });
    }
    while (this.#pending.length) {
      const p = this.#pending[0];
      const limit = this.#heard ? PENDING_MAX_MS : PROMPT_WAIT_MS;
      if (atMs - p.atMs < limit) break;
      out.push(this.#typed(this.#pending.shift()!));
    }
    return out;
  }

  /** The run is over (or handing off): every waiting submit is kept as typed. */
  flush(): TurnOutput[] {
    return this.#pending.splice(0).map((p) => this.#typed(p));
  }

  // The submit a prompt event answers: the oldest waiting one with the same text, else the oldest
  // one whose keys were not exact (the event is surer than they are). Submits before it never
  // reached the model as turns (an answer typed into a dialog): they are kept as typed.
  #prompt(text: string, atMs: number): TurnOutput[] {
    const want = _squash(text);
    let at = this.#pending.findIndex((p) => _squash(p.turn.text) === want);
    if (at < 0) at = this.#pending.findIndex((p) => p.turn.certainty !== "exact");
    if (at >= 0 && this.#pending[at].atMs <= atMs) {
      const before = this.#pending.splice(0, at + 1);
      before.pop();
      this.#open = true;
      return [
        ...before.map((p) => this.#typed(p)),
        { kind: "entry", entry: { role: "user", text, fidelity: "event", certainty: "exact" } },
      ];
    }
    const own = this.#own.indexOf(want);
    if (own >= 0) {
      this.#own.splice(own, 1);
      this.#open = true;
      return [];
    }
    const last = this.#pending.at(-1);
    if (last) return [{ kind: "differs", typed: last.turn.text, received: text }];
    return [{ kind: "ignored", event: "prompt", why: "uuldana saw no submit for it" }];
  }

  #typed(p: _Pending): TurnOutput {
    return {
      kind: "entry",
      entry: {
        role: "user",
        text: p.turn.text,
        fidelity: "keystrokes",
        certainty: p.turn.certainty,
      },
    };
  }
}
