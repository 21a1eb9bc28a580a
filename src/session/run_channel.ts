/**
 * One run's channel, in the session: follows the run's channel folder on a timer, turns each
 * record into uuldana's events with the adapter's parser, and carries out what the channel
 * conversation (`src/capture/channel_turns.ts`) decides — exact user turns and replies into the
 * journal, refusals counted — and hands every event on (to limit detection). It says once on the
 * status line when the channel is silent or drops a record. Nothing here may stop keys reaching
 * the agent or its output reaching the user: every step is caught, and a channel that fails is
 * read no more (the screen goes on).
 *
 * @module
 */
import type {
  AgentChannel,
  ChannelEvent,
  ChannelParser,
  ChannelRelay,
} from "../../adapters/channel.ts";
import { ChannelTurns, type TurnOutput } from "../capture/channel_turns.ts";
import type { Submitted } from "../capture/reconcile.ts";
import type { Journal, RunChannelRecord } from "../journal/journal.ts";
import { ChannelReader, type DropReason } from "./channel_reader.ts";
import type { OtlpReceiver } from "./otlp_receiver.ts";

/** How often the channel folder is looked at. */
export const CHANNEL_LOOK_MS = 25;

/** Tool calls kept per run, at most; the rest are counted (`dropped.actions`), not kept. */
export const RUN_ACTIONS_MAX = 5_000;

/** What a run's channel did, as the journal keeps it with the run. */
export type ChannelSummary = RunChannelRecord;

/** A run's channel as the launch turned it on. */
export interface RunChannelSetup {
  relay: ChannelRelay;
  spec: AgentChannel;
  /** The prompts uuldana itself gave the agent (its opening argument, a kickoff). */
  ownPrompts?: string[];
  /** The agent starts working on a turn at once. */
  turnOpen?: boolean;
  /** The run's telemetry receiver (the channel's second road), when on. */
  receiver?: OtlpReceiver;
  /** Why the channel's telemetry road is off for this launch, when it has one. */
  telemetryOff?: string;
}

/** What a run's channel needs. */
export interface RunChannelOptions {
  relay: ChannelRelay;
  spec: AgentChannel;
  journal: Journal;
  runId: number;
  /** The agent's name, for what is said. */
  agent: string;
  /** The opening prompts uuldana gave the agent itself (its argument, a kickoff). */
  ownPrompts?: string[];
  /** The agent starts on a turn at once (an opening prompt). */
  turnOpen?: boolean;
  /**
   * The run's telemetry receiver: its records are read with the folder's, through the same
   * parser, until the channel closes; the caller closes it once the agent is gone.
   */
  receiver?: OtlpReceiver;
  /** Why the channel's telemetry road is off (said once, kept with the run). */
  telemetryOff?: string;
  /** One status line for the user. */
  status?(line: string): void;
  /**
   * Every event the conversation trusts, in order, with its time (ms on `now`'s clock): not a
   * prompt uuldana saw no submit for (nor the busy of its record), nor a reply outside a turn.
   */
  onEvent?(event: ChannelEvent, atMs: number): void;
  /** The clock (ms). */
  now?(): number;
  /** The clock reset times are resolved against. */
  clock?(): Date;
  /** Tool calls kept at most (default {@link RUN_ACTIONS_MAX}); the rest are counted. */
  actionsMax?: number;
}

/** A run's channel. */
export class RunChannel {
  readonly #opts: RunChannelOptions;
  readonly #reader: ChannelReader;
  readonly #parser: ChannelParser;
  readonly #turns: ChannelTurns;
  readonly #now: () => number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** A step failed: the channel is read no more. */
  #broken: string | null = null;
  readonly #said = new Set<string>();
  #actions = 0;
  readonly #summary: ChannelSummary = {
    state: "on",
    records: 0,
    dropped: {},
    ignored: 0,
    differs: 0,
  };

  constructor(opts: RunChannelOptions) {
    this.#opts = opts;
    this.#reader = new ChannelReader(opts.relay.dir);
    this.#parser = opts.spec.parser();
    this.#turns = new ChannelTurns({ ownPrompts: opts.ownPrompts, turnOpen: opts.turnOpen });
    this.#now = opts.now ?? (() => performance.now());
    if (opts.telemetryOff) {
      this.#summary.telemetry = { state: "off", why: opts.telemetryOff };
      this.#sayOnce(
        "telemetry-off",
        `${opts.agent}'s telemetry channel is off (${opts.telemetryOff}); ` +
          "uuldana hears its hooks and reads its screen",
      );
    } else if (opts.receiver) this.#summary.telemetry = { state: "on" };
    this.#schedule(CHANNEL_LOOK_MS);
  }

  /** Whether the channel has said anything in this run. */
  get heard(): boolean {
    return this.#turns.heard;
  }

  /** Whether a turn uuldana saw start is in progress, as the channel tells it. */
  get turnOpen(): boolean {
    return this.#turns.turnOpen;
  }

  /** The run's channel, summed up. */
  get summary(): ChannelSummary {
    const s = { ...this.#summary };
    const stats = this.#opts.receiver?.stats;
    if (stats && s.telemetry) {
      s.telemetry = { ...s.telemetry, records: stats.kept, dropped: { ...stats.dropped } };
    }
    if (this.#broken) return { ...s, state: "silent", why: this.#broken };
    if (this.#turns.silent || (!this.#turns.heard && this.#closed)) {
      return { ...s, state: "silent", why: s.why ?? "no event came from its hooks" };
    }
    return { ...s };
  }

  /**
   * The user submitted `turn` (not a slash command, not one the agent runs itself): the channel
   * takes it to pair with the agent's own prompt event. Returns false when the channel cannot (it
   * is broken or closed): the caller journals the keys itself.
   */
  submit(turn: Submitted): boolean {
    if (this.#broken || this.#closed) return false;
    this.#carry(() => this.#apply(this.#turns.submit(turn, this.#now())));
    return !this.#broken;
  }

  /**
   * The user submitted a slash command (no event fires for it): journaled as typed, after the
   * submits still waiting before it. Returns false when the channel cannot take it (broken or
   * closed): the caller journals it itself.
   */
  command(turn: Submitted): boolean {
    if (this.#broken || this.#closed) return false;
    this.#carry(() => this.#apply(this.#turns.command(turn, this.#now())));
    return !this.#broken;
  }

  /** Reads everything published so far and handles it now (before the run's end is decided). */
  catchUp(): void {
    this.#look(true);
  }

  /**
   * The run is over or handing off: what was published is read, every submit still waiting is
   * journaled as typed, the folder is read no more.
   */
  close(): void {
    if (this.#closed) return;
    this.#look(true);
    this.#carry(() => this.#apply(this.#turns.flush()));
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#reader.close();
    // The receiver is not closed here: the agent may still be quitting, and Qwen waits up to 10 s
    // at its exit for telemetry it cannot post. Its owner closes it once the agent is gone.
  }

  #schedule(ms: number): void {
    if (this.#closed || this.#broken) return;
    this.#timer = setTimeout(() => {
      const more = this.#look(false);
      this.#schedule(more ? 0 : CHANNEL_LOOK_MS);
    }, ms);
    // A channel never keeps uuldana alive on its own.
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  // One look at the folder (all of it when `all`); true when more is waiting.
  #look(all: boolean): boolean {
    if (this.#broken) return false;
    let more = false;
    this.#carry(() => {
      do {
        const look = this.#reader.look();
        for (const drop of look.drops) this.#drop(drop.reason, drop.detail);
        // The telemetry road's records, in the order they came, after the folder's.
        const heard = this.#opts.receiver?.events() ?? [];
        const told = heard.map((r) => ({ name: r.name, data: r.attributes }));
        for (const record of [...look.records, ...told]) {
          this.#summary.records++;
          const at = this.#now();
          const events = this.#parser.parse(record, { now: this.#opts.clock?.() ?? new Date() });
          // A prompt refused refuses the rest of its record (the turn it would start).
          let refused = false;
          for (const event of events) refused = this.#event(event, at, refused);
        }
        more = look.more;
      } while (all && more);
      this.#apply(this.#turns.tick(this.#now()));
    });
    return more;
  }

  // Handles one event; only those the conversation trusts go on to detection. Returns whether
  // the record's prompt was refused.
  #event(event: ChannelEvent, atMs: number, refused: boolean): boolean {
    if (event.type === "tool") this.#action(event);
    const outs = this.#turns.event(event, atMs);
    this.#apply(outs);
    const refusedNow = outs.some((o) => o.kind === "ignored" || o.kind === "differs");
    if (event.type === "prompt" || event.type === "reply") refused = refusedNow;
    if (refused && (event.type === "prompt" || event.type === "reply" || event.type === "busy")) {
      return refused;
    }
    try {
      this.#opts.onEvent?.(event, atMs);
    } catch (e) {
      this.#fail(e);
    }
    return refused;
  }

  #apply(outputs: TurnOutput[]): void {
    const { journal, runId, agent } = this.#opts;
    for (const out of outputs) {
      switch (out.kind) {
        case "entry":
          journal.addEntry(runId, out.entry);
          break;
        case "ignored":
          this.#summary.ignored++;
          this.#sayOnce(
            `ignored-${out.event}`,
            `ignored a ${out.event} event on ${agent}'s channel (${out.why}); ` +
              "anything in the agent's folder can write there",
          );
          break;
        case "differs":
          this.#summary.differs++;
          this.#sayOnce(
            "differs",
            `${agent}'s channel reported a prompt other than the one typed; the typed one is kept`,
          );
          break;
        case "silent":
          this.#summary.why = out.why;
          this.#sayOnce(
            "silent",
            `${agent}'s channel is silent (${out.why}: its hooks may be off); ` +
              "uuldana reads its screen only",
          );
          break;
      }
    }
  }

  // A tool call goes to the journal for the handoff's "What was done", up to the bound.
  #action(event: Extract<ChannelEvent, { type: "tool" }>): void {
    const max = this.#opts.actionsMax ?? RUN_ACTIONS_MAX;
    if (this.#actions >= max) {
      const d = this.#summary.dropped;
      d.actions = (d.actions ?? 0) + 1;
      this.#sayOnce(
        "actions",
        `${this.#opts.agent}'s channel reported more than ${max} tool calls; ` +
          "the later ones are counted, not kept",
      );
      return;
    }
    this.#actions++;
    const { turn: _turn, type: _type, ...action } = event;
    this.#opts.journal.addAction(this.#opts.runId, action);
  }

  #drop(reason: DropReason, detail: string): void {
    const d = this.#summary.dropped;
    d[reason] = (d[reason] ?? 0) + 1;
    this.#sayOnce(
      "drop",
      `dropped a ${reason} record on ${this.#opts.agent}'s channel (${detail}); ` +
        "the count is kept with the run",
    );
  }

  #sayOnce(key: string, line: string): void {
    if (this.#said.has(key)) return;
    this.#said.add(key);
    try {
      this.#opts.status?.(line);
    } catch { /* a status line never stops the run */ }
  }

  // Runs a step; one that throws breaks the channel (said once), never the run.
  #carry(step: () => void): void {
    try {
      step();
    } catch (e) {
      this.#fail(e);
    }
  }

  #fail(e: unknown): void {
    if (this.#broken) return;
    this.#broken = `its reader failed: ${(e as Error)?.message ?? e}`;
    clearTimeout(this.#timer);
    // The submits that waited for it are kept as typed now.
    try {
      this.#apply(this.#turns.flush());
    } catch { /* the journal is resilient; nothing more to do */ }
    this.#sayOnce(
      "broken",
      `${this.#opts.agent}'s channel stopped (${this.#broken}); uuldana reads its screen only`,
    );
  }
}
