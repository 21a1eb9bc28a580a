/**
 * `uuldana agents --json` against fake agents on a private PATH (real help texts, altered ones, a
 * config `bin` override, a disabled agent, the journal's proof cache), and `uuldana debug detect`
 * on the real recordings through the real VT interpreter.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { installFakeAgent, installVersionedAgent } from "./fixtures/fake_agents/install.ts";
import { topHelp } from "./fixtures/fake_agents/help.ts";
import { adapterByName, ADAPTERS } from "../adapters/registry.ts";
import { TESTED_VERSIONS } from "../adapters/tested.ts";
import { chunkSizes, detectInRecording } from "../src/cli/detect_report.ts";
import { normalizeSpace } from "../adapters/screen_text.ts";
import { Terminal } from "../src/vt/mod.ts";
import { AGENT_CORPUS_DIR, DENO_DIR } from "./_paths.ts";
import { runUuldana } from "./_uuldana.ts";
import { type AgentReport, renderAgents } from "../src/cli/agents.ts";
import type { Check } from "../src/cli/doctor.ts";
import { inChildWithEnv } from "./_in_child.ts";

const CORPUS = AGENT_CORPUS_DIR;

function uuldana(args: string[], env: Record<string, string>) {
  return runUuldana(args, { env: { DENO_DIR, ...env }, clearEnv: true });
}

Deno.test("agents --json: found, version, proof from the real help, refusal, config bin and disabled", async () => {
  const root = await Deno.makeTempDir({ prefix: "uuldana-agents-" });
  const bin = `${root}/bin`;
  const other = `${root}/elsewhere`;
  await Deno.mkdir(bin);
  await Deno.mkdir(other);
  await Deno.mkdir(`${root}/home`);
  const helps = `${root}/help`;
  await Deno.mkdir(helps);
  // claude: its real help; codex: the real help with the [PROMPT] usage line changed.
  installFakeAgent(bin, "claude");
  await Deno.writeTextFile(`${helps}/claude`, topHelp("claude"));
  const codexBin = installFakeAgent(bin, "codex");
  // The fake reads FAKE_AGENT_HELP; one variable for all, so wrap codex's with its own.
  await Deno.writeTextFile(
    codexBin,
    (await Deno.readTextFile(codexBin)).replace(
      "exec ",
      `FAKE_AGENT_HELP='${helps}/codex' exec `,
    ),
  );
  await Deno.writeTextFile(
    `${helps}/codex`,
    topHelp("codex").replace("Usage: codex [OPTIONS] [PROMPT]", "Usage: codex [OPTIONS] [COMMAND]"),
  );
  // gemini lives off PATH, reached through the config's bin.
  const geminiBin = installFakeAgent(other, "gemini");
  await Deno.writeTextFile(
    geminiBin,
    (await Deno.readTextFile(geminiBin)).replace(
      "exec ",
      `FAKE_AGENT_HELP='${helps}/gemini' exec `,
    ),
  );
  await Deno.writeTextFile(`${helps}/gemini`, topHelp("gemini"));
  await Deno.writeTextFile(
    `${root}/config.json`,
    JSON.stringify({
      agents: {
        gemini: { bin: geminiBin },
        qwen: { disabled: true },
        copilot: { bin: `${root}/nowhere/copilot` },
        opencode: { road: "store" },
      },
    }),
  );
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: `${root}/home`,
    UULDANA_HOME: `${root}/data`,
    UULDANA_CONFIG: `${root}/config.json`,
    FAKE_AGENT_HELP: `${helps}/claude`,
  };
  const res = await uuldana(["agents", "--json"], env);
  assertEquals(res.code, 0, res.stderr);
  const list = JSON.parse(res.stdout);
  assertEquals(list.map((a: { name: string }) => a.name), ADAPTERS.map((a) => a.name));
  const by = (n: string) => list.find((a: { name: string }) => a.name === n);
  assertEquals(by("claude").found, true);
  assertEquals(by("claude").path, `${bin}/claude`);
  assertEquals(by("claude").version, "9.9.9");
  assertEquals(by("claude").acceptsInitialPrompt, true);
  assertEquals(by("claude").proof.line, "Usage: claude [options] [command] [prompt]");
  assertEquals(by("claude").defaultRoad, "hook");
  assertEquals(by("codex").found, true);
  assertEquals(by("codex").acceptsInitialPrompt, false);
  assert(by("codex").proof.reason.includes("Usage: codex [OPTIONS] [PROMPT]"));
  assertEquals(by("gemini").path, geminiBin);
  assertEquals(by("gemini").acceptsInitialPrompt, true);
  assertEquals(by("qwen").disabled, true);
  assertEquals(by("copilot").found, false);
  assert(by("copilot").problem.includes("not found"));
  assertEquals(by("opencode").defaultRoad, "store");
  // Which default roads put the handoff in the agent's command line, readable by other users.
  assertEquals(
    list.filter((a: { handoffInArgv: boolean }) => a.handoffInArgv).map((a: { name: string }) =>
      a.name
    ),
    ["codex", "gemini", "qwen", "copilot", "kilo"],
  );
  for (
    const key of [
      "name",
      "found",
      "path",
      "version",
      "acceptsInitialPrompt",
      "proof",
      "roads",
      "defaultRoad",
      "handoffInArgv",
    ]
  ) {
    assert(key in by("aider"), key);
  }

  // Version and proof were cached per binary (path, size, modification time); a second run
  // reuses them and runs nothing.
  const db = new DatabaseSync(`${root}/data/journal.db`);
  const rows = db.prepare("SELECT bin_path, version, accepted FROM agent_probes ORDER BY bin_path")
    .all() as { bin_path: string; version: string; accepted: number }[];
  db.close();
  assertEquals(
    rows.map((r) => [r.bin_path, r.version, Number(r.accepted)]),
    [[`${bin}/claude`, "9.9.9", 1], [`${bin}/codex`, "9.9.9", 0], [geminiBin, "9.9.9", 1]],
  );
  const again = JSON.parse((await uuldana(["agents", "--json"], env)).stdout);
  const claudeAgain = again.find((a: { name: string }) => a.name === "claude");
  assertEquals([claudeAgain.cached, claudeAgain.proof.cached, claudeAgain.version], [
    true,
    true,
    "9.9.9",
  ]);

  const human = await uuldana(["agents"], { ...env, NO_COLOR: "1" });
  assertEquals(human.code, 0);
  assert(human.stdout.includes("initial prompt: yes"));
  assert(human.stdout.includes("hook (default)"));
  assert(human.stdout.includes("roads: prompt (default; in its command line), paste"));
  const argvLine = human.stdout.split("\n").find((l) => l.startsWith("! the default road of")) ??
    "";
  assert(argvLine.includes("gemini"), human.stdout);
  assert(argvLine.includes("other local users can read while it runs"), argvLine);
  assert(!argvLine.includes("claude"), "the hook road uses a file");
});

/** A one-patch-newer version than `version` ("2.1.332" → "2.1.333"). */
function nextPatch(version: string): string {
  const parts = version.split(".").map(Number);
  parts[parts.length - 1]++;
  return parts.join(".");
}

Deno.test("agents and doctor say when an installed agent is newer than the newest tested, and which were never run for real", async () => {
  const root = await Deno.makeTempDir({ prefix: "uuldana-agents-newer-" });
  try {
    const bin = `${root}/bin`;
    await Deno.mkdir(bin);
    await Deno.mkdir(`${root}/home`);
    // Two agents the matrix passed: one installed a patch past its tested version, one at it.
    const [ahead, same] = (["claude", "codex", "gemini", "qwen", "copilot"] as const).filter((a) =>
      TESTED_VERSIONS[a]?.tested
    );
    assert(same, "tested_versions.json names two tested agents");
    const tested = TESTED_VERSIONS[ahead].tested!;
    const newer = nextPatch(tested);
    // Small real programs: the first one patch past the newest tested, Crush (never run for real)
    // and the second at exactly its tested version.
    const fake = (name: string, version: string, help: string) =>
      installVersionedAgent(bin, name, version, help);
    fake(ahead, `${newer} (${ahead})`, topHelp(ahead));
    fake("crush", "crush version v0.9.0", "Usage:\n  crush [flags]\n");
    fake(same, `${same} ${TESTED_VERSIONS[same].tested}`, topHelp(same));
    const env = {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: `${root}/home`,
      UULDANA_HOME: `${root}/data`,
      UULDANA_CONFIG: `${root}/config.json`,
      NO_COLOR: "1",
    };
    const human = await uuldana(["agents"], env);
    assertEquals(human.code, 0, human.stderr);
    const line =
      `${ahead} ${newer} is newer than the newest tested (${tested}): limit detection may miss its screens`;
    assert(human.stdout.includes(`! ${line}`), human.stdout);
    assert(
      human.stdout.includes(`! not tested by uuldana: ${TESTED_VERSIONS.crush.notRun}`),
      human.stdout,
    );
    assert(
      !human.stdout.includes(`${same} ${TESTED_VERSIONS[same].tested} is newer`),
      "an agent at the tested version is not flagged",
    );
    // Auggie is not installed: still marked, under its install hint.
    assert(human.stdout.includes(`not tested by uuldana: ${TESTED_VERSIONS.auggie.notRun}`));

    const json = JSON.parse((await uuldana(["agents", "--json"], env)).stdout);
    assertEquals(json.find((a: { name: string }) => a.name === ahead).tested, {
      kind: "newer",
      version: newer,
      tested,
      date: TESTED_VERSIONS[ahead].date,
    });
    assertEquals(json.find((a: { name: string }) => a.name === same).tested.kind, "tested");

    const doctor = await uuldana(["doctor", "--json"], env);
    const checks = JSON.parse(doctor.stdout) as { name: string; status: string; detail: string }[];
    const flagged = checks.find((c) => c.detail === line);
    assertEquals(flagged?.status, "warn", doctor.stdout);
    assertEquals(flagged?.name, `agent ${ahead}`);
    assert(
      checks.some((c) => c.name === "agent crush" && c.detail.startsWith("not tested by uuldana")),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test('doctor: an agent whose --help did not answer in time is "not checked yet", a warning, and the next doctor asks only that', async () => {
  const root = await Deno.makeTempDir({ prefix: "uuldana-doctor-slow-" });
  try {
    const bin = `${root}/bin`;
    await Deno.mkdir(bin);
    await Deno.mkdir(`${root}/home`);
    // A real program (not a version the real-agent matrix verified): its --version answers, its
    // --help takes longer than the probe limits, like a Node agent starting on a busy machine.
    const codex = `${bin}/codex`;
    // While `slow` is there (the same binary, so its cached version stays valid).
    await Deno.writeTextFile(`${root}/slow`, "");
    await Deno.writeTextFile(
      codex,
      `#!/bin/sh\necho "$1" >> '${root}/runs'\n` +
        `[ "$1" = --version ] && { echo 'codex-cli 9.9.9'; exit 0; }\n` +
        `[ -e '${root}/slow' ] && exec sleep 5\necho 'Usage: codex [OPTIONS] [PROMPT]'\n`,
    );
    await Deno.chmod(codex, 0o755);
    await Deno.writeTextFile(`${root}/config.json`, JSON.stringify({ chain: ["codex"] }));
    // The checks read the environment (PATH, the data folder, the config): in a child, which has
    // its own. Two doctors, with the agents' runs of each, the second once it answers in time.
    const doctor = new URL("../src/cli/doctor.ts", import.meta.url).href;
    const { first, firstRuns, second, secondRuns } = await inChildWithEnv<
      { first: Check[]; firstRuns: string[]; second: Check[]; secondRuns: string[] }
    >(
      `
      const { runChecks } = await import(${JSON.stringify(doctor)});
      const root = ${JSON.stringify(root)};
      const runs = async () => {
        const text = await Deno.readTextFile(root + "/runs").catch(() => "");
        await Deno.writeTextFile(root + "/runs", "");
        return text.split("\\n").filter(Boolean).sort();
      };
      const limits = { timeoutMs: 200, retryTimeoutMs: 400 };
      const first = await runChecks(limits);
      const firstRuns = await runs();
      await Deno.remove(root + "/slow");
      const second = await runChecks(limits);
      const secondRuns = await runs();
      console.log(JSON.stringify({ first, firstRuns, second, secondRuns }));`,
      {
        PATH: `${bin}:/usr/bin:/bin`,
        HOME: `${root}/home`,
        UULDANA_HOME: `${root}/data`,
        UULDANA_CONFIG: `${root}/config.json`,
      },
    );
    const agent = first.find((c) => c.name === "agent codex");
    assertEquals(agent?.status, "warn", JSON.stringify(first, null, 1));
    assertEquals(
      agent?.detail,
      `${codex} 9.9.9; not checked yet whether it takes a handoff: 'codex --help' did not ` +
        "answer in 0.2 s, nor in 0.4 s in all; not a refusal: asked again at the next " +
        "`uuldana agents` or handoff",
    );
    assertEquals(agent?.fix, "run `uuldana doctor` again (only what is missing is asked)");
    // No agent of the chain is proven, but one only did not answer: a warning, not a failure.
    const agents = first.find((c) => c.name === "agents");
    assertEquals([agents?.status, agents?.fix], [
      "warn",
      "some did not answer their --help in time: run `uuldana doctor` again",
    ]);
    assert(!first.some((c) => c.status === "fail"), JSON.stringify(first, null, 1));
    assertEquals(firstRuns, ["--help", "--version"]);

    // Once it answers, the next doctor proves it, asking its --help only (the version is cached).
    const proven = second.find((c) => c.name === "agent codex");
    assertEquals([proven?.status, proven?.detail], [
      "ok",
      `${codex} 9.9.9; takes a handoff by prompt`,
    ]);
    assertEquals(second.find((c) => c.name === "agents"), undefined);
    assertEquals(secondRuns, ["--help"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

interface Rec {
  name: string;
  limit: boolean;
  limitText: string | null;
}

function recordings(): Rec[] {
  return readdirSync(CORPUS).filter((f) => f.endsWith(".json")).sort().map((f) =>
    JSON.parse(readFileSync(`${CORPUS}/${f}`, "utf8"))
  );
}

const raw = (name: string) => readFileSync(`${CORPUS}/${name}.raw`);
const timing = (name: string) => {
  try {
    return readFileSync(`${CORPUS}/${name}.timing`, "utf8");
  } catch {
    return undefined;
  }
};

Deno.test("real VT: every limit recording is detected with its message and reset time", () => {
  const now = new Date("2026-03-10T02:00:00Z");
  const expected: Record<string, string | null> = {
    "claude-2.1.197-limit-tool-verbose": "2026-03-11T01:10:00.000Z",
    "claude-2.1.332-limit": "2026-03-11T01:15:00.000Z",
    "claude-2.1.332-limit-default": "2026-03-11T01:24:00.000Z",
    "claude-2.1.332-limit-esc": "2026-03-11T01:15:00.000Z",
    "claude-2.1.332-limit-tool": "2026-03-11T01:15:00.000Z",
    "claude-2.1.332-limit-tool-verbose": "2026-03-11T01:15:00.000Z",
    "claude-2.1.332-limit-typed": "2026-03-11T01:24:00.000Z",
    "claude-2.1.332-limit-weekly": "2026-12-06T01:15:00.000Z",
    "claude-limit-session": "2026-03-10T03:01:00.000Z",
    "codex-limit": "2026-03-10T03:02:00.000Z",
    "gemini-limit-quota-dialog": "2026-03-10T03:06:00.000Z",
    "opencode-mock-429-retry": null,
    "pi-limit-anthropic": null,
    "pi-limit-quota": null,
    // "Please try again in 20s" on pi's rate-limit row, 20 s after the moment it is acted on: pi's
    // final `Error: Retry failed after 3 attempts: …` row, 34.1 s into the recording (its timing).
    // Its retries before (2, 4, 8 s: waits it states) are transient by the policy.
    "pi-limit-rate": "2026-03-10T02:00:54.146Z",
  };
  const limited = recordings().filter((r) => r.limit);
  assertEquals(limited.map((r) => r.name).sort(), Object.keys(expected).sort());
  for (const rec of limited) {
    const adapter = adapterByName(rec.name.split("-")[0])!;
    const report = detectInRecording(adapter, raw(rec.name), {
      cols: 120,
      rows: 40,
      now,
      timing: timing(rec.name),
      timeZone: "UTC",
    });
    assert(report.detected, rec.name);
    assertEquals(report.resetsAt, expected[rec.name], rec.name);
    // The message is the on-screen text with rows re-joined and borders/markers stripped.
    const shown = normalizeSpace(rec.limitText!.replace(/[│■⎿]/g, " ").replace(/\/\n/g, "/"));
    const message = report.message!.replace(/\[retrying in \d+s/, "[retrying in 13s");
    assert(shown.includes(message), `${rec.name}: "${message}" not in "${shown}"`);
  }
});

Deno.test("real VT: no adapter fires at any point of a startup, trust or login recording", () => {
  const now = new Date("2026-03-10T02:00:00Z");
  for (const rec of recordings().filter((r) => !r.limit)) {
    const bytes = raw(rec.name);
    const term = new Terminal({ cols: 120, rows: 40 });
    let offset = 0;
    for (const size of chunkSizes(bytes.length, timing(rec.name))) {
      term.write(bytes.subarray(offset, offset += size));
      const lines = term.logicalScreenLines();
      for (const adapter of ADAPTERS) {
        const hit = adapter.detectLimit(lines, { now, cols: 120 });
        assertEquals(hit, null, `${adapter.name} fired on ${rec.name} at ${offset}`);
      }
    }
  }
});

Deno.test("real VT: a screen showing the composed handoff that quotes a limit message is not detected", () => {
  const handoff = [
    '<uuldana-handoff trust="untrusted historical evidence">',
    "Codex stopped with:",
    "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again at 3:02 AM.",
    "Claude stopped with:",
    "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "Gemini showed: Usage limit reached for all Pro models. Access resets at 3:06 AM UTC.",
    "OpenCode showed: Rate limit reached for requests [retrying in 13s attempt #3]",
    "</uuldana-handoff>",
  ].join("\n");
  const now = new Date("2026-03-10T02:00:00Z");
  // How each TUI echoes a submitted prompt: a marker on the first row, then indented rows, wrapped
  // at 60 columns by the agent.
  const echoes: Record<string, [string, string]> = {
    claude: ["❯ ", "  "],
    codex: ["› ", "  "],
    gemini: [" > ", "   "],
    qwen: ["> ", "  "],
    opencode: ["  ┃  ", "  ┃  "],
    copilot: ["❯ ", "  "],
  };
  const firedWithoutDelivered: string[] = [];
  for (const [name, [first, rest]] of Object.entries(echoes)) {
    const rows: string[] = [];
    for (const line of handoff.split("\n")) {
      for (let i = 0; i < line.length || i === 0; i += 56) rows.push(line.slice(i, i + 56));
    }
    const text = rows.map((r, i) => (i === 0 ? first : rest) + r).join("\r\n") + "\r\n";
    const term = new Terminal({ cols: 60, rows: 40 });
    term.write(text);
    const adapter = adapterByName(name)!;
    const lines = term.logicalScreenLines();
    const hit = adapter.detectLimit(lines, { now, cols: 60, delivered: [handoff] });
    assertEquals(hit, null, `${name}: ${hit?.message}`);
    if (adapter.detectLimit(lines, { now, cols: 60 })) firedWithoutDelivered.push(name);
  }
  // No agent is idle below the echo (no input box, no limit menu): without the delivered text
  // nothing fires either. The delivered text on idle screens: adapters/detect_test.ts.
  assertEquals(firedWithoutDelivered, []);
});

Deno.test("debug detect command: JSON report, explicit --now, unknown agent is a usage error", async () => {
  const env = { PATH: "/usr/bin:/bin", HOME: "/tmp", TZ: "UTC" };
  const res = await uuldana([
    "debug",
    "detect",
    `${CORPUS}/codex-limit.raw`,
    "--agent",
    "codex",
    "--cols",
    "120",
    "--rows",
    "40",
    "--now",
    "2026-03-10T04:00:00Z",
    "--json",
  ], env);
  assertEquals(res.code, 0, res.stderr);
  const report = JSON.parse(res.stdout);
  assertEquals(
    [report.detected, report.kind, report.resetsAt],
    [true, "usage", "2026-03-11T03:02:00.000Z"],
  );
  assert(report.message.includes("https://chatgpt.com/settings/usage to purchase more credits"));
  const none = JSON.parse(
    (await uuldana([
      "debug",
      "detect",
      `${CORPUS}/claude-startup.raw`,
      "--agent",
      "claude",
      "--json",
    ], env))
      .stdout,
  );
  assertEquals([none.detected, none.kind, none.message, none.resetsAt], [false, null, null, null]);
  const bad = await uuldana(
    ["debug", "detect", `${CORPUS}/codex-limit.raw`, "--agent", "nope"],
    env,
  );
  assertEquals(bad.code, 2);
  assert(bad.stderr.includes("known agents"));
});

Deno.test("agents: a probe that did not answer says what to do; answered ones say where they came from", () => {
  const report = (name: string, extra: Partial<AgentReport>): AgentReport => ({
    name,
    displayName: name,
    found: true,
    path: `/bin/${name}`,
    version: "1.0.0",
    versionNote: null,
    acceptsInitialPrompt: true,
    proof: { accepted: true, line: "Usage: x [PROMPT]" },
    cached: true,
    tested: { kind: "tested", tested: "1.0.0", date: "2026-12-01" },
    roads: ["prompt", "paste"],
    defaultRoad: "paste",
    handoffInArgv: false,
    disabled: false,
    installHint: "",
    problem: null,
    limit: null,
    channel: { channel: "hooks" },
    ...extra,
  });
  const slow = report("pi", {
    acceptsInitialPrompt: false,
    cached: false,
    proof: {
      accepted: false,
      line: null,
      inconclusive: true,
      reason: "'pi --help' did not answer",
    },
  });
  const text = renderAgents([report("codex", {}), slow]);
  assert(
    text.endsWith(
      "(pi did not answer in time, on a busy machine most likely: run `uuldana agents` again, " +
        "it asks only what is missing)",
    ),
    text,
  );
  assert(text.includes("initial prompt: unknown  'pi --help' did not answer"), text);
  assert(
    renderAgents([report("codex", {})]).endsWith(
      "(versions and proofs from the cache; `uuldana agents --refresh` probes again)",
    ),
  );
  // A proof the real-agent matrix verified for that exact version: said so, for each one.
  const recorded = (name: string) =>
    report(name, {
      cached: false,
      proof: { accepted: true, line: null, recorded: { version: "1.0.0", date: "2026-12-02" } },
    });
  const both = renderAgents([recorded("codex"), recorded("kilo"), report("pi", {})]);
  assert(
    both.includes("initial prompt: yes  (real-agent matrix: 1.0.0 took a handoff on 2026-12-02)"),
    both,
  );
  assert(
    both.endsWith(
      "(opening-prompt proof of codex, kilo from the real-agent record of those exact versions, " +
        "no --help run; the others from the cache; `uuldana agents --refresh` runs every --help)",
    ),
    both,
  );
  assert(
    renderAgents([recorded("codex"), report("pi", { cached: false })]).endsWith(
      "(opening-prompt proof of codex from the real-agent record of that exact version, no --help " +
        "run; the others probed now, and cached until a binary changes; `uuldana agents " +
        "--refresh` runs every --help)",
    ),
  );
});
