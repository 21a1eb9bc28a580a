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
  /** Routes bytes to `sink` (null: hold them, bounded, until a sink is set). */
  setSink(sink: KeySink | null): void;
  /** Stops reading. */
  close(): void;
}

const _HOLD_LIMIT = 64 * 1024;

/** Reads `Deno.stdin` until EOF or `close()`. */
export class StdinKeyboard implements Keyboard {
  #sink: KeySink | null = null;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  #closed = false;

  /** Starts reading stdin in the background. */
  start(): this {
    this.#reader = Deno.stdin.readable.getReader();
    this.#pump();
    return this;
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#closed) {
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
    } else if (this.#heldBytes + bytes.length <= _HOLD_LIMIT) {
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
  }

  close(): void {
    this.#closed = true;
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
