/**
 * One run's agent debug log (`Adapter.debugLog`, Gemini CLI's): follows the file the launch named
 * on a timer, turns each line into events with the adapter's parser and hands them on, with their
 * time, to limit detection (and so to the recording: a replay hears them at the same times). It
 * carries no conversation. Nothing here may stop keys reaching the agent or its output reaching
 * the user: a step that throws stops the reading (the screen goes on).
 *
 * @module
 */
import type { ChannelEvent, DebugLogParser } from "../../adapters/channel.ts";
import { LogFollower } from "./log_follower.ts";

/** How often the debug log is looked at. */
export const DEBUG_LOG_LOOK_MS = 50;

/** A run's debug log as the launch turned it on. */
export interface RunDebugLogSetup {
  /** The file the agent writes (in the run's private folder). */
  file: string;
  /** The adapter's parser for it. */
  parser: DebugLogParser;
}

/** Follows one run's debug log. */
export class RunDebugLog {
  readonly #follower: LogFollower;
  readonly #parser: DebugLogParser;
  readonly #onEvent: (event: ChannelEvent, atMs: number) => void;
  readonly #now: () => number;
  readonly #clock: () => Date;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(
    setup: RunDebugLogSetup,
    opts: {
      onEvent(event: ChannelEvent, atMs: number): void;
      now(): number;
      clock?(): Date;
    },
  ) {
    this.#follower = new LogFollower(setup.file);
    this.#parser = setup.parser;
    this.#onEvent = opts.onEvent;
    this.#now = opts.now;
    this.#clock = opts.clock ?? (() => new Date());
    this.#schedule(DEBUG_LOG_LOOK_MS);
  }

  /** Reads what is there now and stops. */
  close(): void {
    if (this.#closed) return;
    this.#look();
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#follower.close();
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      const more = this.#look();
      this.#schedule(more ? 0 : DEBUG_LOG_LOOK_MS);
    }, ms);
    Deno.unrefTimer(this.#timer as unknown as number);
  }

  // One look; true when more is waiting.
  #look(): boolean {
    if (this.#closed) return false;
    try {
      const look = this.#follower.look();
      for (const line of look.lines) {
        for (const event of this.#parser.line(line, { now: this.#clock() })) {
          this.#onEvent(event, this.#now());
        }
      }
      return look.more;
    } catch {
      this.#closed = true;
      this.#follower.close();
      return false;
    }
  }
}
