/**
 * The channel rules of a run's detection: how what the agent's structured channel says (issue 20)
 * is weighed against its screen. The {@link Detector} owns the screen, the clock and the decision
 * log; it hands each channel event here and asks these rules before it acts on a limit the screen
 * confirmed. The channel's folder is reachable by every process the agent runs, so it is heard,
 * not obeyed:
 * - a limit the agent reports is acted on at once when the screen shows a limit too; when the
 *   screen shows none, once the agent stopped working (it has not drawn for {@link WORKING_MS}
 *   and its screen shows no working row, `Adapter.workingRow`) inside a turn uuldana saw start,
 *   {@link SCREEN_WORD_MS} after the report (a `disagree` record keeps the
 *   screen: a limit screen this uuldana does not know); a report while the agent keeps drawing, or
 *   outside any turn, waits for the screen to back it and is rejected after
 *   {@link CHANNEL_HOLD_MS};
 * - while a channel that reports limits speaks, an `error` it reported for the turn (not a limit:
 *   overload, server error) vetoes a limit the screen confirmed (`disagree`); a rate limit the
 *   screen confirmed (a rejected request may be a throttle) waits up to {@link CHANNEL_WORD_MS}
 *   for the channel's word: its report acts at once, its error vetoes, its silence lets the
 *   screen act; a usage limit in the agent's own words acts at once;
 * - a report of the provider's own error (it carries the provider's code) while the screen shows
 *   the agent's waiting row (`Adapter.waitingRow`, Copilot's `◉ Working`, pi's `⠋ Working...`)
 *   and nothing but that row has changed for {@link SCREEN_WORD_MS} acts: the agent waits on its
 *   model (it retries the error), no tool is at work. Those 500 ms are counted from the screen's
 *   last change before the report as well as after it (every look of the Detector's keeps when it
 *   last changed, {@link ChannelRules.looked}), so a report after a quiet half second acts at once;
 * - such a report that came while no turn was open (a call the agent makes between turns met the
 *   provider's limit) never acts alone; it is held, and acts when the next turn uuldana sees start
 *   opens (that turn's first call meets the same limit; nothing of the turn has run yet);
 * - a channel report not worth a handoff by the policy (a rate limit still retried) is rejected,
 *   and it is the channel's word on the screen's rate limit at that attempt or an earlier one: the
 *   agent said it retries (OpenCode's and Kilo's `session.status` retry carries its wait, which
 *   their footer loses when it wraps: `[retrying in 1` / `#3]`), so the screen's is rejected too;
 * - a report of an error the agent retries without end (`LimitHit.endless`: Gemini's capacity
 *   loop) is weighed by the retry-loop rule (retry_loop.ts): it acts once nothing but the agent's
 *   waiting row has moved for `retryLoopSeconds` since the report.
 *
 * Pure: times are integer microseconds passed in, as in the Detector.
 *
 * @module
 */
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";
import { BUSY_ROW } from "../../adapters/screen_text.ts";
import type { Terminal } from "../vt/mod.ts";
import { limitKey } from "./confirm.ts";
import type { Decision, Verdict } from "./decision.ts";
import { RetryLoop, type RetryLoopNews, type RetryLoopWatch } from "./retry_loop.ts";
import { earliest, microseconds as _us } from "./timed_input.ts";

/** Output this recent means the agent is still drawing: working, not stopped on a limit. */
export const WORKING_MS = 300;
/**
 * A screen that differs for less than this and then shows what it showed before was a frame drawn
 * in pieces, not a change (Qwen 0.24.4 repaints its whole screen; at load 8 a repaint's pieces
 * came up to 10 ms apart).
 */
export const FRAME_MS = 100;
/** How long a limit the agent reported waits for its screen to show it before acting alone. */
export const SCREEN_WORD_MS = 500;
/** How long a screen rate limit waits for the word of a channel that reports limits. */
export const CHANNEL_WORD_MS = 1_000;
/** How long a reported limit the screen does not back (agent drawing, no turn) waits, at most. */
export const CHANNEL_HOLD_MS = 10_000;
// How often a held channel limit is checked against the screen.
const _CHECK_US = 100_000;
const _ONLY_WAITING =
  `the agent is retrying the provider's error: only its waiting row moved for ${SCREEN_WORD_MS} ms`;

type ChannelError = Extract<ChannelEvent, { type: "error" }>;

/** What the rules read of the run and do to it: the {@link Detector}'s side. */
export interface ChannelRulesHost {
  readonly adapter: Adapter;
  /** The run's screen model (read only). */
  readonly terminal: Terminal;
  /** Output bytes read so far. */
  offset(): number;
  /** When the agent last wrote (µs). */
  lastOutputUs(): number;
  /** The agent's own status says it works (`Adapter.programStatus`; false: it says not, or none). */
  statusWorking(): boolean;
  /** The limit the screen shows at `t` (µs), worth a handoff or not, or null. */
  screenLimit(t: number): LimitHit | null;
  /** Whether a limit is worth a handoff. */
  handOff(hit: LimitHit): boolean;
  /** The screen's last lines with text (what a `disagree` record keeps). */
  lastLines(): string[];
  /** Appends a decision record. */
  record(decision: Decision): void;
  /** Ends the run on `hit` at `atMs`. */
  reach(hit: LimitHit, atMs: number): Verdict;
  /** The retry-loop rule's threshold in seconds (0: off). */
  readonly retryLoopSeconds: number;
}

/** A limit the agent reported that the screen has not backed yet. */
export interface ReportedLimit {
  hit: LimitHit;
  sinceUs: number;
  inTurn: boolean;
  /**
   * A report of the provider's own error (one with its code): it may act once only the agent's
   * waiting row (`Adapter.waitingRow`) moves: the agent retrying that error changes nothing else.
   */
  provider: boolean;
  /**
   * Reported of the provider's own error while no turn was open (a background call of the
   * agent's met the quota): it acts when the next turn uuldana sees start opens.
   */
  adopt?: boolean;
}

/** What {@link ChannelRules} hold, as JSON data. */
export interface ChannelRulesState {
  heard: boolean;
  turns: string[];
  notLimit: ChannelError | null;
  reported: ReportedLimit | null;
  held: { hit: LimitHit; sinceUs: number } | null;
  vetoed: string | null;
  retrying: number | null;
  retryRejected: string;
  dueUs: number | null;
  still: { screen: string | null; sinceUs: number };
  passing: { screen: string | null; sinceUs: number } | null;
  loop: RetryLoopWatch | null;
}

/** One run's channel rules. See the module documentation. */
export class ChannelRules {
  readonly #host: ChannelRulesHost;
  /** The agent's channel has spoken in this run. */
  #heard = false;
  /** The turns uuldana saw start that are open, as the channel tells them (prompt/busy … idle). */
  readonly #turns = new Set<string>();
  /** The channel called this turn's failure an error, not a limit (until the next turn). */
  #notLimit: ChannelError | null = null;
  /** A limit the agent reported that the screen has not backed yet. */
  #reported: ReportedLimit | null = null;
  /** A limit the screen confirmed, waiting for the channel's word. */
  #held: { hit: LimitHit; sinceUs: number } | null = null;
  /** A screen limit the channel vetoed: not acted on while it stays. */
  #vetoed: string | null = null;
  /** The highest attempt of a rate limit the channel reported as still retried, or null. */
  #retrying: number | null = null;
  /** The screen rate limit (key and attempt) last rejected on that word: recorded once. */
  #retryRejected = "";
  /** When the held or reported limit is looked at again (µs), or null. */
  #dueUs: number | null = null;
  /**
   * The screen without the agent's waiting row as last looked at, and since when it has been so
   * (µs); only for an adapter with a `waitingRow`.
   */
  #still: { screen: string | null; sinceUs: number } = { screen: null, sinceUs: 0 };
  /**
   * A different screen seen since, not yet settled (first seen at `sinceUs`): it becomes the
   * screen above once it has stayed {@link FRAME_MS}; gone back to that screen before, it was a
   * frame drawn in pieces (Qwen repaints its whole screen, a piece per write on a loaded
   * machine), not a change.
   */
  #passing: { screen: string | null; sinceUs: number } | null = null;
  /** An error the agent retries without end, watched until something else happens. */
  readonly #loop: RetryLoop;

  constructor(host: ChannelRulesHost) {
    this.#host = host;
    this.#loop = new RetryLoop(host.retryLoopSeconds, host.adapter.waitingRow);
  }

  /** What the rules hold, as JSON data (a detector's saved state, detector_state.ts). */
  save(): ChannelRulesState {
    return structuredClone({
      heard: this.#heard,
      turns: [...this.#turns],
      notLimit: this.#notLimit,
      reported: this.#reported,
      held: this.#held,
      vetoed: this.#vetoed,
      retrying: this.#retrying,
      retryRejected: this.#retryRejected,
      dueUs: this.#dueUs,
      still: this.#still,
      passing: this.#passing,
      loop: this.#loop.save(),
    });
  }

  /** Puts back what {@link save} returned (on new rules). */
  restore(state: ChannelRulesState): void {
    const s = structuredClone(state);
    this.#heard = s.heard;
    for (const turn of s.turns) this.#turns.add(turn);
    this.#notLimit = s.notLimit;
    this.#reported = s.reported;
    this.#held = s.held;
    this.#vetoed = s.vetoed;
    this.#retrying = s.retrying;
    this.#retryRejected = s.retryRejected;
    this.#dueUs = s.dueUs;
    this.#still = s.still;
    this.#passing = s.passing ?? null;
    this.#loop.restore(s.loop ?? null);
  }

  /** When {@link weigh} is due (µs), or null. */
  get dueUs(): number | null {
    return earliest(this.#dueUs, this.#loop.dueUs);
  }

  /** A limit the agent reported waits for the screen. */
  get reported(): boolean {
    return this.#reported !== null;
  }

  /** A limit the agent reported inside a turn uuldana saw start waits for the screen. */
  get reportedInTurn(): boolean {
    return this.#reported?.inTurn ?? false;
  }

  /** The Detector looked at the screen (`lines`) at `t` (µs): when its waiting row alone moves. */
  looked(t: number, lines: readonly string[]): void {
    this.#stillAt(t, lines);
    this.#loopNews(this.#loop.looked(t, lines), t);
  }

  /** No more looks: nothing is due. */
  cancel(): void {
    this.#dueUs = null;
    this.#loop.cancel();
  }

  /** The channel said `event` at `t` (µs; already recorded). */
  hear(event: ChannelEvent, t: number): Verdict | null {
    this.#heard = true;
    switch (event.type) {
      case "prompt":
      case "busy":
        this.#turns.add(event.turn ?? "");
        this.#notLimit = null;
        this.#vetoed = null;
        // A new turn's retries are its own (OpenCode says busy again with each retry: not then).
        if (event.type === "prompt") this.#retrying = null;
        return this.#adoptReport(t);
      case "idle":
        if (event.turn === undefined) this.#turns.clear();
        else this.#turns.delete(event.turn);
        this.#retrying = null;
        return null;
      case "error":
        this.#notLimit = event;
        if (this.#held) {
          const hit = this.#held.hit;
          this.#held = null;
          this.#vetoed = limitKey(hit);
          this.#rejectScreen(hit, t / 1000, event);
        }
        return null;
      case "limit":
        return this.#reportedLimit(event, t);
    }
    return null;
  }

  /**
   * Whether a limit the screen confirmed waits for the channel's word instead of acting now: a
   * channel that reports limits speaks in this run and called this turn's failure an error (it
   * never acts then), or the screen's limit is a rate limit (a rejected request may be a server's
   * throttle: the channel tells) and the channel has not said yet. A usage limit in the agent's
   * own words acts at once: Claude runs its StopFailure hook ~0.75 s after drawing it.
   */
  awaitsWord(hit: LimitHit, t: number): boolean {
    if (!this.#heard || !this.#host.adapter.channel?.reportsLimits) return false;
    const key = limitKey(hit);
    if (this.#vetoed === key) return true;
    if (this.#notLimit) {
      this.#vetoed = key;
      this.#rejectScreen(hit, t / 1000, this.#notLimit);
      return true;
    }
    if (hit.kind === "usage") return false;
    if (this.#retriedPast(hit)) {
      this.#rejectRetried(hit, t / 1000);
      return true;
    }
    if (this.#held && limitKey(this.#held.hit) === key) return true;
    this.#held = { hit, sinceUs: t };
    this.#dueUs = earliest(this.#dueUs, t + _us(CHANNEL_WORD_MS));
    this.#host.record({
      atMs: t / 1000,
      offset: this.#host.offset(),
      source: "screen",
      verdict: "waiting",
      hit,
      retryInMs: CHANNEL_WORD_MS,
      why: "waiting for the agent's channel to report it",
    });
    return true;
  }

  /** The screen's limit is acted on: none is held for the channel's word any more. */
  screenActed(): void {
    this.#held = null;
  }

  /** The held screen limit, or the reported one, looked at again at `t` (µs), when due. */
  weigh(t: number): Verdict | null {
    this.#dueUs = null;
    const atMs = t / 1000;
    const offset = this.#host.offset();
    const looping = this.#loopNews(
      this.#loop.due(t, this.#host.terminal.logicalScreenLines()),
      t,
    );
    if (looping) return looping;
    if (this.#held && t - this.#held.sinceUs >= _us(CHANNEL_WORD_MS)) {
      const hit = this.#held.hit;
      this.#held = null;
      this.#host.record({
        atMs,
        offset,
        source: "screen",
        verdict: "acted",
        hit,
        why: "the agent's channel said nothing about it",
      });
      return this.#host.reach(hit, atMs);
    }
    if (this.#held) {
      this.#dueUs = earliest(this.#dueUs, this.#held.sinceUs + _us(CHANNEL_WORD_MS));
    }
    const r = this.#reported;
    if (!r) return null;
    if (this.#host.screenLimit(t)) return this.actOnReport(t, "its screen shows a limit too");
    if (r.inTurn && !this.#working(t) && t - r.sinceUs >= _us(SCREEN_WORD_MS)) {
      this.#host.record({
        atMs,
        offset,
        source: "channel",
        verdict: "disagree",
        hit: r.hit,
        why: "the agent reported a limit its screen reader does not see",
        lines: this.#host.lastLines(),
      });
      return this.actOnReport(t, "the agent stopped drawing after reporting it");
    }
    // Copilot animates its waiting row while it retries the provider's quota error, a minute
    // and more before its screen says so (pi while its SDK retries): that redraw alone is not
    // the agent at work.
    if (this.#onlyWaiting(t)) return this.actOnReport(t, _ONLY_WAITING);
    if (t - r.sinceUs >= _us(CHANNEL_HOLD_MS)) {
      this.#reported = null;
      this.#host.record({
        atMs,
        offset,
        source: "channel",
        verdict: "rejected",
        hit: r.hit,
        why: r.inTurn
          ? `its screen showed the agent still working ${CHANNEL_HOLD_MS / 1000} s after it`
          : `no turn uuldana saw start was open, and its screen showed no limit in ${
            CHANNEL_HOLD_MS / 1000
          } s`,
      });
      return null;
    }
    this.#dueUs = earliest(this.#dueUs, t + _CHECK_US);
    return null;
  }

  /** Acts on the limit the agent reported, at `t` (µs), for the reason `why`. */
  actOnReport(t: number, why: string): Verdict {
    const hit = this.#reported!.hit;
    const atMs = t / 1000;
    this.#reported = null;
    this.#held = null;
    this.#host.record({
      atMs,
      offset: this.#host.offset(),
      source: "channel",
      verdict: "acted",
      hit,
      why,
    });
    return this.#host.reach(hit, atMs);
  }

  // The screen's rate limit is at an attempt the channel already said the agent retries.
  #retriedPast(hit: LimitHit): boolean {
    return hit.kind === "rate" && !hit.final && hit.attempt !== undefined &&
      this.#retrying !== null && hit.attempt <= this.#retrying;
  }

  // Rejects the screen's rate limit on the channel's word, once per attempt.
  #rejectRetried(hit: LimitHit, atMs: number): void {
    const seen = `${limitKey(hit)} #${hit.attempt}`;
    if (this.#retryRejected === seen) return;
    this.#retryRejected = seen;
    this.#host.record({
      atMs,
      offset: this.#host.offset(),
      source: "screen",
      verdict: "rejected",
      hit,
      why: `the agent's channel says it retries this rate limit (attempt ${this.#retrying}): ` +
        "not worth a handoff yet",
    });
  }

  // The screen's limit, rejected because the channel called the turn's failure an error.
  #rejectScreen(hit: LimitHit, atMs: number, error: ChannelError): void {
    const said = error.code ? `${error.code}: ${error.message}` : error.message;
    const at = { atMs, offset: this.#host.offset(), hit };
    this.#host.record({
      ...at,
      source: "screen",
      verdict: "rejected",
      why: `the agent's channel called this an error, not a limit (${said})`,
    });
    this.#host.record({
      ...at,
      source: "channel",
      verdict: "disagree",
      why: `the screen shows a limit the agent's channel calls an error (${said})`,
      lines: this.#host.lastLines(),
    });
  }

  // Records what the retry-loop rule says at `t` (µs); its verdict when the loop acts.
  #loopNews(news: RetryLoopNews | null, t: number): Verdict | null {
    if (!news) return null;
    const at = { atMs: t / 1000, offset: this.#host.offset(), source: "channel" as const };
    const seconds = this.#host.retryLoopSeconds;
    switch (news.type) {
      case "watching":
        this.#host.record({
          ...at,
          verdict: "waiting",
          hit: news.hit,
          retryInMs: seconds * 1000,
          why: `an error the agent retries without end: handed off if nothing but its waiting ` +
            `row moves for ${seconds} s (retryLoopSeconds)`,
        });
        return null;
      case "went-on":
        this.#host.record({ ...at, verdict: "rejected", hit: news.hit, why: news.why });
        return null;
      case "looping":
        this.#host.record({
          ...at,
          verdict: "acted",
          hit: news.hit,
          why: `the agent retried it ${news.seconds} s with nothing else on its screen ` +
            "(retryLoopSeconds): the work stands still",
        });
        return this.#host.reach(news.hit, t / 1000);
    }
  }

  // A limit the agent reported at `t` (µs).
  #reportedLimit(event: Extract<ChannelEvent, { type: "limit" }>, t: number): Verdict | null {
    const { type: _type, status: _status, code: _code, turn: _turn, ...hit } = event;
    const atMs = t / 1000;
    const at = { atMs, offset: this.#host.offset(), source: "channel" as const, hit };
    // An endless retry is the retry-loop rule's, whatever wait or attempt it states.
    const loop = this.#loop.heard(hit, t, this.#host.terminal.logicalScreenLines());
    if (loop || (hit.endless && this.#loop.watching)) return this.#loopNews(loop, t);
    if (!this.#host.handOff(hit)) {
      this.#host.record({
        ...at,
        verdict: "rejected",
        why: "a transient rate limit the agent is still retrying: not worth a handoff yet",
      });
      if (hit.kind === "rate" && hit.attempt !== undefined) {
        this.#retrying = Math.max(this.#retrying ?? 0, hit.attempt);
        // A screen rate limit held for the channel's word has it now.
        if (this.#held && this.#retriedPast(this.#held.hit)) {
          const held = this.#held.hit;
          this.#held = null;
          this.#rejectRetried(held, atMs);
        }
      }
      return null;
    }
    const provider = event.code !== undefined;
    if (provider) this.#stillAt(t);
    const inTurn = this.#turns.size > 0;
    this.#reported = {
      hit,
      sinceUs: t,
      inTurn,
      provider,
      ...(!inTurn && event.code !== undefined && event.status !== undefined ? { adopt: true } : {}),
    };
    if (this.#held) return this.actOnReport(t, "its screen showed a limit already");
    if (this.#host.screenLimit(t)) return this.actOnReport(t, "its screen shows a limit too");
    if (this.#onlyWaiting(t)) return this.actOnReport(t, _ONLY_WAITING);
    this.#host.record({
      ...at,
      verdict: "waiting",
      retryInMs: SCREEN_WORD_MS,
      why: this.#turns.size > 0
        ? "checking it against the screen"
        : "no turn uuldana saw start is open: waiting for the screen to show it",
    });
    // Quiet since before the report: looked at again once that quiet is SCREEN_WORD_MS long.
    const quietFor = provider && this.#reported.inTurn && this.#still.screen !== null &&
        this.#passing === null
      ? t - this.#still.sinceUs
      : 0;
    this.#dueUs = earliest(this.#dueUs, t + Math.max(_CHECK_US, _us(SCREEN_WORD_MS) - quietFor));
    return null;
  }

  // A turn uuldana saw start opened while a report of the provider's own error (its quota, met
  // by a call of the agent's between turns: Qwen's memory extraction, its next-speaker check)
  // still waits: that turn's first model call meets the same quota, and nothing of the turn has
  // run yet (no reply, no tool: it just opened), so the report acts at the turn's opening.
  // Waiting for the turn's screen to settle with only the waiting row moving (the rule for a
  // report inside a running turn, where a tool may be at work) cost 0.5–1 s more.
  #adoptReport(t: number): Verdict | null {
    const r = this.#reported;
    if (!r || r.inTurn || !r.adopt) return null;
    return this.actOnReport(
      t,
      "a turn uuldana saw start opened after the provider's own limit answer to a call the " +
        "agent made between turns: its first model call meets the same limit, and nothing of it has run",
    );
  }

  // Whether the agent still works: it drew within WORKING_MS, or its screen shows its working row.
  #working(t: number): boolean {
    if (t - this.#host.lastOutputUs() < _us(WORKING_MS)) return true;
    // The agent's own status, where it prints one, tells a quiet screen from a finished turn.
    if (this.#host.statusWorking()) return true;
    const row = this.#host.adapter.workingRow ?? BUSY_ROW;
    return this.#host.terminal.logicalScreenLines().some((l) => row.test(l));
  }

  /**
   * The screen's rows but the agent's waiting row (`Adapter.waitingRow`) at `t` (null when the
   * adapter has none or the screen does not show it), settled, and since when it has been so: a
   * change that stays {@link FRAME_MS} starts a new quiet when it was first seen; one that goes
   * back to the settled screen sooner (a frame drawn in pieces) does not.
   */
  #stillAt(
    t: number,
    lines: readonly string[] | null = null,
  ): { screen: string | null; sinceUs: number } {
    const row = this.#host.adapter.waitingRow;
    if (!row) return this.#still;
    const rows = lines ?? this.#host.terminal.logicalScreenLines();
    const screen = rows.some((l) => row.test(l))
      ? rows.filter((l) => !row.test(l)).join("\n")
      : null;
    if (screen === this.#still.screen) this.#passing = null;
    else if (this.#passing?.screen !== screen) this.#passing = { screen, sinceUs: t };
    else if (t - this.#passing.sinceUs >= _us(FRAME_MS)) {
      this.#still = this.#passing;
      this.#passing = null;
    }
    return this.#still;
  }

  /**
   * Whether the limit the agent reported (the provider's own error, in a turn) came while only
   * its waiting row moves: the screen is the one it showed at the report, with its waiting row,
   * and nothing else on it has changed for {@link SCREEN_WORD_MS}, before the report or after.
   */
  #onlyWaiting(t: number): boolean {
    const r = this.#reported;
    if (!r || !r.inTurn) return false;
    const now = this.#stillAt(t);
    if (!r.provider || now.screen === null || this.#passing !== null) return false;
    return t - now.sinceUs >= _us(SCREEN_WORD_MS);
  }
}
