/**
 * The user's keyboard: one long-lived reader of stdin whose bytes go to whichever run is current.
 * (stdin can be read by one reader only, and a chain outlives each agent.)
 *
 * @module
 */

/** Where key bytes go. */
export type KeySink = (bytes: Uint8Array) => void;

/** A source of key bytes: the real stdin, or a scripted one (the demo). */
export interface Keyboard {
  /**
   * Routes bytes to `sink` (null: hold them until a sink is set; past a bound, reading stops, so
   * keys wait in the terminal, never dropped).
   */
  setSink(sink: KeySink | null): void;
  /** Stops reading. */
  close(): void;
}

/** Bytes held while no run takes keys (between agents, before the first starts), at most. */
export const HOLD_LIMIT = 64 * 1024;

/**
 * Reads stdin (or `input`) until EOF or `close()`. While no run takes keys it holds what was read;
 * once {@link HOLD_LIMIT} is held it reads no more until a sink is set: what the user typed or
 * pasted meanwhile waits in the terminal's own buffer (the writer blocks), nothing is lost.
 */
export class StdinKeyboard implements Keyboard {
  #sink: KeySink | null = null;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #closed = false;
  /** Resolved when a sink is set or the keyboard closes (a full hold waits on it). */
  #wake: (() => void) | null = null;
  readonly #input: () => ReadableStream<Uint8Array>;

  constructor(input: () => ReadableStream<Uint8Array> = () => Deno.stdin.readable) {
    this.#input = input;
  }

  /** Starts reading in the background. */
  start(): this {
    this.#reader = this.#input().getReader();
    this.#pump();
    return this;
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#closed) {
        if (!this.#sink && this.#heldBytes >= HOLD_LIMIT) {
          await new Promise<void>((resolve) => this.#wake = resolve);
          continue;
        }
        const { value, done } = await this.#reader!.read();
        if (done) break;
        this.#deliver(value);
      }
    } catch {
      // stdin closed under us (terminal hung up): nothing more to forward.
    }
  }

  #deliver(bytes: Uint8Array): void {
    if (this.#sink) {
      // A sink that throws loses these bytes, never the keyboard: the next keys still go.
      try {
        this.#sink(bytes);
      } catch (e) {
        if (Deno.env.get("UULDANA_DEBUG") === "1") console.error(e);
      }
    } else {
      // Never more than HOLD_LIMIT and one read: the pump stops reading at the limit.
      this.#held.push(bytes);
      this.#heldBytes += bytes.length;
    }
  }

  setSink(sink: KeySink | null): void {
    this.#sink = sink;
    if (sink && this.#held.length) {
      const held = this.#held;
      this.#held = [];
      this.#heldBytes = 0;
      for (const b of held) this.#deliver(b);
    }
    if (sink) this.#resume();
  }

  #resume(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  close(): void {
    this.#closed = true;
    this.#resume();
    this.#reader?.cancel().catch(() => {});
    try {
      this.#reader?.releaseLock();
    } catch {
      // a pending read keeps the lock; cancel() above ends it.
    }
  }
}

/** A keyboard that types nothing (used when stdin must not be read). */
export class NoKeyboard implements Keyboard {
  setSink(_sink: KeySink | null): void {}
  close(): void {}
}
