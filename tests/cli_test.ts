/**
 * The command line as a user meets it, run as real subprocesses: errors, exit codes, `run` without
 * a terminal, terminal restore, and the journal commands.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { readArgvVisibility } from "../src/proc_visibility.ts";
import { REPO_DIR, UULDANA } from "./_paths.ts";
import { runUuldana, type UuldanaOutput } from "./_uuldana.ts";

const FIXTURES = join(REPO_DIR, "tests", "fixtures", "pty_agents");

type Result = UuldanaOutput;

/** Runs uuldana with a private data dir and config; `stdin` is written then closed. */
function uuldana(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string; home?: string } = {},
): Promise<Result> {
  const home = opts.home ?? Deno.makeTempDirSync({ prefix: "uuldana-cli-" });
  return runUuldana(args, {
    env: {
      UULDANA_HOME: home,
      UULDANA_CONFIG: join(home, "config.json"),
      NO_COLOR: "1",
      ...opts.env,
    },
    stdin: opts.stdin,
  });
}

function noStackTrace(r: Result): void {
  assert(!/^\s+at /m.test(r.stderr), `stack trace printed:\n${r.stderr}`);
}

Deno.test("--help teaches, --version prints version, Deno, target and commit in one line", async () => {
  const help = await uuldana(["--help"]);
  assertEquals(help.code, 0);
  for (
    const cmd of ["run", "exec", "agents", "runs", "show", "doctor", "debug", "demo", "/agent NAME"]
  ) {
    assert(help.stdout.includes(cmd), `--help does not mention ${cmd}`);
  }
  assert(!help.stdout.includes("sim-agent"), "the simulated-agent command stays hidden");
  const version = await uuldana(["--version"]);
  assertEquals(version.code, 0);
  const commit = new TextDecoder().decode(
    new Deno.Command("git", { args: ["rev-parse", "--short=12", "HEAD"], cwd: REPO_DIR })
      .outputSync().stdout,
  ).trim();
  const v = JSON.parse(Deno.readTextFileSync(join(REPO_DIR, "deno.json"))).version;
  assertEquals(
    version.stdout,
    `uuldana ${v} (deno ${Deno.version.deno}, ${Deno.build.target}, commit ${commit})\n`,
  );
  // The commit compile.sh embeds wins.
  const embedded = await uuldana(["--version"], { env: { UULDANA_BUILD_COMMIT: "0123abcd" } });
  assert(embedded.stdout.endsWith(", commit 0123abcd)\n"), embedded.stdout);
});

Deno.test("the variable that carries the embedded commit never reaches an agent", async () => {
  const dir = Deno.makeTempDirSync();
  const agent = join(dir, "gemini");
  Deno.writeTextFileSync(
    agent,
    `#!/bin/sh\nprintf 'commit=[%s]\\r\\n' "\${UULDANA_BUILD_COMMIT-unset}"\n`,
  );
  Deno.chmodSync(agent, 0o755);
  const r = await uuldana(["run", "gemini"], {
    env: { UULDANA_GEMINI_BIN: agent, UULDANA_BUILD_COMMIT: "0123abcd" },
  });
  assertEquals(r.code, 0, r.stderr);
  assert(r.stdout.includes("commit=[unset]"), JSON.stringify(r.stdout));
});

Deno.test("unknown commands and options: one line, a hint, exit 2", async () => {
  for (const args of [["runn"], ["run", "--zap"], ["runs", "--limit", "x"]]) {
    const r = await uuldana(args);
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert(r.stderr.trim().split("\n").length <= 3, r.stderr);
    noStackTrace(r);
  }
  const typo = await uuldana(["runn"]);
  assertMatch(typo.stderr, /unknown command 'runn'/);
  assertMatch(typo.stderr, /Did you mean run\?|--help/);
});

Deno.test("an invalid config is an error naming the file and key, exit 2", async () => {
  const home = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(home, "config.json"), JSON.stringify({ chain: "claude" }));
  const r = await uuldana(["runs"], { home });
  assertEquals(r.code, 2);
  assert(r.stderr.includes(join(home, "config.json")) && r.stderr.includes(`"chain"`), r.stderr);
  noStackTrace(r);
  // A number JSON reads as Infinity: the first line names file, key, range and value.
  Deno.writeTextFileSync(join(home, "config.json"), '{"quietSeconds": 1e999}');
  const huge = await uuldana(["run", "claude"], { home });
  assertEquals(huge.code, 2);
  assertEquals(
    huge.stderr.split("\n")[0],
    `uuldana: invalid config ${
      join(home, "config.json")
    }: "quietSeconds" must be a number from 0.1 to 60 (seconds), got Infinity`,
  );
  noStackTrace(huge);
});

Deno.test("run: a missing agent gives its install hint and exit 127", async () => {
  const r = await uuldana(["run", "codex"], { env: { UULDANA_CODEX_BIN: "/nonexistent/codex" } });
  assertEquals(r.code, 127, r.stderr);
  assertMatch(r.stderr, /not installed/);
  assertMatch(r.stderr, /npm|install/i);
  noStackTrace(r);
});

Deno.test("run without a terminal: output passes through, the exit code is the agent's, modes are undone", async () => {
  const home = Deno.makeTempDirSync();
  const r = await uuldana(["run", "gemini", "--cols", "90", "--rows", "30"], {
    home,
    env: { UULDANA_GEMINI_BIN: join(FIXTURES, "leave_modes.sh") },
  });
  assertEquals(r.code, 7, r.stderr);
  const at = r.stdout.indexOf("hello from the agent");
  assert(at > 0, JSON.stringify(r.stdout));
  const after = r.stdout.slice(at);
  assert(after.includes("\x18\x1b["), "the restore first cancels any unfinished sequence (CAN)");
  for (
    const undo of [
      "\x1b[?1049l",
      "\x1b[?1000l",
      "\x1b[?1006l",
      "\x1b[?2004l",
      "\x1b[?1004l",
      "\x1b[>4m",
      "\x1b[?25h",
      "\x1b[0m",
    ]
  ) {
    assert(
      after.includes(undo),
      `restore misses ${JSON.stringify(undo)}: ${JSON.stringify(after)}`,
    );
  }
  assertMatch(after, new RegExp(String.raw`\x1b\[<\d*u`), "kitty keyboard flags are popped");

  // What the journal recorded, through the commands that read it.
  const runs = JSON.parse((await uuldana(["runs", "--json"], { home })).stdout);
  assertEquals([runs[0].agent, runs[0].endReason, runs[0].exitCode], ["gemini", "exit", 7]);
  const screen = await uuldana(["show", "last", "--screen"], { home });
  assertEquals(screen.code, 0);
  assert(screen.stdout.includes("hello from the agent"), screen.stdout);
  const cast = await uuldana(["export", "last", "--asciicast", "-"], { home });
  const [header, ...events] = cast.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assertEquals([header.version, header.width, header.height], [2, 90, 30]);
  assert(
    events.map((e: [number, string, string]) => e[2]).join("").includes("hello from the agent"),
  );
  // The recording is a private file beside the journal, written while the run went.
  const recording = join(home, "recordings", `run-${runs[0].id}.cast.gz`);
  assertEquals(Deno.statSync(recording).mode! & 0o777, 0o600);
});

Deno.test("run: a recording that cannot be written never stops the agent; export says why", async () => {
  const home = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(home, "recordings"), "a file where the directory would go");
  const r = await uuldana(["run", "gemini"], {
    home,
    env: { UULDANA_GEMINI_BIN: join(FIXTURES, "leave_modes.sh") },
  });
  assertEquals(r.code, 7, r.stderr);
  assert(r.stdout.includes("hello from the agent"), JSON.stringify(r.stdout));
  // Said once, as one line naming the file.
  assertMatch(
    r.stderr,
    /^uuldana: the recording \S+run-\d+\.cast\.gz stopped \(.+\); the run goes on unrecorded\n$/,
  );
  const screen = await uuldana(["show", "last", "--screen"], { home });
  assert(screen.stdout.includes("hello from the agent"), screen.stdout);
  const cast = await uuldana(["export", "last", "--asciicast", "-"], { home });
  assertEquals(cast.code, 1);
  assertMatch(cast.stderr, /recording .*recordings.* cannot be read/);
  noStackTrace(cast);
});

Deno.test("typed turns are recorded from keys, and `handoff --print` composes them framed", async () => {
  const home = Deno.makeTempDirSync();
  const agent = join(home, "chat-agent");
  Deno.writeTextFileSync(
    agent,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A '${join(FIXTURES, "quit_keys.ts")}' "$@"\n`,
  );
  Deno.chmodSync(agent, 0o755);
  const typed = await _runTyping(home, agent, ["fix the flaky test\r", "/quit\r"]);
  assertEquals(typed.code, 7, typed.stderr);
  const shown = JSON.parse((await uuldana(["show", "last", "--json"], { home })).stdout);
  assertEquals(shown.entries.map((e: { text: string; fidelity: string }) => [e.text, e.fidelity]), [
    ["fix the flaky test", "keystrokes"],
    ["/quit", "keystrokes"],
  ]);
  const printed = await uuldana(["handoff", "--from", "last", "--to", "codex", "--print"], {
    home,
  });
  assertEquals(printed.code, 0, printed.stderr);
  assert(printed.stdout.startsWith("----- BEGIN UULDANA HANDOFF "), printed.stdout.slice(0, 200));
  assertMatch(printed.stdout, /Original request[^\n]*\n\s*fix the flaky test/);
  assertMatch(printed.stderr, /full handoff saved: .*\.md/);
});

/** Runs `uuldana run qwen` with keys typed one line at a time once the agent said "ready". */
async function _runTyping(home: string, agent: string, lines: string[]): Promise<Result> {
  const child = new Deno.Command(UULDANA[0], {
    args: [...UULDANA.slice(1), "run", "qwen"],
    env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json"), UULDANA_QWEN_BIN: agent },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  const w = child.stdin.getWriter();
  for (const line of lines) {
    await w.write(new TextEncoder().encode(line));
    await new Promise((r) => setTimeout(r, 200));
  }
  const rest = (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  const status = await child.status;
  await rest;
  await w.close().catch(() => {});
  return {
    code: status.code,
    stdout: seen,
    stderr: new TextDecoder().decode(await new Response(child.stderr).arrayBuffer()),
  };
}

Deno.test("doctor: says what is missing and how to fix it, exit 1; exit 0 when ready", async () => {
  const home = Deno.makeTempDirSync();
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ chain: ["codex"], agents: { codex: { bin: "/nonexistent/codex" } } }),
  );
  const missing = await uuldana(["doctor"], { home });
  assertEquals(missing.code, 1, missing.stdout + missing.stderr);
  assertMatch(missing.stdout, /script\s+util-linux|script\s+bsd/);
  assertMatch(missing.stdout, /journal\s+.*integrity ok/);
  assertMatch(missing.stdout, /fix: /);

  const ready = join(home, "codex");
  Deno.writeTextFileSync(
    ready,
    `#!/bin/sh\ncase "$1" in --version) echo "codex-cli 0.171.0";; *) echo "Usage: codex [OPTIONS] [PROMPT]";; esac\n`,
  );
  Deno.chmodSync(ready, 0o755);
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ chain: ["codex"], agents: { codex: { bin: ready } } }),
  );
  // Like BSD stty (macOS): no --version, and it fails without a terminal on stdin; it is there.
  const bin = join(home, "bin");
  Deno.mkdirSync(bin);
  Deno.writeTextFileSync(join(bin, "stty"), "#!/bin/sh\necho 'stty: not a terminal' >&2\nexit 1\n");
  Deno.chmodSync(join(bin, "stty"), 0o755);
  const ok = await uuldana(["doctor", "--json"], {
    home,
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
  });
  assertEquals(ok.code, 0, ok.stdout + ok.stderr);
  const checks = JSON.parse(ok.stdout) as { name: string; status: string }[];
  assertEquals(checks.find((c) => c.name === "agent codex")?.status, "ok");
  assertEquals(checks.find((c) => c.name === "stty")?.status, "ok");
  // Codex takes its handoff in its command line: a warning unless /proc hides other users'.
  const privacy = checks.find((c) => c.name === "argv privacy") as
    | { status: string; detail: string; fix?: string }
    | undefined;
  if (readArgvVisibility() === "hidden") {
    assertEquals(privacy?.status, "ok");
  } else {
    assertEquals(privacy?.status, "warn");
    assertMatch(privacy!.detail, /a handoff is in the command line of codex \(prompt road\)/);
    assertMatch(privacy!.fix ?? "", /road to "paste"/);
  }
  // With the paste road nothing is in a command line.
  Deno.writeTextFileSync(
    join(home, "config.json"),
    JSON.stringify({ chain: ["codex"], agents: { codex: { bin: ready, road: "paste" } } }),
  );
  const paste = await uuldana(["doctor", "--json"], {
    home,
    env: { PATH: `${bin}:${Deno.env.get("PATH")}` },
  });
  const pasteChecks = JSON.parse(paste.stdout) as { name: string; status: string }[];
  assertEquals(pasteChecks.find((c) => c.name === "argv privacy")?.status, "ok");
});

Deno.test("doctor: an unknown agent name in the chain is a failure naming it, not a valid config", async () => {
  const home = Deno.makeTempDirSync();
  const file = join(home, "config.json");
  Deno.writeTextFileSync(file, JSON.stringify({ chain: ["claude", "clade", "codex"] }));
  const r = await uuldana(["doctor", "--json"], { home });
  assertEquals(r.code, 1, r.stdout + r.stderr);
  const config = (JSON.parse(r.stdout) as { name: string; status: string; detail: string }[])
    .find((c) => c.name === "config")!;
  assertEquals(config.status, "fail");
  assertEquals(config.detail, `${file}: "chain" names unknown agent "clade"`);
  const text = await uuldana(["doctor"], { home });
  assert(!text.stdout.includes("(valid)"), text.stdout);
  assertMatch(text.stdout, /fix: use names from: claude, codex/);
});

Deno.test("a report redirected to a file carries no colour, even from a terminal", async () => {
  const home = Deno.makeTempDirSync();
  const report = join(home, "doctor.txt");
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  // stderr stays on the pty that `script` makes; only stdout goes to the file.
  const cmd = `${[...UULDANA, "doctor"].map(quote).join(" ")} > ${quote(report)}`;
  await new Deno.Command("script", {
    args: ["-q", "-e", "-c", cmd, "/dev/null"],
    clearEnv: true, // without NO_COLOR, whatever the test runner has
    env: {
      ...Object.fromEntries(Object.entries(Deno.env.toObject()).filter(([k]) => k !== "NO_COLOR")),
      UULDANA_HOME: home,
      UULDANA_CONFIG: join(home, "config.json"),
    },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  const text = Deno.readTextFileSync(report);
  assertMatch(text, /journal\s/);
  assert(!text.includes("\x1b"), JSON.stringify(text.slice(0, 200)));
});

Deno.test("export to a path that cannot be written: one line, exit 1, no internal error", async () => {
  const home = Deno.makeTempDirSync();
  await uuldana(["run", "gemini", "--cols", "80", "--rows", "24"], {
    home,
    env: { UULDANA_GEMINI_BIN: join(FIXTURES, "leave_modes.sh") },
  });
  const r = await uuldana(["export", "last", "--asciicast", join(home, "missing", "x.cast")], {
    home,
  });
  assertEquals(r.code, 1, r.stderr);
  assertMatch(r.stderr, /^uuldana: cannot write .*x\.cast: /);
  assert(!r.stderr.includes("internal error"), r.stderr);
  noStackTrace(r);
});

Deno.test("an unusable data directory is one line with a hint, not an internal error", async () => {
  const home = Deno.makeTempDirSync();
  Deno.writeTextFileSync(join(home, "file"), "");
  const r = await uuldana(["runs"], { env: { UULDANA_HOME: join(home, "file", "data") } });
  assertEquals(r.code, 1, r.stderr);
  assertMatch(r.stderr, /cannot make the private directory .*file\/data/);
  assertMatch(r.stderr, /UULDANA_HOME/);
  assert(!r.stderr.includes("internal error"), r.stderr);
  noStackTrace(r);
});
