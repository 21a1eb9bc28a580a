/**
 * `uuldana exec` end to end: the real program (`mod.ts exec`) runs as a subprocess against fake
 * headless agents (tests/fixtures/headless_agents: small shell programs that check the real CLIs'
 * JSON-mode flags and print the recorded Claude/Codex event lines; the other agents' shapes are
 * from their documentation, not recorded), with a temp UULDANA_HOME whose SQLite journal is then
 * opened to check runs, entries and handoffs.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { UULDANA } from "./_paths.ts";
import { argvOf, cleanup, exec, FAKES, withJournal } from "./_exec.ts";
import { Journal } from "../src/journal/journal.ts";

const TASK = "fix the failing test in tests/foo_test.ts";

Deno.test("exec: a usage limit on claude hands the conversation to codex, whose answer is printed", async () => {
  const r = await exec([TASK, "--agents", "claude,codex"], { modes: { claude: "limit" } });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE CODEX ANSWER\n");
    assert(/running claude/.test(r.stderr), r.stderr);
    assert(/handing off from claude to codex/.test(r.stderr), r.stderr);

    // The first agent got the task as its prompt argument.
    assertEquals(argvOf(r, "claude")!.at(-1), TASK);
    // The second agent reads the framed handoff (the task and claude's words) on its stdin: never
    // in its arguments, which any local user can read in /proc.
    const codexArgv = argvOf(r, "codex")!;
    assertEquals(codexArgv.slice(0, 2), ["exec", "--json"]);
    assertEquals(codexArgv.at(-1), "-");
    assert(!codexArgv.some((a) => a.includes("BEGIN UULDANA HANDOFF")), codexArgv.join(" "));
    const handoff = readFileSync(join(r.log, "codex.stdin"), "utf8");
    assert(handoff.includes("BEGIN UULDANA HANDOFF"), handoff);
    assert(handoff.includes(TASK), handoff);
    assert(handoff.includes("the fixture path in the failing test is wrong"), handoff);
    assert(handoff.includes("You've hit your session limit"), "the limit message is named");
    assert(handoff !== TASK);

    withJournal(r, (j) => {
      const runs = j.runs().reverse();
      assertEquals(runs.map((x) => [x.agent, x.transport, x.endReason]), [
        ["claude", "headless", "limit"],
        ["codex", "headless", "exit"],
      ]);
      assert(
        runs[0].limitMessage!.startsWith("You've hit your session limit"),
        runs[0].limitMessage!,
      );
      assertEquals(runs[0].resetsAt, new Date(1796009366 * 1000).toISOString());
      assertEquals(runs[1].exitCode, 0);
      assertEquals(
        j.entries(runs[0].id).map((e) => [e.role, e.text, e.fidelity]),
        [
          ["user", TASK, "event"],
          ["agent", "Progress so far: the fixture path in the failing test is wrong.", "event"],
        ],
      );
      assertEquals(j.entries(runs[1].id).map((e) => [e.role, e.text]), [[
        "agent",
        "FAKE CODEX ANSWER",
      ]]);
      const [h] = j.handoffsFrom(runs[0].id);
      assertEquals([h.toAgent, h.toRun, h.status, h.mode, h.road], [
        "codex",
        runs[1].id,
        "delivered",
        "auto",
        "prompt",
      ]);
      // Saved before the next agent started.
      assert(h.createdAt <= runs[1].startedAt, `${h.createdAt} > ${runs[1].startedAt}`);
      const file = readFileSync(h.filePath!, "utf8");
      assert(file.includes("the fixture path in the failing test is wrong"));
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: the limit ledger: a second exec skips the agent a first one saw limited", async () => {
  const first = await exec([TASK, "--agents", "claude,codex"], { modes: { claude: "limit" } });
  try {
    assertEquals(first.code, 0, first.stderr);
    const second = await exec([TASK, "--agents", "claude,codex", "--json"], { home: first.home });
    assertEquals(second.code, 0, second.stderr);
    assert(
      /skipping claude: limited until .* \(seen \d\d:\d\d in run 1\)/.test(second.stderr),
      second.stderr,
    );
    const summary = JSON.parse(second.stdout);
    assertEquals(summary.runs.map((r: { agent: string }) => r.agent), ["codex"]);
    assertEquals(summary.skipped[0].agent, "claude");
    // Only limited agents left: exit 3 (all limited), not "install one".
    const only = await exec([TASK, "--agents", "claude"], { home: first.home });
    assertEquals(only.code, 3, only.stderr);
    assert(/every agent that could run is limited/.test(only.stderr), only.stderr);
    withJournal(first, (j) => {
      assertEquals([...j.latestLimits().keys()], ["claude"]);
      assertEquals(j.latestLimits().get("claude")!.runId, 1);
    });
  } finally {
    cleanup(first);
  }
});

Deno.test("exec: the notify command hears of each handoff, as JSON on its stdin", async () => {
  const events = join(Deno.makeTempDirSync(), "events.jsonl");
  const r = await exec([TASK, "--agents", "claude,codex"], {
    modes: { claude: "limit" },
    config: { notify: { command: ["/bin/sh", "-c", `cat >> ${events}`] } },
  });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE CODEX ANSWER\n", "nothing but the answer on stdout");
    const [event] = readFileSync(events, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assertEquals([event.kind, event.from, event.to], ["switch", "claude", "codex"]);
    assert(event.why.startsWith("You've hit your session limit"), event.why);
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: every agent limited exits 3 with no answer; --json summarises both runs", async () => {
  const r = await exec([TASK, "--agents", "claude,codex", "--json"], {
    modes: { claude: "limit", codex: "limit" },
  });
  try {
    assertEquals(r.code, 3, r.stderr);
    const summary = JSON.parse(r.stdout);
    assertEquals(summary.status, "limited");
    assertEquals(summary.exitCode, 3);
    assertEquals(summary.finalText, "");
    assertEquals(
      summary.runs.map((x: { agent: string; endReason: string }) => [x.agent, x.endReason]),
      [
        ["claude", "limit"],
        ["codex", "limit"],
      ],
    );
    assert(summary.runs[1].limitMessage.startsWith("You’ve hit your usage limit."));
    assertEquals(summary.handoffs.length, 1);
    assertEquals([summary.handoffs[0].from, summary.handoffs[0].to], ["claude", "codex"]);
    withJournal(r, (j) => {
      assertEquals(j.runs().map((x) => x.endReason), ["limit", "limit"]);
      assertEquals(j.handoffs().length, 1);
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: the tool calls Codex's JSON stream completed are what was done in the handoff", async () => {
  // FAKE_TOOLS: the ten completed tool items of a real `codex exec --json`, then the limit.
  const r = await exec([TASK, "--agents", "codex,claude", "--json"], {
    modes: { codex: "limit" },
    env: { FAKE_TOOLS: "1" },
  });
  try {
    assertEquals(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assertEquals(summary.runs.map((x: { actions: number }) => x.actions), [10, 0]);
    const handoff = readFileSync(join(r.log, "claude.stdin"), "utf8");
    const done = handoff.slice(handoff.indexOf("What was done"), handoff.indexOf("Conversation"));
    const said = done.split("\n").filter((l) => l.startsWith("- "));
    assertEquals(said.length, 10, done);
    assertEquals(said[0], "- created /tmp/rec/ws/work/t1-1.txt");
    assertEquals(said[1], "- ran `sh check.sh 1 2` → exit 0");
    assertEquals(said[9], "- ran `sh check.sh 1 10` → exit 1");
    withJournal(r, (j) => {
      const [first] = j.runs().reverse();
      assertEquals(j.actions(first.id).length, 10);
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: malformed lines are skipped and reported, the answer still comes through", async () => {
  const r = await exec([TASK, "--agents", "claude", "--json"], { modes: { claude: "malformed" } });
  try {
    assertEquals(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assertEquals(summary.finalText, "MOCK REPLY");
    // "this is not json", one cut line after each of the 4 recorded events, and "[1,2,3]\r".
    assertEquals(summary.runs[0].malformed, 6);
    assert(/skipped a malformed line/.test(r.stderr), r.stderr);
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: an agent failure (not a limit) exits 1 and hands nothing off", async () => {
  const r = await exec([TASK, "--agents", "claude,codex"], { modes: { claude: "fail" } });
  try {
    assertEquals(r.code, 1, r.stderr);
    assertEquals(r.stdout, "");
    assert(/claude failed: claude: something went wrong/.test(r.stderr), r.stderr);
    assertEquals(argvOf(r, "codex"), null);
    withJournal(r, (j) => {
      assertEquals(j.runs().map((x) => [x.agent, x.endReason, x.exitCode]), [[
        "claude",
        "exit",
        1,
      ]]);
      assertEquals(j.handoffs().length, 0);
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: a stalled agent is stopped (its process group too) and handed off with --handoff-on-stall", async () => {
  const r = await exec([TASK, "--agents", "claude,gemini", "--stall", "1s", "--handoff-on-stall"], {
    modes: { claude: "stall" },
  });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE GEMINI ANSWER\n");
    const pgid = Number(readFileSync(join(r.log, "claude.pid"), "utf8"));
    assert(!_groupAlive(pgid), "the stalled agent's `sleep` child was reaped with its group");
    // The handoff reaches gemini on stdin, after a short --prompt (not in its arguments).
    assert(!argvOf(r, "gemini")!.some((a) => a.includes(TASK)));
    assert(readFileSync(join(r.log, "gemini.stdin"), "utf8").includes(TASK));
    withJournal(r, (j) => {
      assertEquals(j.runs().reverse().map((x) => [x.agent, x.endReason]), [["claude", "stall"], [
        "gemini",
        "exit",
      ]]);
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: a stall without --handoff-on-stall fails; --timeout stops the whole task", async () => {
  const stalled = await exec([TASK, "--agents", "claude,codex", "--stall", "1s"], {
    modes: { claude: "stall" },
  });
  const timed = await exec([TASK, "--agents", "claude,codex", "--timeout", "1s"], {
    modes: { claude: "stall" },
  });
  // Longer than setTimeout's 2^31 - 1 ms: must not fire at once.
  const long = await exec([TASK, "--agents", "codex", "--timeout", "600h"]);
  try {
    assertEquals(long.code, 0, long.stderr);
    assertEquals(long.stdout, "FAKE CODEX ANSWER\n");
    assertEquals(stalled.code, 1, stalled.stderr);
    assertEquals(argvOf(stalled, "codex"), null);
    assertEquals(timed.code, 1, timed.stderr);
    assert(/timed out after 1s/.test(timed.stderr), timed.stderr);
    assertEquals(argvOf(timed, "codex"), null);
  } finally {
    for (const r of [stalled, timed, long]) cleanup(r);
  }
});

Deno.test("exec: a stopped agent's child that ignores SIGTERM is killed with its group", async () => {
  const r = await exec([TASK, "--agents", "claude", "--stall", "1s"], {
    modes: { claude: "stall-orphan" },
  });
  try {
    assertEquals(r.code, 1, r.stderr);
    const pgid = Number(readFileSync(join(r.log, "claude.pid"), "utf8"));
    assert(!_groupAlive(pgid), "the child that ignored SIGTERM outlived the run");
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: --max-handoffs 0 stops after the first limit (exit 3); missing agents are skipped", async () => {
  const bounded = await exec([TASK, "--agents", "claude,codex", "--max-handoffs", "0"], {
    modes: { claude: "limit" },
  });
  const skipping = await exec([TASK, "--agents", "gemini,opencode"], { bins: ["opencode"] });
  try {
    assertEquals(bounded.code, 3, bounded.stderr);
    assertEquals(argvOf(bounded, "codex"), null);
    assertEquals(skipping.code, 0, skipping.stderr);
    assert(/skipping gemini: not installed/.test(skipping.stderr), skipping.stderr);
    assertEquals(skipping.stdout, "FAKE OPENCODE ANSWER\n");
  } finally {
    cleanup(bounded);
    cleanup(skipping);
  }
});

Deno.test("exec: a handoff never goes to an agent whose configured args would resume a session", async () => {
  const r = await exec([TASK, "--agents", "claude,gemini,codex"], {
    modes: { claude: "limit" },
    config: { agents: { gemini: { args: ["-r", "latest"] } } },
  });
  try {
    assertEquals(r.code, 0, r.stderr);
    assert(/skipping gemini: its configured arguments hold -r/.test(r.stderr), r.stderr);
    assertEquals(argvOf(r, "gemini"), null);
    assert(readFileSync(join(r.log, "codex.stdin"), "utf8").includes("BEGIN UULDANA HANDOFF"));
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: the task can come from stdin; bad usage exits 2", async () => {
  const piped = await exec(["--agents", "qwen"], { stdin: "task from a pipe\n" });
  const badCount = await exec([TASK, "--max-handoffs", "x"]);
  const badAgent = await exec([TASK, "--agents", "nosuchagent"]);
  const badTime = await exec([TASK, "--timeout", "soon"]);
  try {
    assertEquals(piped.code, 0, piped.stderr);
    assertEquals(piped.stdout, "FAKE QWEN ANSWER\n");
    assertEquals(argvOf(piped, "qwen")!.at(-1), "task from a pipe\n");
    for (const r of [badCount, badAgent, badTime]) assertEquals(r.code, 2, r.stderr);
  } finally {
    for (const r of [piped, badCount, badAgent, badTime]) cleanup(r);
  }
});

// Whether any live (non-zombie) process is in the group. Zombies are skipped: in containers
// whose PID 1 does not reap, a killed orphan stays a zombie forever.
Deno.test("exec: a limit printed only on stderr with a failing exit code still hands off", async () => {
  const r = await exec([TASK, "--agents", "gemini,opencode"], {
    modes: { gemini: "limit-stderr" },
  });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE OPENCODE ANSWER\n");
    withJournal(r, (j) => {
      const [first] = j.runs().reverse();
      assertEquals(first.endReason, "limit");
      assertEquals(first.limitMessage, "You've hit your weekly limit · resets Dec 3, 1:15am (UTC)");
      assert(
        first.resetsAt !== null && first.resetsAt.includes("-12-03T01:15:00"),
        first.resetsAt!,
      );
    });
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: a task over MAX_ARG_STRLEN reaches codex on stdin (`-`), not as an argument", async () => {
  const big = "refactor this:\n" + "x".repeat(140_000);
  const r = await exec(["-", "--agents", "codex"], { stdin: big });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(argvOf(r, "codex")!.at(-1), "-");
    assertEquals(readFileSync(join(r.log, "codex.stdin"), "utf8"), big);
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: a task whose `--prompt=TASK` would pass MAX_ARG_STRLEN reaches copilot on stdin", async () => {
  // The task alone fits one argument; with copilot's `--prompt=` in front it does not.
  const edge = "x".repeat(131_071 - 3);
  const r = await exec(["-", "--agents", "copilot,codex"], { stdin: edge });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE COPILOT ANSWER\n");
    assertEquals(argvOf(r, "copilot"), ["--output-format", "json"]);
    assertEquals(readFileSync(join(r.log, "copilot.stdin"), "utf8"), edge);
  } finally {
    cleanup(r);
  }
});

Deno.test("exec: SIGINT stops the running agent's process group and exits 130", async () => {
  const home = Deno.makeTempDirSync({ prefix: "uuldana-exec-int-" });
  const log = join(home, "log");
  Deno.mkdirSync(log, { recursive: true });
  const child = new Deno.Command(UULDANA[0], {
    args: [...UULDANA.slice(1), "exec", TASK, "--agents", "claude,codex"],
    cwd: home,
    clearEnv: true,
    env: {
      PATH: "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? home,
      UULDANA_HOME: join(home, "data"),
      UULDANA_CONFIG: join(home, "config.json"),
      UULDANA_CLAUDE_BIN: join(FAKES, "claude"),
      UULDANA_CODEX_BIN: join(FAKES, "codex"),
      FAKE_CLAUDE_MODE: "stall",
      FAKE_AGENT_LOG: log,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    // Wait until the agent is running (it writes its pid first), however slow the machine is.
    const pidFile = join(log, "claude.pid");
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGINT");
    const out = await child.output();
    assertEquals(out.code, 130, new TextDecoder().decode(out.stderr));
    assert(!_groupAlive(Number(readFileSync(pidFile, "utf8"))));
    assert(!existsSync(join(log, "codex.argv")), "nothing is handed off after an interrupt");
    const j = Journal.open(join(home, "data"));
    try {
      assertEquals(j.runs().map((x) => [x.agent, x.endReason]), [["claude", "signal"]]);
    } finally {
      j.close();
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

function _groupAlive(pgid: number): boolean {
  if (Deno.build.os !== "linux") return _signalGroup(pgid);
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return false;
}

function _signalGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

Deno.test("exec: two Codex profiles: the limited account hands off to the other on the prompt road; the ledger limits only the first", async () => {
  const home = Deno.makeTempDirSync({ prefix: "uuldana-exec-" });
  const config = {
    agents: { codex: { env: { FAKE_CODEX_MODE: "limit" } } },
    profiles: {
      "codex-work": {
        agent: "codex",
        env: { FAKE_CODEX_MODE: "ok", FAKE_AGENT_LOG: join(home, "log-work") },
      },
    },
  };
  Deno.mkdirSync(join(home, "log-work"));
  const r = await exec([TASK, "--agents", "codex,codex-work"], { home, config, bins: ["codex"] });
  try {
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "FAKE CODEX ANSWER\n");
    assert(/handing off from codex to codex-work/.test(r.stderr), r.stderr);
    // The second account's Codex read the framed handoff on its stdin, a new session.
    const handoff = readFileSync(join(home, "log-work", "codex.stdin"), "utf8");
    assert(handoff.includes("BEGIN UULDANA HANDOFF") && handoff.includes(TASK), handoff);
    withJournal(r, (j) => {
      const runs = j.runs().reverse();
      assertEquals(runs.map((x) => [x.agent, x.profile, x.endReason]), [
        ["codex", null, "limit"],
        ["codex", "codex-work", "exit"],
      ]);
      const [h] = j.handoffsFrom(runs[0].id);
      assertEquals([h.toAgent, h.road, h.status], ["codex-work", "prompt", "delivered"]);
      assertEquals([...j.latestLimits().keys()], ["codex"]);
    });
    // A second exec: the limited account is skipped at once, the other answers.
    const second = await exec([TASK, "--agents", "codex,codex-work"], {
      home,
      config,
      bins: ["codex"],
    });
    assertEquals(second.code, 0, second.stderr);
    assert(/skipping codex: limited until/.test(second.stderr), second.stderr);
    assert(/running codex-work/.test(second.stderr), second.stderr);
  } finally {
    cleanup(r);
  }
});
