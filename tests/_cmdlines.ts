/**
 * Samples the process table the way any local user can read it, to prove that no command line
 * holds what must stay private (a handoff's frame, its nonce, the conversation).
 *
 * @module
 */

/**
 * Reads every process's command line (/proc/PID/cmdline), as `ps` shows it to any local user,
 * every `everyMs` until stopped, and keeps each distinct one; with `cwdUnder`, also which of them
 * ran in a folder under it (/proc/PID/cwd): the processes of one world, among other users' runs.
 */
export class CmdlineSampler {
  readonly #seen = new Set<string>();
  readonly #ours = new Set<string>();
  #running = true;
  readonly #done: Promise<void>;

  constructor(everyMs = 20, cwdUnder?: string) {
    const decoder = new TextDecoder();
    this.#done = (async () => {
      while (this.#running) {
        for (const entry of Deno.readDirSync("/proc")) {
          if (!/^\d+$/.test(entry.name)) continue;
          try {
            const raw = Deno.readFileSync(`/proc/${entry.name}/cmdline`);
            if (!raw.length) continue;
            const line = decoder.decode(raw).replaceAll("\0", " ");
            this.#seen.add(line);
            if (cwdUnder && Deno.readLinkSync(`/proc/${entry.name}/cwd`).startsWith(cwdUnder)) {
              this.#ours.add(line);
            }
          } catch {
            // gone meanwhile
          }
        }
        await new Promise((r) => setTimeout(r, everyMs));
      }
    })();
  }

  /** Stops sampling and returns every distinct command line seen. */
  async stop(): Promise<string[]> {
    this.#running = false;
    await this.#done;
    return [...this.#seen];
  }

  /** The command lines of processes that ran under `cwdUnder` (after `stop`). */
  ours(): string[] {
    return [...this.#ours];
  }
}
