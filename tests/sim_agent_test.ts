/**
 * The simulated agents run for real: installed as wrapper scripts, started under util-linux
 * `script` (a real pty) or tmux, driven with real bytes, checked on their output and their log.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { installSimAgents, selfArgv } from "../src/sim/install.ts";
import { readSimLog, type SimEvent } from "../src/sim/log.ts";
import { CLAUDE_CHANNEL_EVENTS } from "../adapters/channels/claude.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const SELF = [
  Deno.execPath(),
  "run",
  "-A",
  "--config",
  `${ROOT}deno.json`,
  `${ROOT}src/sim/main.ts`,
];
const DEADLINE_MS = 60_000;

function _sh(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

const _ANSI = new RegExp(
  [
    "\x1b\\[[0-9;?<>=]*[ -/]*[@-~]", // CSI
    "\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)", // OSC
    "\x1b[()][0-9A-Za-z]",
    "\x1b[=>78]",
  ].join("|"),
  "g",
);

/** One temp dir with the installed wrappers, a log and a state dir. */
function setup(): {
  dir: string;
  bin: Record<string, string>;
  log: string;
  env: Record<string, string>;
} {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-sim-test-" });
  const bin = installSimAgents(join(dir, "bin"), ["claude", "codex", "gemini", "opencode"], SELF);
  const log = join(dir, "agent.jsonl");
  return {
    dir,
    bin,
    log,
    env: { SIM_AGENT_LOG: log, SIM_STATE_DIR: join(dir, "state"), TERM: "xterm-256color" },
  };
}

async function waitFor(cond: () => boolean, what: string, dump: () => string): Promise<void> {
  const end = Date.now() + DEADLINE_MS;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- seen:\n${dump()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A program running in a real pty made by `script`, at 120x40. */
class ScriptPty {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reading: Promise<void>;
  raw = "";

  constructor(argv: string[], env: Record<string, string>, cwd: string) {
    const cmd = `stty cols 120 rows 40; exec ${argv.map(_sh).join(" ")}`;
    this.#child = new Deno.Command("script", {
      args: ["-q", "-f", "-e", "-c", cmd, "/dev/null"],
      env,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    const stdout = this.#child.stdout;
    this.#reading = (async () => {
      const dec = new TextDecoder();
      for await (const chunk of stdout) this.raw += dec.decode(chunk, { stream: true });
    })();
  }

  /** The output with escape sequences removed. */
  get text(): string {
    return this.raw.replace(_ANSI, "");
  }

  async send(s: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(s));
  }

  async waitText(needle: string): Promise<void> {
    await waitFor(() => this.text.includes(needle), JSON.stringify(needle), () => this.text);
  }

  async waitRaw(needle: string): Promise<void> {
    await waitFor(() => this.raw.includes(needle), JSON.stringify(needle), () => this.raw);
  }

  async exit(): Promise<number> {
    const status = await this.#child.status;
    await this.#reading;
    await this.#writer.close().catch(() => {});
    return status.code;
  }

  kill(): void {
    try {
      this.#child.kill("SIGKILL");
    } catch { /* gone */ }
  }
}

function events(log: string, name: string): SimEvent[] {
  return readSimLog(log).filter((e) => e.event === name);
}

async function withSetup(fn: (s: ReturnType<typeof setup>) => Promise<void>): Promise<void> {
  const s = setup();
  try {
    await fn(s);
  } finally {
    await _removeWhenQuiet(s.dir);
  }
}

// An agent the closed terminal hung up on may still write its log for a moment.
async function _removeWhenQuiet(dir: string): Promise<void> {
  for (let tries = 0;; tries++) {
    try {
      return Deno.removeSync(dir, { recursive: true });
    } catch (e) {
      if (tries >= 10) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

Deno.test("selfArgv names this deno, its config and the main module", () => {
  const argv = selfArgv();
  assertEquals(argv[0], Deno.execPath());
  assertEquals(argv.slice(1, 4), ["run", "-A", "--config"]);
  ok(argv[4].endsWith("/deno.json"));
});

Deno.test("--help shows the real proof line, SIM_HELP_WITHOUT_PROMPT removes it", async () => {
  await withSetup(async ({ bin, env }) => {
    const proof: Record<string, RegExp> = {
      claude: /^Usage: claude \[options\] \[command\] \[prompt\]/m,
      codex: /^Usage: codex \[OPTIONS\] \[PROMPT\]/m,
      gemini: /^\s+-i, --prompt-interactive\b/m,
      opencode: /^\s+--prompt\s+prompt to use/m,
    };
    for (const [name, re] of Object.entries(proof)) {
      const run = async (extra: Record<string, string>) =>
        new TextDecoder().decode(
          (await new Deno.Command(bin[name], { args: ["--help"], env: { ...env, ...extra } })
            .output())
            .stdout,
        );
      ok(re.test(await run({})), `${name} help has its proof line`);
      ok(!re.test(await run({ SIM_HELP_WITHOUT_PROMPT: "1" })), `${name} help without it`);
    }
    const v = await new Deno.Command(bin.claude, { args: ["--version"], env }).output();
    assertEquals(new TextDecoder().decode(v.stdout), "2.1.197-sim (Claude Code)\n");
  });
});

Deno.test("claude: opening prompt echoed, paste stays in the box, Enter submits, Ctrl-C twice exits", async () => {
  await withSetup(async ({ dir, bin, log, env }) => {
    const pty = new ScriptPty([bin.claude, "--bogus-flag", "first task"], env, dir);
    try {
      await pty.waitRaw("\x1b[?2004h");
      await pty.waitText("❯ first task");
      await pty.waitText("Working on: first task");
      await pty.send("\x1b[200~pasted line one\npasted line two\x1b[201~");
      await pty.waitText("  pasted line two");
      // The paste is recorded and nothing was submitted for it.
      await waitFor(() => events(log, "paste").length === 1, "paste event", () => pty.text);
      assertEquals(events(log, "paste")[0].text, "pasted line one\npasted line two");
      assertEquals(events(log, "submit").map((e) => e.text), ["first task"]);
      await pty.send("\r");
      await pty.waitText("Working on: pasted line one pasted line two");
      assertEquals(events(log, "submit").map((e) => e.turn), [1, 2]);
      await pty.send("\x03");
      await pty.waitText("Press Ctrl-C again to exit");
      await pty.send("\x03");
      assertEquals(await pty.exit(), 0);
    } finally {
      pty.kill();
    }
    const start = events(log, "start")[0];
    assertEquals(start.argv, ["--bogus-flag", "first task"]);
    assertEquals(start.unknown, ["--bogus-flag"]);
    assertEquals(start.size, { cols: 120, rows: 40 });
    assertEquals(events(log, "exit").at(-1)?.code, 0);
    const inputs = events(log, "input").map((e) => e.bytes).join("");
    assertEquals(inputs, "\x1b[200~pasted line one\npasted line two\x1b[201~\r\x03\x03");
  });
});

Deno.test("claude: the SessionStart hook runs with the documented stdin and its context is recorded", async () => {
  await withSetup(async ({ dir, bin, log, env }) => {
    const hook = join(dir, "hook.sh");
    const seen = join(dir, "hook-stdin.json");
    const context = "HANDOFF (untrusted)\nOriginal request: port the parser\nUser: port the parser";
    const out = JSON.stringify({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
    });
    Deno.writeTextFileSync(hook, `#!/bin/sh\ncat > ${_sh(seen)}\nprintf '%s\\n' ${_sh(out)}\n`);
    Deno.chmodSync(hook, 0o755);
    const settings = JSON.stringify({
      hooks: {
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: hook }] }],
      },
    });
    const pty = new ScriptPty(
      [bin.claude, "--settings", settings, "continue"],
      { ...env, SIM_LIMIT_AFTER: "2", SIM_RESET_AT: "4:15am" },
      dir,
    );
    try {
      await pty.waitText("Continuing from the handoff: port the parser");
      await pty.send("next step\r");
      // The real layout: ⎿, a space, U+00A0.
      await pty.waitText("  ⎿ \u00a0You've hit your session limit · resets 4:15am (UTC)");
      await pty.waitText("❯ 1. Stop and wait for limit to reset");
      await pty.send("/quit\r"); // keys go to the menu first (like the real dialog)…
      await pty.send("\x03\x03");
      assertEquals(await pty.exit(), 0);
    } finally {
      pty.kill();
    }
    const stdin = JSON.parse(Deno.readTextFileSync(seen));
    assertEquals(Object.keys(stdin).sort(), [
      "cwd",
      "hook_event_name",
      "model",
      "session_id",
      "source",
      "transcript_path",
    ]);
    assertEquals([stdin.hook_event_name, stdin.source, stdin.cwd], [
      "SessionStart",
      "startup",
      Deno.realPathSync(dir),
    ]);
    const h = events(log, "hook")[0];
    assertEquals(h.additionalContext, context);
    assertEquals(h.modelReceived, `SessionStart hook additional context: ${context}`);
    assertEquals(events(log, "limit").map((e) => e.turn), [2]);
  });
});

Deno.test("codex: alt screen, --no-daemon recorded, the real limit message on turn 1", async () => {
  await withSetup(async ({ dir, bin, log, env }) => {
    const pty = new ScriptPty([bin.codex, "--no-daemon", "hello from handoff"], {
      ...env,
      SIM_LIMIT_AFTER: "1",
    }, dir);
    try {
      await pty.waitRaw("\x1b[?1049h");
      await pty.waitText("› hello from handoff");
      await pty.waitText(
        "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/",
      );
      await pty.waitText("usage to purchase more credits or try again at 3:02 AM.");
      await pty.send("/quit\r");
      assertEquals(await pty.exit(), 0);
    } finally {
      pty.kill();
    }
    ok(pty.raw.includes("\x1b[?1049l"), "leaves the alternate screen");
    assertEquals(events(log, "start")[0].flags, ["--no-daemon"]);
  });
});

Deno.test("gemini: -i prompt and the quota dialog", async () => {
  await withSetup(async ({ dir, bin, env }) => {
    const pty = new ScriptPty(
      [bin.gemini, "-i", "do the thing"],
      { ...env, SIM_LIMIT_AFTER: "1" },
      dir,
    );
    try {
      await pty.waitText(" > do the thing");
      await pty.waitText("│ Usage limit reached for all Pro models.");
      await pty.waitText("│ Access resets at 3:06 AM UTC.");
      await pty.waitText("│ ● 1. Keep trying");
      await pty.send("\x03\x03");
      assertEquals(await pty.exit(), 0);
    } finally {
      pty.kill();
    }
  });
});

Deno.test("opencode: import validates and stores, -s opens the session, --prompt dropped with -s", async () => {
  await withSetup(async ({ dir, bin, log, env }) => {
    const id = "ses_handoff000000000000000001";
    const doc = {
      info: {
        id,
        slug: "handoff",
        title: "Handoff",
        directory: dir,
        version: "1.18.33",
        time: { created: 1, updated: 1 },
      },
      messages: [{
        info: {
          id: "msg_1",
          sessionID: id,
          role: "user",
          time: { created: 1 },
          agent: "build",
          model: { providerID: "opencode", modelID: "big-pickle" },
        },
        parts: [{
          id: "prt_1",
          sessionID: id,
          messageID: "msg_1",
          type: "text",
          text: "Handoff\nOriginal request: port the parser",
        }],
      }],
    };
    const file = join(dir, "export.json");
    const bad = join(dir, "bad.json");
    Deno.writeTextFileSync(file, JSON.stringify(doc));
    Deno.writeTextFileSync(bad, JSON.stringify({ ...doc, info: { ...doc.info, slug: undefined } }));
    const dec = new TextDecoder();
    const refused = await new Deno.Command(bin.opencode, { args: ["import", bad], env, cwd: dir })
      .output();
    assertEquals(refused.code, 1);
    ok(dec.decode(refused.stderr).includes('Missing key at ["slug"]'));
    const imported = await new Deno.Command(bin.opencode, { args: ["import", file], env, cwd: dir })
      .output();
    assertEquals([imported.code, dec.decode(imported.stdout)], [0, `Imported session: ${id}\n`]);

    const pty = new ScriptPty(
      [bin.opencode, "-s", id, "--prompt", "ignored"],
      { ...env, SIM_LIMIT_AFTER: "2", SIM_RETRY_MS: "200" },
      dir,
    );
    try {
      await pty.waitText("┃  Original request: port the parser");
      await pty.send("go on\r");
      await pty.waitText("Continuing from the handoff: port the parser");
      await pty.send("more\r");
      await pty.waitText("Rate limit reached for requests [retrying in 13s attempt #1]");
      await pty.waitText("Rate limit reached for requests [retrying in 13s attempt #3]");
      await pty.send("\x03\x03");
      assertEquals(await pty.exit(), 0);
    } finally {
      pty.kill();
    }
    const starts = events(log, "start");
    assertEquals(starts.at(-1)?.droppedPrompt, "ignored");
    assertEquals(
      events(log, "import")[1].firstMessage,
      "Handoff\nOriginal request: port the parser",
    );
    assertEquals(events(log, "submit").map((e) => e.text), ["go on", "more"]);
  });
});

Deno.test({
  name: "claude under tmux: SIGWINCH redraws at the new size and is recorded",
  ignore: !_hasTmux(),
  fn: async () => {
    await withSetup(async ({ dir, bin, log, env }) => {
      const sock = `uuldana-sim-${Deno.pid}`;
      const tmux = (...args: string[]) =>
        new Deno.Command("tmux", { args: ["-L", sock, ...args], stdout: "piped", stderr: "null" })
          .output();
      const envs = Object.entries(env).map(([k, v]) => `${k}=${_sh(v)}`).join(" ");
      await tmux(
        "new-session",
        "-d",
        "-s",
        "sim",
        "-x",
        "100",
        "-y",
        "30",
        `cd ${_sh(dir)} && env ${envs} ${_sh(bin.claude)} hello; sleep 60`,
      );
      const screenWith = async (needle: string): Promise<string> => {
        const end = Date.now() + DEADLINE_MS;
        for (;;) {
          const out = await tmux("capture-pane", "-p", "-t", "sim");
          const text = new TextDecoder().decode(out.stdout);
          if (text.includes(needle)) return text;
          if (Date.now() > end) throw new Error(`timed out waiting for ${needle}:\n${text}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      try {
        await screenWith("sim 100x30");
        await tmux("resize-window", "-t", "sim", "-x", "90", "-y", "25");
        const redrawn = await screenWith("sim 90x25");
        ok(redrawn.includes("❯ hello"), "the transcript is redrawn too");
        const resize = events(log, "resize").at(-1)!;
        assertEquals([resize.cols, resize.rows], [90, 25]);
      } finally {
        await tmux("kill-server");
      }
    });
  },
});

function _hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

Deno.test("sim-agent command: hidden, passes every argument through (parent needs positional options)", async () => {
  await withSetup(async ({ dir, env }) => {
    const prog = join(dir, "prog.ts");
    Deno.writeTextFileSync(
      prog,
      `import { Command } from "@commander-js/extra-typings";
import { simAgentCommand } from ${JSON.stringify(`${ROOT}src/cli/sim_agent.ts`)};
const p = new Command("uuldana").enablePositionalOptions().version("0", "-V, --version");
p.addCommand(simAgentCommand(), { hidden: true });
if (Deno.args[0] === "--help") console.log(p.helpInformation());
else await p.parseAsync(Deno.args, { from: "user" });
`,
    );
    const run = async (...args: string[]) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", `${ROOT}deno.json`, prog, ...args],
        env,
      }).output();
      return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
    };
    const help = await run("sim-agent", "codex", "--help", "--no-daemon");
    assertEquals(help.code, 0);
    ok(help.stdout.includes("Usage: codex [OPTIONS] [PROMPT]"));
    assertEquals(await run("sim-agent", "codex", "-V"), {
      code: 0,
      stdout: "codex-cli 0.171.0-sim\n",
    });
    assertEquals((await run("sim-agent", "nobody")).code, 2);
    const limited = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", `${ROOT}deno.json`, prog, "sim-agent", "claude", "-p", "hi"],
      env: { ...env, SIM_LIMIT_AFTER: "1" },
    }).output();
    assertEquals(limited.code, 1);
    ok(!(await run("--help")).stdout.includes("sim-agent"), "hidden from help");
  });
});

Deno.test("claude: the hooks of --settings get the JSON real Claude 2.1.332 sends, event by event", async () => {
  const { dir, bin, env } = setup();
  const seen = join(dir, "hooks");
  Deno.mkdirSync(seen);
  // Every hook uuldana adds to Claude's --settings.
  const events = CLAUDE_CHANNEL_EVENTS;
  const hooks = Object.fromEntries(events.map((e) => [e, [{
    hooks: [{ type: "command", command: `cat > ${_sh(seen)}/${e}.$$.json` }],
  }]]));
  const pty = new ScriptPty(
    [bin.claude, "--settings", JSON.stringify({ hooks })],
    {
      ...env,
      SIM_LIMIT_AFTER: "2",
      SIM_TOOL_CALLS: JSON.stringify([
        { tool: "Bash", input: { command: "sh show-notes.sh" } },
        { tool: "Bash", input: { command: "sh show-notes.sh" }, error: "Exit code 3\nhello" },
      ]),
    },
    dir,
  );
  try {
    await pty.waitText("? for shortcuts");
    await pty.send("first\r");
    await pty.waitText("Done.");
    await pty.send("second\r");
    await pty.waitText("❯ 1. Stop and wait for limit to reset");
    await pty.send("/quit\r");
    await pty.send("\x03\x03");
    assertEquals(await pty.exit(), 0);
  } finally {
    pty.kill();
  }
  // Real Claude's own records (testdata/channels/claude-2.1.332, its tool hooks in
  // claude-2.1.332-tools): the same fields, each event.
  const keysOf = (path: string) => Object.keys(JSON.parse(Deno.readTextFileSync(path))).sort();
  for (const event of events) {
    const real = join(
      ROOT,
      "testdata",
      "channels",
      event.startsWith("PostToolUse") ? "claude-2.1.332-tools" : "claude-2.1.332",
    );
    const mine = [...Deno.readDirSync(seen)].filter((f) => f.name.startsWith(`${event}.`));
    ok(mine.length > 0, `no ${event} hook ran`);
    const theirs = [...Deno.readDirSync(real)].find((f) => f.name.endsWith(`-${event}.json`))!;
    assertEquals(keysOf(join(seen, mine[0].name)), keysOf(join(real, theirs.name)), event);
  }
});
