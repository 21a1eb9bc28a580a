/**
 * The detection core of one run: when a limit the agent shows is acted on. It owns the run's VT
 * interpreter and takes timed inputs only (output bytes, resizes, channel events, wakes, the end),
 * so what it decides is a function of those inputs and their times alone: a live run and a replay
 * of its timed recording make the same looks at the same byte offsets, whatever the live timers
 * did. Pure: no timers, no I/O; the session (src/session/agent_run.ts) carries it out.
 *
 * The rules, as a live run has always applied them:
 * - a look at the screen follows output, at most one every {@link LOOK_EVERY_MS};
 * - a limit worth a handoff is acted on once the agent stopped writing for 40 ms, or once the same
 *   limit stayed for 500 ms while the agent kept drawing (see confirm.ts); meanwhile a look is
 *   due when it could be confirmed, even if the agent prints nothing more;
 * - when the output ends, a limit seen on the last look counts (Codex clears it as it quits);
 * - the stall rule (off unless configured): busy by the agent's own spinner past the threshold,
 *   with no limit shown, ends the run as a stall, never as a limit.
 *
 * With the agent's structured channel (issue 20), what it says is weighed against the screen by
 * the rules of channel_rules.ts: a limit it reports, an error it calls the turn's failure, a rate
 * limit the screen confirmed waiting for its word.
 *
 * Where the agent prints its own status into its output (`Adapter.programStatus`, Codex's OSC
 * 7501; program_status.ts), a limit the screen shows in a turn whose status went `error` acts at
 * once, one shown while the status says `working` waits (at most {@link STATUS_HOLD_MS}), and the
 * status alone never acts (Codex's `error` is the same for a server error).
 *
 * Before handling an input at time t, every look due at or before t is made, at its due time.
 *
 * @example
 * ```ts
 * const d = new Detector({ adapter, cols: 120, rows: 40, startedAt: Date.now() });
 * let verdict = d.output(bytes, 12.5); // ms since the run started
 * const due = d.nextWakeAt(); // call d.wake(due) then, unless more input came first
 * ```
 *
 * @module
 */
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";
import { DEFAULT_RETRY_LOOP_SECONDS, shouldHandOff } from "../../adapters/policy.ts";
import { busySeconds } from "../../adapters/stall.ts";
import { Terminal } from "../vt/mod.ts";
import { ChannelRules, type ChannelRulesState } from "./channel_rules.ts";
import type { TerminalState } from "../vt/mod.ts";
import { LimitConfirmation, limitKey } from "./confirm.ts";
import { ProgramStatus, STATUS_HOLD_MS } from "./program_status.ts";
import { OSC7501 } from "../../adapters/channels/osc7501.ts";
import { type Decision, MAX_DECISIONS, type Verdict } from "./decision.ts";
import { earliest as _earliest, microseconds as _us, type TimedInput } from "./timed_input.ts";

export type { Verdict } from "./decision.ts";

/** At most one look at the screen per this many ms while the agent writes. */
export const LOOK_EVERY_MS = 40;
/**
 * Scrollback rows a run keeps. Only the last 120 lines with text are ever read (the journal, the
 * handoff), and 2,000 rows hold those with room for wrapping: a fifth of the VT's default memory.
 */
export const SCROLLBACK_ROWS = 2_000;
/** Lines with text a verdict (and {@link Detector.lastLines}) carries. */
export const SCREEN_LINES = 120;

/** What a {@link Detector} needs. */
export interface DetectorOptions {
  adapter: Adapter;
  cols: number;
  rows: number;
  /** Scrollback rows (default {@link SCROLLBACK_ROWS}). */
  scrollback?: number;
  /** Text uuldana itself put on the agent's screen (a limit quoted in it never counts). */
  delivered?: readonly string[];
  /** Whether a limit ends the run (default: `shouldHandOff`, the policy's). */
  handOff?: (hit: LimitHit) => boolean;
  /** The stall rule's threshold in seconds (off when undefined). */
  stallSeconds?: number;
  /**
   * The retry-loop rule's threshold in seconds (retry_loop.ts): default
   * {@link DEFAULT_RETRY_LOOP_SECONDS}, 0 turns it off.
   */
  retryLoopSeconds?: number;
  /** Wall-clock time (epoch ms) of time 0: shown reset times are read against it plus the input's time. */
  startedAt: number;
  /** IANA zone for reset times shown without one (default: this process's). */
  timeZone?: string;
  /** Overrides of the look interval and the confirmation times (tests). */
  lookEveryMs?: number;
  quietMs?: number;
  settleMs?: number;
}

/**
 * A detector's whole state as JSON data, saved between two inputs: a replay that begins with a
 * detector restored from it (`Detector.resume`) and is fed the inputs that followed decides what
 * the live detector decided. A long run's recording keeps one at the start of each recent part.
 */
export interface DetectorState {
  v: 1;
  terminal: TerminalState;
  nowUs: number;
  lastOutputUs: number;
  /** null: no look yet (-Infinity, which JSON cannot carry). */
  lastLookUs: number | null;
  lookDueUs: number | null;
  confirmDueUs: number | null;
  offset: number;
  verdict: Verdict | null;
  done: boolean;
  seenKey: string | null;
  warningKey: string | null;
  altLines: string[];
  recorded: number;
  dropped: number;
  rules: ChannelRulesState;
  status: { state: string | null; errored: boolean } | null;
  statusHold: { sinceUs: number; over: boolean } | null;
  confirm: ReturnType<LimitConfirmation["save"]>;
}

const _SEEN_DIGITS = /\d+/g;

/** One run's detection. See the module documentation. */
export class Detector {
  /** The run's screen model, fed with every output byte. Read it; write only through the inputs. */
  readonly terminal: Terminal;
  readonly #opts: DetectorOptions;
  readonly #handOff: (hit: LimitHit) => boolean;
  readonly #confirm: LimitConfirmation;
  readonly #lookEveryUs: number;
  /** Times are integer microseconds inside, so live and replay compute the same to the bit. */
  #nowUs = 0;
  #lastOutputUs = 0;
  #lastLookUs = -Infinity;
  /** The throttled look that output asked for. */
  #lookDueUs: number | null = null;
  /** The look at which a pending limit could be confirmed. */
  #confirmDueUs: number | null = null;
  #offset = 0;
  #verdict: Verdict | null = null;
  /** No more looks: a verdict was reached, the run was decided elsewhere, or the output ended. */
  #done = false;
  /** The last look's limit (digits folded, so a countdown is one sighting), or null. */
  #seenKey: string | null = null;
  /** The text of the last usage warning recorded, or null. */
  #warningKey: string | null = null;
  /** The last alternate-screen lines with text: full-screen agents erase them when they exit. */
  #altLines: string[] = [];
  #decisions: Decision[] = [];
  #recorded = 0;
  #dropped = 0;
  /** What the agent's channel says, weighed against the screen. */
  readonly #rules: ChannelRules;
  /** The agent's own status reports in its output (`Adapter.programStatus`), when it prints them. */
  readonly #status: ProgramStatus | null;
  /** The OSC 7501 texts the terminal found in the output being written now. */
  readonly #statusTexts: string[] = [];
  /** A limit the screen shows, waiting for the status to leave `working` (over: no longer). */
  #statusHold: { sinceUs: number; over: boolean } | null = null;

  constructor(opts: DetectorOptions) {
    this.#opts = opts;
    this.#handOff = opts.handOff ?? ((hit) => shouldHandOff(hit));
    this.#confirm = new LimitConfirmation({ quietMs: opts.quietMs, settleMs: opts.settleMs });
    this.#lookEveryUs = _us(opts.lookEveryMs ?? LOOK_EVERY_MS);
    this.#status = opts.adapter.programStatus === "osc7501" ? new ProgramStatus() : null;
    this.terminal = new Terminal({
      cols: opts.cols,
      rows: opts.rows,
      scrollback: opts.scrollback ?? SCROLLBACK_ROWS,
    });
    if (this.#status) this.terminal.onOsc(OSC7501, (text) => this.#statusTexts.push(text));
    this.#rules = new ChannelRules({
      adapter: opts.adapter,
      terminal: this.terminal,
      offset: () => this.#offset,
      lastOutputUs: () => this.#lastOutputUs,
      statusWorking: () => this.#status?.state === "working",
      screenLimit: (t) => this.#screenLimit(t),
      handOff: this.#handOff,
      lastLines: () => this.lastLines(),
      record: (decision) => this.#record(decision),
      reach: (hit, atMs) =>
        this.#reach({ kind: "limit", hit, atMs, offset: this.#offset, lines: [] }),
      retryLoopSeconds: opts.retryLoopSeconds ?? DEFAULT_RETRY_LOOP_SECONDS,
    });
  }

  /**
   * A detector made with `opts` (those of the run saved) and put in `state`: it goes on as the
   * saved one did. Decisions taken before the state was saved are not repeated.
   */
  static resume(opts: DetectorOptions, state: DetectorState): Detector {
    const d = new Detector({ ...opts, cols: state.terminal.cols, rows: state.terminal.rows });
    d.terminal.restoreState(state.terminal);
    d.#nowUs = state.nowUs;
    d.#lastOutputUs = state.lastOutputUs;
    d.#lastLookUs = state.lastLookUs ?? -Infinity;
    d.#lookDueUs = state.lookDueUs;
    d.#confirmDueUs = state.confirmDueUs;
    d.#offset = state.offset;
    d.#verdict = structuredClone(state.verdict);
    d.#done = state.done;
    d.#seenKey = state.seenKey;
    d.#warningKey = state.warningKey;
    d.#altLines = [...state.altLines];
    d.#recorded = state.recorded;
    d.#dropped = state.dropped;
    d.#rules.restore(state.rules);
    if (d.#status && state.status) d.#status.restore(state.status);
    d.#statusHold = state.statusHold ? { ...state.statusHold } : null;
    d.#confirm.restore(state.confirm);
    return d;
  }

  /**
   * The whole state as JSON data (see {@link DetectorState}), or null while the terminal is in
   * the middle of a sequence or a character (save after a later input). Costs a copy of the
   * screen and scrollback: for a recording's segment starts, not for every input.
   */
  saveState(): DetectorState | null {
    const terminal = this.terminal.saveState();
    if (terminal === null) return null;
    return {
      v: 1,
      terminal,
      nowUs: this.#nowUs,
      lastOutputUs: this.#lastOutputUs,
      lastLookUs: Number.isFinite(this.#lastLookUs) ? this.#lastLookUs : null,
      lookDueUs: this.#lookDueUs,
      confirmDueUs: this.#confirmDueUs,
      offset: this.#offset,
      verdict: structuredClone(this.#verdict),
      done: this.#done,
      seenKey: this.#seenKey,
      warningKey: this.#warningKey,
      altLines: [...this.#altLines],
      recorded: this.#recorded,
      dropped: this.#dropped,
      rules: this.#rules.save(),
      status: this.#status?.save() ?? null,
      statusHold: this.#statusHold ? { ...this.#statusHold } : null,
      confirm: this.#confirm.save(),
    };
  }

  /**
   * A limit is pending: seen and waiting to be confirmed, held for the agent's status or its
   * channel's word. A look may act on it without more input.
   */
  get limitPending(): boolean {
    return this.#confirm.pending !== null || this.#confirmDueUs !== null ||
      this.#rules.dueUs !== null || this.#statusHold !== null;
  }

  /** Output bytes read so far (the offset decisions are made at). */
  get offset(): number {
    return this.#offset;
  }

  /** The verdict reached, or null. */
  get verdict(): Verdict | null {
    return this.#verdict;
  }

  /** Records that did not fit in {@link MAX_DECISIONS}. */
  get droppedDecisions(): number {
    return this.#dropped;
  }

  /** Handles one timed input (what a recording keeps) with the method for its type. */
  input(input: TimedInput): Verdict | null {
    switch (input.type) {
      case "output":
        return this.output(input.bytes, input.atMs);
      case "resize":
        return this.resize(input.cols, input.rows, input.atMs);
      case "channel":
        return this.channel(input.event, input.atMs);
      case "halt":
        return this.halt(input.atMs);
      case "end":
        return this.ended(input.atMs);
    }
  }

  /** The agent wrote `bytes` at `atMs`. The bytes are not kept. */
  output(bytes: Uint8Array, atMs: number): Verdict | null {
    const t = this.#advance(atMs);
    const reached = this.#runDue(t);
    this.terminal.write(bytes);
    this.#offset += bytes.length;
    this.#lastOutputUs = t;
    // Nothing is recorded once decided: a replay stops there.
    const texts = this.#statusTexts.splice(0);
    for (const change of (this.#done ? null : this.#status?.feed(texts)) ?? []) {
      this.#record({
        atMs: t / 1000,
        offset: this.#offset,
        source: "channel",
        verdict: "event",
        ...(change.event ? { event: change.event } : {}),
        why: `the agent's status (OSC 7501): ${change.state}`,
      });
    }
    if (!this.#done && this.#lookDueUs === null) {
      this.#lookDueUs = Math.max(t, this.#lastLookUs + this.#lookEveryUs);
    }
    return reached;
  }

  /** The run's terminal took a new size at `atMs`. */
  resize(cols: number, rows: number, atMs: number): Verdict | null {
    const reached = this.#runDue(this.#advance(atMs));
    this.terminal.resize(cols, rows);
    return reached;
  }

  /**
   * The agent's structured channel said `event` at `atMs` (only events the session trusts: a
   * prompt uuldana saw submitted, and what follows). Recorded next to the screen's decisions; a
   * limit or an error is weighed against the screen (see the module documentation).
   */
  channel(event: ChannelEvent, atMs: number): Verdict | null {
    const t = this.#advance(atMs);
    const reached = this.#runDue(t);
    this.#record({
      atMs: t / 1000,
      offset: this.#offset,
      source: "channel",
      verdict: "event",
      event,
    });
    if (reached || this.#done) return reached;
    return this.#rules.hear(event, t);
  }

  /** Time passed: makes every look due at or before `atMs`. */
  wake(atMs: number): Verdict | null {
    return this.#runDue(this.#advance(atMs));
  }

  /**
   * The run was decided elsewhere at `atMs` (a manual switch, a signal, a return): looks due
   * before it are still made (one may reach a verdict, returned), then no more.
   */
  halt(atMs: number): Verdict | null {
    const reached = this.#runDue(this.#advance(atMs));
    this.#stop();
    return reached;
  }

  /**
   * The output ended at `atMs` (the agent quit): the due looks, then a last one at which a limit
   * seen on the look before counts even if it is gone now (no more output can complete it).
   */
  ended(atMs: number): Verdict | null {
    const t = this.#advance(atMs);
    const reached = this.#runDue(t);
    if (this.#done) return reached;
    // An agent that quit right after reporting a limit in its turn stopped on it.
    if (this.#rules.reportedInTurn) {
      return this.#rules.actOnReport(t, "the agent quit after reporting it");
    }
    this.#lookDueUs = this.#confirmDueUs = null;
    this.#rules.cancel();
    const last = this.#look(t, true);
    this.#stop();
    return last;
  }

  /** When the next look is due (ms), or null when none is. */
  nextWakeAt(): number | null {
    const due = this.#nextDueUs();
    return due === null ? null : due / 1000;
  }

  /** The decision records appended since the last call, oldest first. */
  takeDecisions(): Decision[] {
    const out = this.#decisions;
    this.#decisions = [];
    return out;
  }

  /**
   * The last 120 lines with text, including what a full-screen agent last showed: while its
   * alternate screen is up, the terminal's lines end with that screen already (added once more,
   * a Claude 2.1.332 run carried every row of its last screen twice).
   */
  lastLines(): string[] {
    this.#noteAltScreen();
    const lines = this.terminal.lastLines(SCREEN_LINES);
    if (this.terminal.activeBuffer === "alternate") return lines;
    return [...lines, ...this.#altLines].slice(-SCREEN_LINES);
  }

  #advance(atMs: number): number {
    // A clock never goes back; an edited recording's might.
    this.#nowUs = Math.max(this.#nowUs, _us(atMs));
    return this.#nowUs;
  }

  #stop(): void {
    this.#done = true;
    this.#lookDueUs = this.#confirmDueUs = null;
    this.#rules.cancel();
  }

  #nextDueUs(): number | null {
    return _earliest(_earliest(this.#lookDueUs, this.#confirmDueUs), this.#rules.dueUs);
  }

  #runDue(t: number): Verdict | null {
    for (;;) {
      if (this.#done) return null;
      const due = this.#nextDueUs();
      if (due === null || due > t) return null;
      if (this.#rules.dueUs === due) {
        const reached = this.#rules.weigh(due);
        if (reached) return reached;
        continue;
      }
      if (this.#lookDueUs === due) {
        this.#lookDueUs = null;
        this.#lastLookUs = due;
      }
      if (this.#confirmDueUs === due) this.#confirmDueUs = null;
      const reached = this.#look(due, false);
      if (reached) return reached;
    }
  }

  /** One look at the screen at `t` (µs); `ended`: the output is over. */
  #look(t: number, ended: boolean): Verdict | null {
    this.#noteAltScreen();
    const atMs = t / 1000;
    const lines = this.terminal.logicalScreenLines();
    this.#rules.looked(t, lines);
    const found = this.#opts.adapter.detectLimit(lines, {
      now: new Date(this.#opts.startedAt + atMs),
      delivered: this.#opts.delivered as string[] | undefined,
      // Some agents wrap their own long lines at the width: the detector re-joins those rows.
      cols: this.terminal.cols,
      timeZone: this.#opts.timeZone,
    });
    this.#noteSighting(found, atMs);
    this.#noteWarning(found ? null : lines, atMs);
    // A limit the agent reported, now on its screen too: both say so.
    if (this.#rules.reported && found) {
      return this.#rules.actOnReport(t, "its screen shows a limit too");
    }
    const pending = this.#confirm.pending;
    const hit = found ?? (ended ? pending : null);
    const worth = hit !== null && this.#handOff(hit);
    if (!ended && found && worth && this.#status) {
      const said = this.#statusSays(found, t);
      if (said) return said === "wait" ? null : said;
    } else this.#statusHold = null;
    const verdict = this.#confirm.observe(
      worth ? hit : null,
      atMs,
      (t - this.#lastOutputUs) / 1000,
    );
    const same = pending !== null && worth && limitKey(pending) === limitKey(hit);
    if (pending && !same) {
      this.#record({
        atMs,
        offset: this.#offset,
        source: "screen",
        verdict: "rejected",
        hit: pending,
        why: hit
          ? "replaced by another message before it was confirmed"
          : "gone from the screen before it was confirmed",
      });
    }
    if (verdict.action === "act" || (ended && worth)) {
      const acted = verdict.action === "act" ? verdict.hit : hit!;
      if (!ended && this.#rules.awaitsWord(acted, t)) return null;
      this.#rules.screenActed();
      this.#record({ atMs, offset: this.#offset, source: "screen", verdict: "acted", hit: acted });
      return this.#reach({ kind: "limit", hit: acted, atMs, offset: this.#offset, lines: [] });
    }
    if (verdict.action === "wait") {
      this.#confirmDueUs = t + Math.max(1, Math.round(verdict.retryInMs * 1000));
      if (!same) {
        this.#record({
          atMs,
          offset: this.#offset,
          source: "screen",
          verdict: "waiting",
          hit: hit!,
          retryInMs: verdict.retryInMs,
        });
      }
      return null;
    }
    return found ? null : this.#checkStall(lines, atMs);
  }

  // Whether the screen shows any limit now (worth a handoff or not: a retry row backs a report).
  #screenLimit(t: number): LimitHit | null {
    return this.#opts.adapter.detectLimit(this.terminal.logicalScreenLines(), {
      now: new Date(this.#opts.startedAt + t / 1000),
      delivered: this.#opts.delivered as string[] | undefined,
      cols: this.terminal.cols,
      timeZone: this.#opts.timeZone,
    });
  }

  // Agents that retry silently (Gemini capacity errors, Qwen) show only a spinner with a timer.
  #checkStall(lines: readonly string[], atMs: number): Verdict | null {
    const limit = this.#opts.stallSeconds;
    if (limit === undefined) return null;
    const busy = busySeconds(this.#opts.adapter, lines);
    if (busy === null || busy < limit) return null;
    const message = `${this.#opts.adapter.displayName} was busy for ${busy} s with no answer ` +
      `(it may be retrying silently; stall rule: ${limit} s)`;
    this.#record({ atMs, offset: this.#offset, source: "screen", verdict: "acted", why: message });
    return this.#reach({ kind: "stall", message, atMs, offset: this.#offset, lines: [] });
  }

  /**
   * What the agent's status says of the limit its screen shows at `t` (program_status.ts): the
   * turn went `error`, so it acts now (the verdict); `wait` while the status says `working` (at
   * most {@link STATUS_HOLD_MS}); null: the screen's rules decide.
   */
  #statusSays(hit: LimitHit, t: number): Verdict | "wait" | null {
    const word = this.#status!.word();
    const atMs = t / 1000;
    const at = { atMs, offset: this.#offset, source: "screen" as const, hit };
    if (word === "confirms") {
      this.#statusHold = null;
      this.#record({
        ...at,
        verdict: "acted",
        why: "its status (OSC 7501) went error in this turn",
      });
      return this.#reach({ kind: "limit", hit, atMs, offset: this.#offset, lines: [] });
    }
    if (word !== "working") {
      this.#statusHold = null;
      return null;
    }
    if (this.#statusHold === null) {
      this.#statusHold = { sinceUs: t, over: false };
      this.#record({
        ...at,
        verdict: "waiting",
        retryInMs: STATUS_HOLD_MS,
        why: "its status (OSC 7501) says it is still working: the model's own text, maybe",
      });
    }
    if (this.#statusHold.over) return null;
    const until = this.#statusHold.sinceUs + _us(STATUS_HOLD_MS);
    if (t < until) {
      this.#confirmDueUs = _earliest(this.#confirmDueUs, until);
      return "wait";
    }
    this.#statusHold.over = true;
    this.#record({
      ...at,
      verdict: "waiting",
      why: `its status said working ${STATUS_HOLD_MS / 1000} s with it shown: the screen decides`,
    });
    return null;
  }

  /** A `seen` record when the look's limit differs from the last look's; a rate limit not worth a handoff is also `rejected`. */
  #noteSighting(found: LimitHit | null, atMs: number): void {
    const key = found ? `${found.kind}\0${found.message.replace(_SEEN_DIGITS, "#")}` : null;
    if (key === this.#seenKey) return;
    this.#seenKey = key;
    if (!found) return;
    const at = { atMs, offset: this.#offset, source: "screen" as const, hit: found };
    this.#record({ ...at, verdict: "seen" });
    if (!this.#handOff(found)) {
      this.#record({
        ...at,
        verdict: "rejected",
        why: "a transient rate limit the agent is still retrying: not worth a handoff yet",
      });
    }
  }

  /**
   * A `warning` record when the look shows a usage warning (`Adapter.detectWarning`) other than
   * the last one recorded; `lines` null: the look shows a limit, no warning is read.
   */
  #noteWarning(lines: readonly string[] | null, atMs: number): void {
    const read = this.#opts.adapter.detectWarning;
    if (!read) return;
    const warning = lines === null ? null : read(lines, {
      now: new Date(this.#opts.startedAt + atMs),
      delivered: this.#opts.delivered as string[] | undefined,
      cols: this.terminal.cols,
      timeZone: this.#opts.timeZone,
    });
    // By its text (a relative reset, "resets in 2h", read at each look would differ every time),
    // against the last one recorded: the same warning seen again after a look without it (a frame
    // drawn in pieces, a notice that comes back) is no news.
    if (!warning || warning.message === this.#warningKey) return;
    this.#warningKey = warning.message;
    this.#record({ atMs, offset: this.#offset, source: "screen", verdict: "warning", warning });
  }

  #reach(verdict: Verdict): Verdict {
    verdict.lines = this.lastLines();
    this.#verdict = verdict;
    this.#stop();
    return verdict;
  }

  #noteAltScreen(): void {
    if (this.terminal.activeBuffer !== "alternate") return;
    const lines = this.terminal.logicalScreenLines().map((l) => l.trimEnd()).filter((l) =>
      l.trim() !== ""
    );
    if (lines.length) this.#altLines = lines;
  }

  #record(decision: Decision): void {
    // The record of a verdict is kept past the bound: a long run's last decision is its point.
    if (this.#recorded >= MAX_DECISIONS && decision.verdict !== "acted") {
      this.#dropped++;
      return;
    }
    this.#recorded++;
    this.#decisions.push(decision);
  }
}
