/**
 * One agent run inside the pty: bytes out to the user's terminal and into the VT interpreter,
 * keys in through the input tracker, limit detection on the screen, quiet detection, and the
 * journal record of the run. The chain (chain.ts) decides what happens after it.
 *
 * @module
 */
import type { Adapter, LimitHit } from "../../adapters/adapter.ts";
import { LimitConfirmation } from "../../adapters/confirm.ts";
import { busySeconds } from "../../adapters/stall.ts";
import type { Journal } from "../journal/journal.ts";
import { type PtyProcess, spawnPty } from "../pty/pty_process.ts";
import { Terminal } from "../vt/mod.ts";
import { restoreSequence } from "../vt/restore.ts";
import { eraseBytes, type InputEvent, InputTracker } from "./input.ts";
import { readInputBox } from "../../adapters/input_box.ts";
import { isLocalCommand, reconcile } from "../capture/reconcile.ts";
import { QuietDetector } from "./quiet.ts";
import type { Keyboard } from "./keyboard.ts";
import { OutputRecording } from "./recording.ts";
import { RecordingFile } from "../journal/recording_file.ts";
import { type ChannelSummary, RunChannel, type RunChannelSetup } from "./run_channel.ts";

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
  | { reason: "stopped"; signal: string; exitCode: number | null };

/** Answers whether `/agent NAME` can switch now; returns an error line to show, or null. */
export type SwitchCheck = (name: string) => string | null;

/** What one run needs. */
export interface AgentRunOptions {
  adapter: Adapter;
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
  /** The clock limit detection resolves reset times against. */
  now?: () => Date;
  /**
   * The agent's structured channel, turned on at launch (its relay, the adapter's declaration,
   * the opening prompts uuldana gave it); `{ off }`: it has one, but not for this launch, and why.
   */
  channel?: RunChannelSetup | { off: string };
  /** One status line for the user (said while the agent runs: sparingly). */
  status?: (line: string) => void;
}

const _DETECT_EVERY_MS = 40;
/**
 * Scrollback rows a run keeps. Only the last 120 lines with text are ever read (the journal, the
 * handoff), and 2,000 rows hold those with room for wrapping: a fifth of the VT's default memory.
 */
const _SCROLLBACK_ROWS = 2_000;
/** Output reaches the recording's file at most this long after it was shown (if uuldana is killed). */
const _RECORDING_FLUSH_MS = 2_000;
const _encoder = new TextEncoder();

/** A running agent. Create with `AgentRun.start`. */
export class AgentRun {
  /** The journal id of this run. */
  readonly runId: number;
  /** The VT interpreter fed with everything the agent printed. */
  readonly vt: Terminal;
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
  readonly #recording: OutputRecording;
  #recordingFile: RecordingFile | null = null;
  #recordingFlush: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters = new Set<() => void>();
  #decided: RunOutcome | null = null;
  /** The agent's process is gone (it may have ended on its own, undecided). */
  #exited = false;
  #resolveOutcome!: (outcome: RunOutcome) => void;
  /** Once detached, the agent's output no longer reaches the user's terminal. */
  #detached = false;
  #detectTimer: ReturnType<typeof setTimeout> | undefined;
  /** A limit is acted on only once the agent has finished showing it (stopped writing). */
  readonly #confirm = new LimitConfirmation();
  #confirmTimer: ReturnType<typeof setTimeout> | undefined;
  #lastDetect = 0;
  #lastOutput = performance.now();
  /** The last alternate-screen lines with text: full-screen agents erase them when they exit. */
  #altLines: string[] = [];
  /** Screen lines taken when the run's end was decided, before the agent is asked to quit. */
  #decidedLines: string[] | null = null;
  /** The agent's structured channel, when on for this run. */
  readonly #channel: RunChannel | null = null;

  private constructor(opts: AgentRunOptions, runId: number, pty: PtyProcess) {
    this.#opts = opts;
    this.runId = runId;
    this.#pty = pty;
    this.#input = new InputTracker({ backslashEnter: opts.adapter.inputBox?.backslashEnter });
    this.vt = new Terminal({ cols: opts.cols, rows: opts.rows, scrollback: _SCROLLBACK_ROWS });
    this.#quiet = new QuietDetector(performance.now(), { quietMs: opts.quietMs ?? 1500 });
    this.#recording = this.#startRecording();
    this.#channel = this.#startChannel();
    this.outcome = new Promise((resolve) => this.#resolveOutcome = resolve);
    this.ended = this.#supervise();
  }

  /** Records the run in the journal and starts the agent. */
  static async start(opts: AgentRunOptions): Promise<AgentRun> {
    const runId = opts.journal.startRun({
      agent: opts.adapter.name,
      bin: opts.argv[0],
      workspace: opts.workspace,
      transport: "pty",
    });
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

  /** Sends bytes to the agent as if typed. */
  write(bytes: Uint8Array | string): Promise<void> {
    return this.#pty.write(typeof bytes === "string" ? _encoder.encode(bytes) : bytes);
  }

  /** Whether the agent has been silent for the quiet interval (and is not mid-update). */
  isQuiet(): boolean {
    return this.#quiet.isQuiet(performance.now());
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
    this.vt.resize(cols, rows);
    await this.#pty.resize(cols, rows).catch(() => {});
  }

  /** Ends the run from outside (a signal to uuldana): the agent is stopped. */
  stop(signal: string): Promise<RunOutcome> {
    this.#decide({ reason: "stopped", signal, exitCode: null });
    return this.outcome;
  }

  #decide(outcome: RunOutcome): void {
    if (this.finished) return;
    clearTimeout(this.#confirmTimer);
    this.#decided = outcome;
    // What the channel published up to now belongs to this run's conversation (its last reply).
    this.#channel?.close();
    this.#decidedLines = this.#screenLines();
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
        if (!this.#detached) user.write(chunk);
        this.vt.write(chunk);
        this.#recording.add(chunk, now);
        this.#recordingFlush ??= setTimeout(() => {
          this.#recordingFlush = undefined;
          this.#recording.flush();
        }, _RECORDING_FLUSH_MS);
        this.#quiet.output(now, this.vt.inSynchronizedUpdate);
        this.#scheduleDetect();
        this.#wakeWaiters();
      }
    } finally {
      clearTimeout(this.#detectTimer);
      clearTimeout(this.#confirmTimer);
      clearTimeout(this.#recordingFlush);
    }
    // The throttled look may still be pending: a limit printed just before the agent quit counts,
    // as shown (no more output can complete it).
    this.#detect(true);
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
      });
    } catch (e) {
      this.#opts.status?.(
        `${this.#opts.adapter.name}'s channel could not start (${(e as Error)?.message ?? e}); ` +
          "uuldana reads its screen only",
      );
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
  #startRecording(): OutputRecording {
    const { journal, cols, rows } = this.#opts;
    let path = "of this run";
    const stopped = (e: unknown) =>
      journal.notice(
        `the recording ${path} stopped (${(e as Error)?.message ?? e}); the run goes on unrecorded`,
      );
    try {
      path = journal.startOutput(this.runId, { cols, rows });
      const file = RecordingFile.create(path);
      this.#recordingFile = file;
      return new OutputRecording((member) => {
        try {
          file.append(member);
        } catch (e) {
          stopped(e); // the recording stops at this member: said once
          throw e;
        }
      });
    } catch (e) {
      stopped(e);
      const unrecorded = new OutputRecording(() => {});
      unrecorded.stop();
      return unrecorded;
    }
  }

  /** The last 120 lines with text, including what a full-screen agent last showed. */
  #screenLines(): string[] {
    this.#noteAltScreen();
    const lines = [...this.vt.lastLines(120), ...this.#altLines];
    return lines.slice(-120);
  }

  #noteAltScreen(): void {
    if (this.vt.activeBuffer !== "alternate") return;
    const lines = this.vt.logicalScreenLines().map((l) => l.trimEnd()).filter((l) =>
      l.trim() !== ""
    );
    if (lines.length) this.#altLines = lines;
  }

  #record(outcome: RunOutcome): void {
    const { journal } = this.#opts;
    this.#channel?.close();
    journal.saveScreen(this.runId, this.#decidedLines ?? this.#screenLines(), {
      cols: this.vt.cols,
      rows: this.vt.rows,
    });
    journal.finishOutput(this.runId, this.#recording.finish());
    this.#recordingFile?.close();
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
    // The agent's own prompt event gives the exact text; slash commands fire none.
    if (!turn.text.trimStart().startsWith("/") && this.#channel?.submit(turn)) return;
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
    // redrawn its input, tell the user (printed earlier, the redraw would paint over it).
    this.#pty.write(eraseBytes(typed)).catch(() => {});
    const message = _encoder.encode(`\r\n${problem!.replaceAll("\n", "\r\n")}\r\n`);
    const since = performance.now();
    const show = () => {
      if (this.#detached) return; // the terminal belongs to the next agent (or to nobody) now
      const settled = performance.now() - this.#lastOutput > 250;
      if (settled || performance.now() - since > 2000) this.#opts.user.write(message);
      else setTimeout(show, 50);
    };
    setTimeout(show, 100);
  }

  #scheduleDetect(): void {
    if (this.#detectTimer !== undefined || this.#decided) return;
    const wait = Math.max(0, this.#lastDetect + _DETECT_EVERY_MS - performance.now());
    this.#detectTimer = setTimeout(() => {
      this.#detectTimer = undefined;
      this.#lastDetect = performance.now();
      this.#detect();
    }, wait);
  }

  /** Looks for a limit; `ended`: the output is over, so what the screen shows is complete. */
  #detect(ended = false): void {
    if (this.finished) return;
    this.#noteAltScreen();
    const lines = this.vt.logicalScreenLines();
    const found = this.#opts.adapter.detectLimit(lines, {
      now: this.#opts.now?.() ?? new Date(),
      delivered: this.#opts.delivered,
      // Some agents wrap their own long lines at the width: the detector re-joins those rows.
      cols: this.vt.cols,
    });
    const handOff = (h: LimitHit) =>
      this.#opts.shouldHandOff ? this.#opts.shouldHandOff(h) : h.kind === "usage";
    // An agent that quit right after showing a limit (Codex clears it on exit) still counts.
    const hit = found ?? (ended ? this.#confirm.pending : null);
    const now = performance.now();
    const verdict = this.#confirm.observe(
      hit && handOff(hit) ? hit : null,
      now,
      now - this.#lastOutput,
    );
    if (verdict.action === "act" || (ended && hit && handOff(hit))) {
      this.#decide({
        reason: "limit",
        limit: verdict.action === "act" ? verdict.hit : hit!,
        exitCode: null,
      });
      return;
    }
    if (verdict.action === "wait") {
      // Look again once the message had time to complete, even if the agent prints nothing more.
      clearTimeout(this.#confirmTimer);
      this.#confirmTimer = setTimeout(() => this.#detect(), verdict.retryInMs);
      return;
    }
    if (!found) this.#checkStall(lines);
  }

  // Agents that retry silently (Gemini capacity errors, Qwen) show only a spinner with a timer.
  #checkStall(lines: readonly string[]): void {
    const limit = this.#opts.stallSeconds;
    if (limit === undefined) return;
    const busy = busySeconds(this.#opts.adapter, lines);
    if (busy === null || busy < limit) return;
    const message = `${this.#opts.adapter.displayName} was busy for ${busy} s with no answer ` +
      `(it may be retrying silently; stall rule: ${limit} s)`;
    this.#decide({ reason: "stall", message, exitCode: null });
  }
}
