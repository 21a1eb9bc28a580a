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
 * Slash commands fire no event and never wait for one: each is kept as typed, after the submits
 * still waiting before it, so the journal keeps the order they were typed in. Time is passed in;
 * no I/O. Pure.
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
  /** A slash command: it waits for no event, only for the submits before it. */
  command?: boolean;
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
  /** The turns open now, by the agent's id ("" for a turn without one). */
  readonly #open = new Set<string>();
  /** The channel was found silent (said once); it may speak again later. */
  #silent = false;
  /**
   * User turns of messages queued behind a running turn: journaled once that turn ends, after its
   * reply, so each answer follows its own turn.
   */
  #queued: TurnOutput[] = [];
  /**
   * Submits already kept as typed (their event came late: a slow or loaded agent): a prompt event
   * for one of them still opens its turn, without a second entry.
   */
  readonly #late: _Pending[] = [];

  /**
   * `ownPrompts`: the opening prompts uuldana gave the agent itself (a handoff as its argument,
   * the hook road's kickoff); `turnOpen`: the agent starts working on one at once.
   */
  constructor(opts: { ownPrompts?: readonly string[]; turnOpen?: boolean } = {}) {
    this.#own = (opts.ownPrompts ?? []).map(_squash);
    if (opts.turnOpen) this.#open.add("");
  }

  /** Whether the channel has said anything in this run. */
  get heard(): boolean {
    return this.#heard;
  }

  /** Whether a turn the user (or uuldana) started is in progress, as the channel tells it. */
  get turnOpen(): boolean {
    return this.#open.size > 0;
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
    if (this.#silent) return [...this.flush(), this.#typed({ turn, atMs })];
    this.#pending.push({ turn, atMs });
    const out: TurnOutput[] = [];
    while (this.#pending.length > PENDING_MAX) out.push(this.#typed(this.#pending.shift()!));
    return [...out, ...this.#release()];
  }

  /**
   * The user submitted a slash command at `atMs` (no event fires for it): kept as typed once the
   * submits before it are settled, at once when none waits.
   */
  command(turn: Submitted, atMs: number): TurnOutput[] {
    this.#pending.push({ turn, atMs, command: true });
    return this.#release();
  }

  /** The channel said `event` at `atMs`. */
  event(event: ChannelEvent, atMs: number): TurnOutput[] {
    this.#heard = true;
    this.#silent = false;
    switch (event.type) {
      case "prompt":
        return this.#prompt(event.text, atMs, event.turn ?? "");
      case "reply":
        if (this.#open.size === 0) {
          return [{ kind: "ignored", event: "reply", why: "no turn uuldana saw start was open" }];
        }
        return [{ kind: "entry", entry: { role: "agent", text: event.text, fidelity: "event" } }];
      case "idle":
        // A turn's end closes that turn (and one that started without an id, the opening one).
        if (event.turn === undefined) this.#open.clear();
        else {
          this.#open.delete(event.turn);
          this.#open.delete("");
        }
        return this.#queued.splice(0);
      default:
        return [];
    }
  }

  /**
   * Time passed: submits that waited long enough are kept as typed — all of them at once when the
   * channel turns out silent (each would wait in vain; their order is kept).
   */
  tick(atMs: number): TurnOutput[] {
    const first = this.#pending[0];
    if (!this.#heard && first && atMs - first.atMs >= PROMPT_WAIT_MS && !this.#silent) {
      this.#silent = true;
      return [
        { kind: "silent", why: `no event came ${PROMPT_WAIT_MS / 1000} s after a submit` },
        ...this.flush(),
      ];
    }
    const out: TurnOutput[] = [];
    while (this.#pending.length) {
      const p = this.#pending[0];
      const limit = this.#heard ? PENDING_MAX_MS : PROMPT_WAIT_MS;
      if (atMs - p.atMs < limit) break;
      out.push(this.#typed(this.#pending.shift()!), ...this.#release());
    }
    return out;
  }

  /** The run is over (or handing off): every waiting submit is kept as typed. */
  flush(): TurnOutput[] {
    return [...this.#queued.splice(0), ...this.#pending.splice(0).map((p) => this.#typed(p))];
  }

  // The submit a prompt event answers: the oldest waiting one with the same text, else the oldest
  // one whose keys were not exact (the event is surer than they are). Submits before it never
  // reached the model as turns (an answer typed into a dialog): they are kept as typed.
  #prompt(text: string, atMs: number, turn: string): TurnOutput[] {
    const want = _squash(text);
    let at = this.#pending.findIndex((p) => !p.command && _squash(p.turn.text) === want);
    if (at < 0) at = this.#pending.findIndex((p) => !p.command && p.turn.certainty !== "exact");
    if (at >= 0 && this.#pending[at].atMs <= atMs) {
      const before = this.#pending.splice(0, at + 1);
      before.pop();
      const out: TurnOutput[] = [
        ...before.map((p) => this.#typed(p)),
        { kind: "entry", entry: { role: "user", text, fidelity: "event", certainty: "exact" } },
        ...this.#release(),
      ];
      // Queued behind a turn still running (another id): its entry waits for that turn's reply.
      const behind = turn !== "" && [...this.#open].some((t) => t !== "" && t !== turn);
      this.#open.add(turn);
      if (behind) {
        this.#queued.push(...out);
        return [];
      }
      return out;
    }
    const own = this.#own.indexOf(want);
    if (own >= 0) {
      this.#own.splice(own, 1);
      this.#open.add(turn);
      return [];
    }
    const late = this.#late.findIndex((p) =>
      p.atMs <= atMs && atMs - p.atMs < PENDING_MAX_MS &&
      (_squash(p.turn.text) === want || p.turn.certainty !== "exact")
    );
    if (late >= 0) {
      this.#late.splice(0, late + 1);
      this.#open.add(turn);
      return [];
    }
    const last = this.#pending.findLast((p) => !p.command);
    if (last) return [{ kind: "differs", typed: last.turn.text, received: text }];
    return [{ kind: "ignored", event: "prompt", why: "uuldana saw no submit for it" }];
  }

  // The slash commands now at the head of the queue: nothing before them waits any more.
  #release(): TurnOutput[] {
    const out: TurnOutput[] = [];
    while (this.#pending[0]?.command) out.push(this.#typed(this.#pending.shift()!));
    return out;
  }

  #typed(p: _Pending): TurnOutput {
    if (!p.command) this.#late.push(p);
    if (this.#late.length > PENDING_MAX) this.#late.shift();
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
