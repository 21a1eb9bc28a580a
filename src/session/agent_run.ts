/**
 * One agent run inside the pty: bytes out to the user's terminal and, with the time they came,
 * into the run's detector (src/detect/: the VT interpreter and the limit and stall rules), keys in
 * through the input tracker, quiet detection, and the journal record of the run. This file only
 * carries the detector out: it feeds it, sets one timer for its next look and acts on its verdict.
 * The chain (chain.ts) decides what happens after it.
 *
 * @module
 */
import { headCommit } from "../handoff/workspace.ts";
import type { Adapter, LimitHit, LimitWarning } from "../../adapters/adapter.ts";
import { busySeconds } from "../../adapters/stall.ts";
import { BUSY_ROW } from "../../adapters/screen_text.ts";
import type { Journal } from "../journal/journal.ts";
import { type PtyProcess, spawnPty } from "../pty/pty_process.ts";
import type { Terminal } from "../vt/mod.ts";
import { Detector, type Verdict } from "../detect/detector.ts";
import { restoreSequence } from "../vt/restore.ts";
import { eraseBytes, type InputEvent, InputTracker } from "./input.ts";
import { readInputBox } from "../../adapters/input_box.ts";
import { isLocalCommand, reconcile } from "../capture/reconcile.ts";
import { QuietDetector } from "./quiet.ts";
import type { Keyboard } from "./keyboard.ts";
import { CastRecording } from "./recording.ts";
import { RecordingFile } from "../journal/recording_file.ts";
import { type ChannelSummary, RunChannel, type RunChannelSetup } from "./run_channel.ts";
import { RunDebugLog, type RunDebugLogSetup } from "./run_debug_log.ts";
import { castHeaderLine } from "../detect/cast.ts";
import type { TimedInput } from "../detect/timed_input.ts";
import { Utf8Segmenter } from "../detect/utf8_segments.ts";
import { AnswerScreen } from "./answer_screen.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The user's side of the terminal. */
export interface UserTerminal {
  /**
   * Writes bytes to the user's terminal, all of them, in order. Never throws: a terminal that is
   * gone drops them (the run is recorded all the same).
   */
  write(bytes: Uint8Array): void;
}

/** How a run ended. */
export type RunOutcome =
  | { reason: "exit"; exitCode: number; signal: string | null }
  | { reason: "limit"; limit: LimitHit; exitCode: number | null }
  | { reason: "switch"; to: string; exitCode: number | null }
  /** Busy past the stall rule with no answer: not a limit the agent showed. */
  | { reason: "stall"; message: string; exitCode: number | null }
  /** The work goes back to the chain's first agent, available again (`returnToFirst`). */
  | { reason: "return"; to: string; exitCode: number | null }
  /** Handed off at a turn boundary after the agent's usage warning (`handoffEarly`). */
  | { reason: "early"; warning: LimitWarning; exitCode: number | null }
  | { reason: "stopped"; signal: string; exitCode: number | null };

/** Answers whether `/agent NAME` can switch now; returns an error line to show, or null. */
export type SwitchCheck = (name: string) => string | null;

/** What one run needs. */
export interface AgentRunOptions {
  adapter: Adapter;
  /** The chain member it runs as, when that is a profile of the adapter's agent. */
  profile?: string;
  argv: string[];
  env?: Record<string, string>;
  workspace: string;
  cols: number;
  rows: number;
  journal: Journal;
  keyboard: Keyboard;
  user: UserTerminal;
  /** Text uuldana put on the agent's screen (never counted as a limit message). */
  delivered?: string[];
  /** Silence (ms) that counts as quiet. */
  quietMs?: number;
  /** Decides whether a detected limit ends the run (rate limits may be waited out). */
  shouldHandOff?: (hit: LimitHit) => boolean;
  /** Validates a manual `/agent NAME` switch before the run stops. */
  checkSwitch?: SwitchCheck;
  /** Lists agents and roads for `/agent` alone. */
  listAgents?: () => string;
  /**
   * The stall rule (off when undefined): busy this many seconds by the agent's own spinner, with
   * no answer, counts as a limit.
   */
  stallSeconds?: number;
  /** The retry-loop rule's threshold (src/detect/retry_loop.ts; its default when undefined). */
  retryLoopSeconds?: number;
  /**
   * The agent's structured channel, turned on at launch (its relay, the adapter's declaration,
   * the opening prompts uuldana gave it); `{ off }`: it has one, but not for this launch, and why.
   */
  channel?: RunChannelSetup | { off: string };
  /**
   * The agent's own debug log (`Adapter.debugLog`), named at launch; `{ off }`: it has one, but
   * not for this launch, and why (said once).
   */
  debugLog?: RunDebugLogSetup | { off: string };
  /** One status line for the user (said while the agent runs: sparingly). */
  status?: (line: string) => void;
  /** The agent's version, when known (said when its screen is one uuldana does not know). */
  version?: string | null;
}

/** Output reaches the recording's file at most this long after it was shown (if uuldana is killed). */
const _RECORDING_FLUSH_MS = 2_000;
const _encoder = new TextEncoder();

/** A running agent. Create with `AgentRun.start`. */
export class AgentRun {
  /** The journal id of this run. */
  readonly runId: number;
  /**
   * Resolves once with how the run ended: at exit, or as soon as uuldana decided to end it (a
   * limit, a switch, a signal). From that moment the agent is detached from the user's terminal,
   * which is restored, and its screen is in the journal; it is stopped in the background.
   */
  readonly outcome: Promise<RunOutcome>;
  /** Resolves when the agent's process is gone and the journal has the run's end. */
  readonly ended: Promise<void>;

  readonly #opts: AgentRunOptions;
  readonly #pty: PtyProcess;
  readonly #quiet: QuietDetector;
  readonly #input: InputTracker;
  /** The run's timed inputs, as its detector read them (asciicast). */
  readonly #recording: CastRecording;
  #recordingFile: RecordingFile | null = null;
  #recordingFlush: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters = new Set<() => void>();
  #decided: RunOutcome | null = null;
  /** The agent's process is gone (it may have ended on its own, undecided). */
  #exited = false;
  #resolveOutcome!: (outcome: RunOutcome) => void;
  /** Once detached, the agent's output no longer reaches the user's terminal. */
  #detached = false;
  /** uuldana's answer to `/agent`, shown over the agent's screen (answer_screen.ts). */
  readonly #answer: AnswerScreen;
  /** The user's terminal size, as the run was started or last resized to it. */
  #size: { cols: number; rows: number };
  /** Decides when a limit is acted on, from the output and its time alone. */
  readonly #detector: Detector;
  /** Time 0 of the run's clock (performance clock): the detector's and the recording's. */
  readonly #t0 = performance.now();
  /** Wall-clock time of time 0: shown reset times are read against it. */
  readonly #startedAt = Date.now();
  /** Output is read in pieces that end on a character boundary (one recording event each). */
  readonly #segments = new Utf8Segmenter();
  /** The one timer: the detector's next look. */
  #wakeTimer: ReturnType<typeof setTimeout> | undefined;
  #lastOutput = performance.now();
  /** Screen lines taken when the run's end was decided, before the agent is asked to quit. */
  #decidedLines: string[] | null = null;
  /** The agent's debug log, when on for this run. */
  readonly #debugLog: RunDebugLog | null = null;
  /** The agent's structured channel, when on for this run. */
  readonly #channel: RunChannel | null = null;
  /** A disagreement of channel and screen was said (once a run). */
  #toldDisagreement = false;
  /** The usage warnings the detector read on the screen, in order. */
  readonly #warnings: LimitWarning[] = [];
  readonly #warningListeners = new Set<(warning: LimitWarning) => void>();

  private constructor(opts: AgentRunOptions, runId: number, pty: PtyProcess) {
    this.#opts = opts;
    this.runId = runId;
    this.#pty = pty;
    this.#size = { cols: opts.cols, rows: opts.rows };
    this.#answer = new AnswerScreen((bytes) => opts.user.write(bytes), {
      repaint: () => void this.#repaint().catch(() => {}),
    });
    this.#input = new InputTracker({ backslashEnter: opts.adapter.inputBox?.backslashEnter });
    this.#detector = new Detector({
      adapter: opts.adapter,
      cols: opts.cols,
      rows: opts.rows,
      delivered: opts.delivered,
      handOff: opts.shouldHandOff ?? ((h) => h.kind === "usage"),
      stallSeconds: opts.stallSeconds,
      retryLoopSeconds: opts.retryLoopSeconds,
      startedAt: this.#startedAt,
    });
    this.#quiet = new QuietDetector(performance.now(), { quietMs: opts.quietMs ?? 1500 });
    this.#recording = this.#startRecording();
    this.#channel = this.#startChannel();
    this.#debugLog = this.#startDebugLog();
    this.outcome = new Promise((resolve) => this.#resolveOutcome = resolve);
    this.ended = this.#supervise();
  }

  /** Records the run in the journal and starts the agent. */
  static async start(opts: AgentRunOptions): Promise<AgentRun> {
    const runId = opts.journal.startRun({
      agent: opts.adapter.name,
      profile: opts.profile,
      bin: opts.argv[0],
      workspace: opts.workspace,
      transport: "pty",
    });
    // The commit the work starts from, for the changes a later handoff shows (never waited for).
    headCommit(opts.workspace).then((sha) => sha && opts.journal.setRunBase(runId, sha))
      .catch(() => {});
    let pty: PtyProcess;
    try {
      // Every chunk is used at once and kept by nobody (the recording copies what it keeps).
      pty = await spawnPty({
        borrowChunks: true,
        argv: opts.argv,
        env: opts.env,
        cwd: opts.workspace,
        cols: opts.cols,
        rows: opts.rows,
      });
    } catch (e) {
      opts.journal.endRun(runId, { reason: "error", exitCode: null });
      throw e;
    }
    return new AgentRun(opts, runId, pty);
  }

  /** The VT interpreter fed with everything the agent printed (the detector's). */
  get vt(): Terminal {
    return this.#detector.terminal;
  }

  /**
   * Whether the agent's output so far, as the user's terminal got it, ended between sequences and
   * characters (or no longer reaches it): another writer's bytes cannot land inside one now.
   */
  get betweenSequences(): boolean {
    return this.#detached || (!this.#segments.holding && this.vt.betweenSequences);
  }

  /** Sends bytes to the agent as if typed. */
  write(bytes: Uint8Array | string): Promise<void> {
    return this.#pty.write(typeof bytes === "string" ? _encoder.encode(bytes) : bytes);
  }

  /** Whether the agent has been silent for the quiet interval (and is not mid-update). */
  isQuiet(): boolean {
    return this.#quiet.isQuiet(performance.now());
  }

  /**
   * Whether the screen shows the agent ready to take a paste (its adapter's rule; true for an
   * adapter without one).
   */
  inputReady(): boolean {
    const ready = this.#opts.adapter.inputReady;
    return !ready || ready(this.vt.screenLines());
  }

  /** Tells the input tracker that uuldana typed into the agent's input box (a paste). */
  noteTypedByUuldana(): void {
    this.#input.markUncertain();
  }

  /** Tells the input tracker that uuldana submitted what was in the input box: it is empty. */
  noteInputSubmitted(): void {
    this.#input.reset();
  }

  /** The agent's name. */
  get adapterName(): string {
    return this.#opts.adapter.name;
  }

  /**
   * Whether the agent's input box is known to be empty: nothing typed since the last submit, and
   * nothing uuldana pasted that was not sent.
   */
  get inputEmpty(): boolean {
    return this.#input.line === "" && this.#input.exact;
  }

  /**
   * Whether the agent is at a turn boundary: quiet (nothing drawn for the quiet interval), its
   * input box known empty, and nothing on its screen saying it works (`esc to interrupt`, its
   * spinner's timer, its channel's open turn). The one moment an early handoff may take.
   */
  atTurnBoundary(): boolean {
    if (!this.isQuiet() || !this.inputEmpty || this.#channel?.turnOpen) return false;
    const lines = this.vt.logicalScreenLines();
    const working = this.#opts.adapter.workingRow ?? BUSY_ROW;
    return !lines.some((l) => working.test(l)) && busySeconds(this.#opts.adapter, lines) === null;
  }

  /**
   * Calls `listener` with each usage warning the agent's screen shows (the detector's `warning`
   * records), those seen already first. Returns a function that stops it.
   */
  onWarning(listener: (warning: LimitWarning) => void): () => void {
    for (const w of this.#warnings) listener(w);
    this.#warningListeners.add(listener);
    return () => this.#warningListeners.delete(listener);
  }

  /** Ends the run at a turn boundary after `warning` (`handoffEarly`): the caller picks it. */
  handOffEarly(warning: LimitWarning): void {
    this.#decide({ reason: "early", warning, exitCode: null });
  }

  /**
   * Ends the run so the work goes back to `to` (the chain's first agent, available again). The
   * caller picks the moment: the agent quiet, its input box empty.
   */
  returnTo(to: string): void {
    this.#decide({ reason: "return", to, exitCode: null });
  }

  /** Whether the run has already ended or been decided. */
  get finished(): boolean {
    return this.#decided !== null || this.#exited;
  }

  /**
   * Waits until `predicate()` holds (re-checked on output and every 100 ms) or `timeoutMs` passes
   * or the run ends. Returns whether it held.
   */
  waitUntil(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
    if (predicate()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const deadline = performance.now() + timeoutMs;
      const check = () => {
        if (predicate()) return done(true);
        if (this.finished || performance.now() >= deadline) return done(false);
      };
      const tick = setInterval(check, 100);
      const done = (ok: boolean) => {
        clearInterval(tick);
        this.#waiters.delete(check);
        resolve(ok);
      };
      this.#waiters.add(check);
    });
  }

  /** Resizes the agent's pty and our screen model. */
  async resize(cols: number, rows: number): Promise<void> {
    this.#size = { cols, rows };
    await this.#resizeTo(cols, rows);
  }

  async #resizeTo(cols: number, rows: number): Promise<void> {
    this.#act(this.#take({ type: "resize", cols, rows, atMs: this.#clock() }));
    await this.#pty.resize(cols, rows).catch(() => {});
  }

  /**
   * Asks the agent to paint its whole screen again (after uuldana's answer was drawn over it): one
   * row less, then the user's size back, as every full-screen agent repaints on a resize.
   */
  async #repaint(): Promise<void> {
    const { cols, rows } = this.#size;
    if (rows < 2 || this.finished) return;
    const before = this.#lastOutput;
    await this.#resizeTo(cols, rows - 1);
    // Its frame for the smaller size first: a second SIGWINCH before it read the first could be
    // taken for no change at all.
    await this.waitUntil(() => this.#lastOutput !== before, 1000);
    // The user's size now (a resize of theirs meanwhile set it already).
    if (!this.finished) await this.#resizeTo(this.#size.cols, this.#size.rows);
  }

  /** Ends the run from outside (a signal to uuldana): the agent is stopped. */
  stop(signal: string): Promise<RunOutcome> {
    this.#decide({ reason: "stopped", signal, exitCode: null });
    return this.outcome;
  }

  /** Ms since the run started, the clock of its detector and recording. */
  #clock(): number {
    return performance.now() - this.#t0;
  }

  /** One timed input: recorded, then read by the detector; returns its verdict. */
  #take(input: TimedInput): Verdict | null {
    this.#recording.add(input);
    this.#recordingFlush ??= setTimeout(() => {
      this.#recordingFlush = undefined;
      this.#recording.flush();
    }, _RECORDING_FLUSH_MS);
    return this.#detector.input(input);
  }

  /** Journals the detector's new decision records, then acts on its verdict, if it reached one. */
  #act(verdict: Verdict | null): void {
    this.#journalDecisions();
    // A limit the next look may act on: the recording keeps a state before it, even in a flood.
    if (verdict === null && this.#detector.limitPending) this.#recording.checkpoint();
    if (verdict === null) return;
    const outcome: RunOutcome = verdict.kind === "limit"
      ? { reason: "limit", limit: verdict.hit, exitCode: null }
      : { reason: "stall", message: verdict.message, exitCode: null };
    this.#decide(outcome, verdict.lines);
  }

  /**
   * Journals the detector's new decision records. A disagreement of channel and screen is said
   * once: the screen reader meets a version it does not know (the recording helps fix it).
   */
  #journalDecisions(): void {
    const records = this.#detector.takeDecisions();
    if (records.length) this.#opts.journal.addDecisions(this.runId, records);
    for (const d of records) {
      if (d.verdict === "warning" && d.warning) this.#warned(d.warning);
      if (d.verdict !== "disagree" || this.#toldDisagreement) continue;
      this.#toldDisagreement = true;
      const { adapter, version } = this.#opts;
      const who = version ? `${adapter.name} ${version}` : adapter.name;
      this.#opts.status?.(
        d.source === "channel" && d.why?.includes("reported a limit")
          ? `${who} drew a limit screen uuldana does not know yet; \`uuldana debug bundle last\` ` +
            "helps us fix it"
          : `${who}'s screen shows a limit its channel calls an error; uuldana did not switch ` +
            "(`uuldana debug bundle last` helps us fix it)",
      );
    }
  }

  /** A usage warning the screen shows: kept, and told to the listeners (never stops the keys). */
  #warned(warning: LimitWarning): void {
    this.#warnings.push(warning);
    for (const listener of this.#warningListeners) {
      try {
        listener(warning);
      } catch {
        // a listener's failure is no reason to stop the run
      }
    }
  }

  /** Sets the one timer for the detector's next look (none when it needs none). */
  #scheduleWake(): void {
    clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
    const due = this.#detector.nextWakeAt();
    if (due === null || this.finished) return;
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = undefined;
      this.#act(this.#detector.wake(this.#clock()));
      this.#scheduleWake();
    }, Math.max(0, due - this.#clock()));
  }

  /**
   * Ends the run. A decision made outside the detector (a switch, a signal, a return) first lets
   * it make the looks that were due before it: one that reaches a verdict came first.
   */
  #decide(outcome: RunOutcome, lines?: string[]): void {
    if (this.finished) return;
    if (lines === undefined) {
      const verdict = this.#take({ type: "halt", reason: outcome.reason, atMs: this.#clock() });
      this.#journalDecisions();
      if (verdict && outcome.reason !== "stopped") return this.#act(verdict);
    }
    clearTimeout(this.#wakeTimer);
    this.#decided = outcome;
    // What the channel published up to now belongs to this run's conversation (its last reply).
    this.#channel?.close();
    this.#debugLog?.close();
    this.#decidedLines = lines ?? this.#detector.lastLines();
    this.#wakeWaiters();
    // The next agent must not wait for this one to finish quitting: detach it from the user's
    // terminal now (restored from the modes it set), keep what it showed, and stop it meanwhile.
    this.#detach();
    this.#opts.journal.saveScreen(this.runId, this.#decidedLines, {
      cols: this.vt.cols,
      rows: this.vt.rows,
    });
    this.#resolveOutcome(outcome);
    this.#pty.stop({ quitKeys: this.#opts.adapter.quitKeys, graceMs: 1500, termMs: 2000 }).catch(
      () => {},
    );
  }

  #wakeWaiters(): void {
    if (this.#waiters.size) { for (const w of [...this.#waiters]) w(); }
  }

  #detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#opts.keyboard.setSink(null);
    // An answer still showing gives the agent's screen back first (what it held included).
    this.#answer.close();
    // Whatever the agent left set (alternate screen, mouse, kitty keys…) is undone for the user.
    // CAN first: if the agent stopped mid-sequence, the terminal drops it instead of running it.
    this.#opts.user.write(_encoder.encode("\x18" + restoreSequence(this.vt.modes)));
  }

  async #supervise(): Promise<void> {
    const { keyboard, user } = this.#opts;
    keyboard.setSink((bytes) => this.#onKeys(bytes));
    try {
      for await (const chunk of this.#pty.output) {
        const now = performance.now();
        this.#lastOutput = now;
        if (!this.#detached && !this.#answer.hold(chunk)) user.write(chunk);
        const bytes = this.#segments.next(chunk);
        if (bytes.length) this.#act(this.#take({ type: "output", bytes, atMs: now - this.#t0 }));
        this.#quiet.output(now, this.vt.inSynchronizedUpdate);
        this.#scheduleWake();
        this.#wakeWaiters();
      }
    } finally {
      clearTimeout(this.#wakeTimer);
      clearTimeout(this.#recordingFlush);
    }
    // A character cut short by the end; then the end. A limit printed just before the agent quit
    // counts, as shown (no more output can complete it).
    const rest = this.#segments.rest();
    if (rest.length) this.#act(this.#take({ type: "output", bytes: rest, atMs: this.#clock() }));
    this.#act(this.#take({ type: "end", atMs: this.#clock() }));
    const exit = await this.#pty.exited;
    this.#exited = true;
    this.#wakeWaiters();
    this.#detach();
    const outcome: RunOutcome = this.#decided
      ? { ...this.#decided, exitCode: exit.code } as RunOutcome
      : { reason: "exit", exitCode: exit.code, signal: exit.signal };
    this.#record(outcome);
    this.#resolveOutcome(outcome);
  }

  /** The run's channel reader, when the launch turned the agent's channel on. */
  #startChannel(): RunChannel | null {
    const setup = this.#opts.channel;
    if (!setup || "off" in setup) return null;
    try {
      return new RunChannel({
        ...setup,
        journal: this.#opts.journal,
        runId: this.runId,
        agent: this.#opts.adapter.name,
        status: this.#opts.status,
        now: () => this.#clock(),
        // Every event reaches the detector at its time, ordered with the screen's looks.
        onEvent: (event, atMs) => {
          if (this.finished) return;
          this.#act(this.#take({ type: "channel", event, atMs }));
          this.#scheduleWake();
        },
      });
    } catch (e) {
      setup.receiver?.close().catch(() => {});
      this.#opts.status?.(
        `${this.#opts.adapter.name}'s channel could not start (${(e as Error)?.message ?? e}); ` +
          "uuldana reads its screen only",
      );
      return null;
    }
  }

  /** The run's debug-log reader, when the launch named the agent's debug log. */
  #startDebugLog(): RunDebugLog | null {
    const setup = this.#opts.debugLog;
    const who = this.#opts.adapter.name;
    if (setup && "off" in setup) {
      this.#opts.status?.(`${who}'s debug log is not uuldana's: ${setup.off}`);
      return null;
    }
    if (!setup) return null;
    try {
      return new RunDebugLog(setup, {
        now: () => this.#clock(),
        // Its events reach the detector at their time, like a channel's (and the recording).
        onEvent: (event, atMs) => {
          if (this.finished) return;
          this.#act(this.#take({ type: "channel", event, atMs }));
          this.#scheduleWake();
        },
      });
    } catch {
      return null;
    }
  }

  /** What the journal keeps about the run's channel. */
  #channelSummary(): ChannelSummary | null {
    const setup = this.#opts.channel;
    if (!setup) return null;
    if ("off" in setup) {
      return { state: "off", why: setup.off, records: 0, dropped: {}, ignored: 0, differs: 0 };
    }
    return this.#channel?.summary ?? {
      state: "off",
      why: "its reader could not start",
      records: 0,
      dropped: {},
      ignored: 0,
      differs: 0,
    };
  }

  /** Records the output to a file beside the journal; without one the run goes on unrecorded. */
  #startRecording(): CastRecording {
    const { journal, cols, rows, adapter, stallSeconds, retryLoopSeconds } = this.#opts;
    const header = castHeaderLine(cols, rows, {
      agent: adapter.name,
      startedAt: this.#startedAt,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      ...(stallSeconds !== undefined ? { stallSeconds } : {}),
      ...(retryLoopSeconds !== undefined ? { retryLoopSeconds } : {}),
      version: denoJson.version,
    }, Deno.env.get("TERM") ?? "xterm-256color");
    let path = "of this run";
    const stopped = (e: unknown) =>
      journal.notice(
        `the recording ${path} stopped (${(e as Error)?.message ?? e}); the run goes on unrecorded`,
      );
    try {
      // The replay of this recording needs what uuldana put on the screen (never a limit).
      path = journal.startOutput(this.runId, { cols, rows }, undefined, this.#opts.delivered);
      const file = RecordingFile.create(path);
      this.#recordingFile = file;
      // Said once: the recording stops at this member (or this part).
      const told = <T>(write: () => T): T => {
        try {
          return write();
        } catch (e) {
          stopped(e);
          throw e;
        }
      };
      return new CastRecording(
        {
          append: (member) => told(() => file.append(member)),
          rotate: () => told(() => file.rotate()),
        },
        header,
        { state: () => this.#detector.saveState() },
      );
    } catch (e) {
      stopped(e);
      const unrecorded = new CastRecording(() => {}, header);
      unrecorded.stop();
      return unrecorded;
    }
  }

  #record(outcome: RunOutcome): void {
    const { journal } = this.#opts;
    this.#channel?.close();
    this.#debugLog?.close();
    // The agent is gone now: its telemetry receiver may stop (closed earlier, Qwen would wait at
    // its exit for the posts it could not make).
    const setup = this.#opts.channel;
    if (setup && "receiver" in setup) setup.receiver?.close().catch(() => {});
    journal.saveScreen(this.runId, this.#decidedLines ?? this.#detector.lastLines(), {
      cols: this.vt.cols,
      rows: this.vt.rows,
    });
    clearTimeout(this.#recordingFlush);
    journal.finishOutput(this.runId, { timing: "", ...this.#recording.finish() });
    this.#recordingFile?.close();
    // An early handoff stopped at no limit: its warning is in the decision log and the ledger (as
    // a limit message it would cut the screen's conversation at the warning's row).
    const limit = outcome.reason === "limit" ? outcome.limit : null;
    journal.endRun(this.runId, {
      reason: outcome.reason === "stopped" ? "signal" : outcome.reason,
      exitCode: outcome.exitCode,
      limitMessage: limit?.message ?? (outcome.reason === "stall" ? outcome.message : null),
      resetsAt: limit?.resetsAt ?? null,
      channel: this.#channelSummary(),
    });
  }

  #onKeys(bytes: Uint8Array): void {
    if (this.finished) return;
    // The key that leaves uuldana's answer is the user's "back", not the agent's; a focus report
    // (?1004) is the terminal's, not a key: it goes on to the agent and leaves the answer up.
    if (this.#answer.open && !_isFocusReport(bytes)) return this.#answer.close();
    const { forward, events } = this.#input.feed(bytes);
    if (forward.length) this.#pty.write(forward).catch(() => {});
    for (const event of events) {
      if (event.type === "submit") {
        this.#recordSubmit(event);
      } else if (event.type === "command" && event.name === "agent") {
        this.#onSwitchCommand(event.arg, event.typed);
      }
    }
  }

  /**
   * Records a submitted turn: the keys, checked against the agent's input box as our screen model
   * shows it now (before the agent has seen the submit key), with how sure that makes uuldana.
   */
  #recordSubmit(event: Extract<InputEvent, { type: "submit" }>): void {
    const box = this.#opts.adapter.inputBox;
    const reading = box ? readInputBox(this.vt.logicalScreenLines(), box) : null;
    const turn = reconcile(event, reading, box);
    if (turn === null || isLocalCommand(turn.text, box)) return;
    // The agent's own prompt event gives the exact text; a slash command fires none, but is kept
    // after the submits still waiting for theirs.
    const command = turn.text.trimStart().startsWith("/");
    if (command ? this.#channel?.command(turn) : this.#channel?.submit(turn)) return;
    this.#opts.journal.addEntry(this.runId, {
      role: "user",
      text: turn.text,
      fidelity: "keystrokes",
      certainty: turn.certainty,
    });
  }

  #onSwitchCommand(target: string | null, typed: string): void {
    const problem = target === null
      ? (this.#opts.listAgents?.() ?? "usage: /agent NAME")
      : (this.#opts.checkSwitch?.(target) ?? null);
    if (target !== null && problem === null) {
      this.#decide({ reason: "switch", to: target, exitCode: null });
      return;
    }
    // No switch: erase the typed command from the agent's input box, and once the agent has
    // redrawn its input, answer over its screen, which comes back as it was (answer_screen.ts).
    this.#pty.write(eraseBytes(typed)).catch(() => {});
    const since = performance.now();
    const show = () => {
      if (this.#detached) return; // the terminal belongs to the next agent (or to nobody) now
      const settled = performance.now() - this.#lastOutput > 250;
      if (!settled && performance.now() - since <= 2000) return void setTimeout(show, 50);
      this.#answer.show(
        `uuldana: ${problem!}`,
        `(any key: back to ${this.#opts.profile ?? this.#opts.adapter.name})`,
        this.vt.activeBuffer,
      );
    };
    setTimeout(show, 100);
  }
}

// `CSI I` / `CSI O`: the terminal reports focus in or out (an agent that set ?1004 asked for it).
function _isFocusReport(bytes: Uint8Array): boolean {
  return bytes.length === 3 && bytes[0] === 0x1b && bytes[1] === 0x5b &&
    (bytes[2] === 0x49 || bytes[2] === 0x4f);
}
