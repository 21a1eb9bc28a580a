/**
 * Raw mode and a miniature session in a real outer terminal: tmux. Every case uses its own tmux
 * server socket and kills it in `finally`.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { shellQuote } from "../src/pty/script.ts";
import { denoAgent } from "./fixtures/pty_agents/harness.ts";

let _servers = 0;

/** A detached tmux server of its own running `command` in a 100x30 window. */
class Tmux {
  readonly socket = `uuldana-pty-test-${Deno.pid}-${_servers++}`;

  async start(command: string): Promise<void> {
    await this.tmux("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", command);
  }

  async tmux(...args: string[]): Promise<string> {
    const r = await new Deno.Command("tmux", {
      args: ["-L", this.socket, ...args],
      env: { TERM: "xterm-256color" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!r.success) throw new Error(`tmux ${args[0]}: ${new TextDecoder().decode(r.stderr)}`);
    return new TextDecoder().decode(r.stdout);
  }

  capture(): Promise<string> {
    return this.tmux("capture-pane", "-p");
  }

  /** Kills the server and removes its socket file. */
  async kill(): Promise<void> {
    await this.tmux("kill-server").catch(() => {});
    const dir = `${Deno.env.get("TMUX_TMPDIR") ?? "/tmp"}/tmux-${Deno.uid()}`;
    await Deno.remove(`${dir}/${this.socket}`).catch(() => {});
  }
}

async function waitFile(path: string, pane: Tmux, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      const text = await Deno.readTextFile(path);
      if (text !== "") return text;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(
    `timed out waiting for ${path}; screen:\n${await pane.capture().catch(() => "")}`,
  );
}

async function waitScreen(pane: Tmux, pattern: RegExp, ms = 30_000): Promise<string> {
  const deadline = Date.now() + ms;
  let screen = "";
  while (Date.now() < deadline) {
    screen = await pane.capture();
    if (pattern.test(screen)) return screen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${pattern}; screen:\n${screen}`);
}

const sh = (words: string[]) => words.map(shellQuote).join(" ");

for (const mode of ["crash", "reject", "exit", "finally", "term"]) {
  Deno.test(`raw mode is fully raw and the termios is restored exactly (${mode})`, async () => {
    const dir = await Deno.makeTempDir();
    const pane = new Tmux();
    try {
      const harness = [...denoAgent("raw_harness.ts"), mode, `${dir}/h`];
      await pane.start(
        `stty -a > ${dir}/before; ${sh(harness)}; echo $? > ${dir}/rc; ` +
          `stty -a > ${dir}/after; sleep 600`,
      );
      const raw = await waitFile(`${dir}/h.raw`, pane);
      for (const flag of ["-icanon", "-echo", "-isig", "-opost", "-icrnl", "-ixon"]) {
        assert(raw.split(/[\s;]+/).includes(flag), `${flag} missing in raw mode:\n${raw}`);
      }
      await pane.tmux("send-keys", "C-c");
      assertEquals(JSON.parse(await waitFile(`${dir}/h.key`, pane)), [3]); // no SIGINT: raw
      if (mode === "term") {
        Deno.kill(Number(await waitFile(`${dir}/h.pid`, pane)), "SIGTERM");
      }
      const rc = (await waitFile(`${dir}/rc`, pane)).trim();
      const expected = { crash: "1", reject: "1", exit: "4", finally: "0", term: "143" }[mode];
      assertEquals(rc, expected);
      const before = await Deno.readTextFile(`${dir}/before`);
      assertEquals(await waitFile(`${dir}/after`, pane), before);
      assert(before.split(/[\s;]+/).includes("icanon"), before);
    } finally {
      await pane.kill();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("a miniature session in tmux: agent starts at the terminal's size, follows a resize, keys pass", async () => {
  const dir = await Deno.makeTempDir();
  const pane = new Tmux();
  try {
    const cmd = [...denoAgent("passthrough.ts"), ...denoAgent("size_watch.ts")];
    await pane.start(
      `stty -a > ${dir}/before; ${sh(cmd)}; echo $? > ${dir}/rc; stty -a > ${dir}/after; ` +
        `sleep 600`,
    );
    await waitScreen(pane, /size 100 30/);
    await pane.tmux("resize-window", "-x", "120", "-y", "40");
    await waitScreen(pane, /winch 120 40/);
    await pane.tmux("send-keys", "q");
    assertEquals((await waitFile(`${dir}/rc`, pane)).trim(), "0");
    const screen = await pane.capture();
    // The agent's own "\r\n" line ends were not post-processed twice by our raw terminal.
    assert(/^size 100 30$/m.test(screen), screen);
    assert(/^bye$/m.test(screen), screen);
    const after = await waitFile(`${dir}/after`, pane);
    // Same termios; only the size line changed with the resize.
    const strip = (s: string) => s.replace(/rows \d+; columns \d+;/, "");
    assertEquals(strip(after), strip(await Deno.readTextFile(`${dir}/before`)));
  } finally {
    await pane.kill();
    await Deno.remove(dir, { recursive: true });
  }
});
