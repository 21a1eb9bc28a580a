/**
 * `uuldana completions`: each script loaded into its real shell. bash is driven through its
 * completion variables (`COMP_WORDS`, `_uuldana`, `COMPREPLY`); zsh and fish through Tab in an
 * interactive shell inside tmux.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { UULDANA } from "./_paths.ts";
import { TmuxTerminal } from "./_tmux.ts";
import { testNeeding } from "./_needs.ts";
import { adapterNames } from "../adapters/registry.ts";

const AGENTS = adapterNames();

/** A folder with an `uuldana` on it that starts this checkout's uuldana. */
function uuldanaOnPath(): string {
  const bin = Deno.makeTempDirSync({ prefix: "uuldana-completions-" });
  const quoted = UULDANA.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
  Deno.writeTextFileSync(join(bin, "uuldana"), `#!/bin/sh\nexec ${quoted} "$@"\n`);
  Deno.chmodSync(join(bin, "uuldana"), 0o755);
  return bin;
}

/** What bash's completion offers for `words` (the last one is being completed). */
async function bashComplete(bin: string, words: string[]): Promise<string[]> {
  const array = words.map((w) => `'${w}'`).join(" ");
  const script = `source <(uuldana completions bash)
COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _uuldana; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = await new Deno.Command("bash", {
    args: ["--norc", "--noprofile", "-c", script],
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  assertEquals([out.code, err], [0, ""]);
  return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
}

Deno.test("bash: commands, options and the adapters' names complete", async () => {
  const bin = uuldanaOnPath();
  try {
    assertEquals(await bashComplete(bin, ["uuldana", "r"]), ["run", "runs"]);
    assertEquals(await bashComplete(bin, ["uuldana", "run", "--th"]), ["--then"]);
    assertEquals(await bashComplete(bin, ["uuldana", "run", ""]), AGENTS);
    // The chain after --then, one name after the last comma.
    assertEquals(await bashComplete(bin, ["uuldana", "run", "--then", "claude,ge"]), [
      "claude,gemini",
    ]);
    // An option's value is skipped; the agent's own arguments (after --) are not ours.
    assertEquals(await bashComplete(bin, ["uuldana", "run", "--cols", "80", "co"]), [
      "codex",
      "copilot",
    ]);
    assertEquals(await bashComplete(bin, ["uuldana", "run", "claude", ""]), []);
    assertEquals(await bashComplete(bin, ["uuldana", "run", "--", ""]), []);
    // Nested commands and their options; choices; the hidden command stays hidden.
    assertEquals(await bashComplete(bin, ["uuldana", "debug", ""]), [
      "screen",
      "compose",
      "detect",
      "bundle",
    ]);
    assertEquals(await bashComplete(bin, ["uuldana", "debug", "compose", "--road", "p"]), [
      "prompt",
      "paste",
    ]);
    assertEquals(await bashComplete(bin, ["uuldana", "handoff", "--road", "s"]), ["store"]);
    assertEquals(await bashComplete(bin, ["uuldana", "completions", ""]), ["bash", "zsh", "fish"]);
    assertEquals(await bashComplete(bin, ["uuldana", "config", ""]), ["show", "init", "schema"]);
    // The default subcommand's options work on its parent (`config --json` is `config show --json`).
    assertEquals(await bashComplete(bin, ["uuldana", "config", "--j"]), ["--json"]);
    const top = await bashComplete(bin, ["uuldana", ""]);
    assert(top.includes("completions") && top.includes("doctor"), top.join(" "));
    assert(!top.includes("sim-agent"), "the simulated-agent command stays hidden");
  } finally {
    Deno.removeSync(bin, { recursive: true });
  }
});

/** The screen's last non-empty line is a prompt with nothing typed after it. */
const BARE_PROMPT_LAST = /(?:^|\n)(?![^\n]*uuldana)[^\n]*[#$>] *\n*$/;

/** Starts `shell`, runs `setup`, then types each line and Tab and waits for what it shows. */
async function tabIn(
  shell: string[],
  setup: string,
  lines: [string, RegExp][],
): Promise<void> {
  const bin = uuldanaOnPath();
  const home = Deno.makeTempDirSync({ prefix: "uuldana-completions-home-" });
  const term = new TmuxTerminal();
  try {
    await term.start(shell, {
      cols: 160,
      rows: 30,
      cwd: home,
      env: { HOME: home, PATH: `${bin}:${Deno.env.get("PATH")}`, TERM: "xterm-256color" },
    });
    await term.send(`${setup}; echo loaded-4""2`, true);
    await term.send("Enter");
    await term.waitFor("loaded-42");
    for (const [line, want] of lines) {
      await term.send(line, true);
      await term.send("Tab");
      await term.waitFor(want, 10_000);
      // A fresh, clear line for the next one: C-c until the last line is a bare prompt (a busy
      // shell may spend the first on closing its completion list), then clear the screen.
      for (let tries = 0;; tries++) {
        await term.send("C-c");
        try {
          await term.waitFor(BARE_PROMPT_LAST, 2_000);
          break;
        } catch (e) {
          if (tries === 4) throw e;
        }
      }
      await term.send("clear", true);
      await term.send("Enter");
      await term.waitFor(/^(?![\s\S]*uuldana)/, 10_000);
    }
  } finally {
    await term.close();
    Deno.removeSync(bin, { recursive: true });
    Deno.removeSync(home, { recursive: true });
  }
}

testNeeding(["zsh"], {
  name: "zsh: the script completes in a real interactive zsh",
  fn: async () => {
    await tabIn(
      ["zsh", "-f", "-i"],
      "autoload -U compinit && compinit -u && source <(uuldana completions zsh)",
      [
        ["uuldana run --th", /uuldana run --then/],
        ["uuldana run --then claude,ge", /uuldana run --then claude,gemini/],
        ["uuldana run ", /aider +auggie +claude +codex/],
        ["uuldana deb", /uuldana debug/],
      ],
    );
  },
});

testNeeding(["fish"], {
  name: "fish: the script completes in a real interactive fish",
  fn: async () => {
    await tabIn(
      ["fish", "--no-config", "-i"],
      "uuldana completions fish | source",
      [
        ["uuldana run --th", /uuldana run --then/],
        ["uuldana run --then claude,ge", /uuldana run --then claude,gemini/],
        ["uuldana run ", /aider +claude +copilot/],
        ["uuldana debug comp", /uuldana debug compose/],
      ],
    );
  },
});
