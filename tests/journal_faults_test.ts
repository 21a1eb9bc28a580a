/**
 * A journal that cannot be written never touches the keyboard or the agent: a real `uuldana run`
 * in tmux with simulated agents, while a second process holds a real SQLite write lock on the
 * journal (or the disk under it is full). Keys reach the agent, the switch happens with the
 * conversation, the user is told once, and what was kept in memory lands once the file takes it.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { framedBody, until, World } from "./_world.ts";
import { REPO_DIR } from "./_paths.ts";
import { runUuldana, type UuldanaOutput } from "./_uuldana.ts";
import { Journal } from "../src/journal/journal.ts";
import { CAN_MOUNT, mountingTest, mountTmpfs, sh } from "./_tmpfs.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const HOLD_LOCK = join(REPO_DIR, "tests/fixtures/faults/hold_lock.ts");

/** Starts a process that holds the journal's write lock until `release()`. */
async function holdLock(journalFile: string): Promise<{ release(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", HOLD_LOCK, journalFile],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assertEquals(new TextDecoder().decode(value).trim(), "locked");
  reader.releaseLock();
  return {
    async release() {
      await child.stdin.close();
      await child.status;
      await child.stdout.cancel();
    },
  };
}

/** Starts `uuldana run`, records what it writes, and locks the journal once the agent runs. */
async function startLocked(
  w: World,
  screenLog: string,
): Promise<{ release(): Promise<void> }> {
  await w.start(["run"]);
  await w.term.record(screenLog);
  await w.waitForEvent("claude", "start");
  return await holdLock(join(w.home, "journal.db"));
}

/** Asks `agent` (World.ask) and waits until it took `text` as its turn number `turn`. */
async function ask(
  w: World,
  agent: string,
  text: string,
  turn: number,
  ready: string | null = "? for shortcuts",
): Promise<void> {
  await w.ask(agent, text, ready);
  await w.waitForEvent(agent, "submit", turn);
}

/** Waits until what the window's program wrote (recorded by `record`) matches `pattern`. */
async function waitForOutput(file: string, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file) && pattern.test(readFileSync(file, "latin1"))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${pattern} in the output:\n${readFileSync(file, "latin1").slice(-3000)}`);
}

/** What every fault test asks of the journal once the fault is over: the run, its turns, the handoff. */
function assertSavedAfter(w: World, turns: string[]): void {
  w.withJournal((j) => {
    const [codexRun, claudeRun] = j.runs();
    assertEquals([claudeRun.agent, claudeRun.endReason, codexRun.agent], [
      "claude",
      "limit",
      "codex",
    ]);
    assertEquals(
      j.entries(claudeRun.id).filter((e) => e.role === "user").map((e) => e.text),
      turns,
    );
    assert(j.screen(claudeRun.id)!.some((l) => l.includes("You've hit your session limit")));
    const [h] = j.handoffsFrom(claudeRun.id);
    assertEquals([h.toAgent, h.status, h.toRun], ["codex", "delivered", codexRun.id]);
    assert(readFileSync(h.filePath!, "utf8").includes(turns.at(-1)!));
  });
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

Deno.test(
  "a journal locked by another process: keys reach the agent, the switch carries the turns, told once, saved after",
  opts,
  async () => {
    const w = new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "2" } });
    const screenLog = join(w.root, "screen.log");
    let lock: { release(): Promise<void> } | null = null;
    try {
      lock = await startLocked(w, screenLog);

      await ask(w, "claude", "first request while the journal is locked", 1);
      // The keyboard survived the failed write: the second turn reaches the agent too, and its
      // limit hands the whole conversation (kept in memory) to codex.
      await ask(w, "claude", "second request, still locked", 2);
      const [start] = await w.waitForEvent("codex", "start");
      const framed = framedBody(String(start.prompt));
      assert(framed, String(start.prompt).slice(0, 500));
      assert(framed.body.includes("first request while the journal is locked"), framed.body);
      assert(framed.body.includes("second request, still locked"), framed.body);

      await lock.release();
      lock = null;
      // Kept writes are retried every 2 s; the next key press retries too. What uuldana says about
      // it while codex runs is said once codex is gone (nothing is written into its screen).
      await until(
        () => w.withJournal((j) => j.runs().some((r) => r.agent === "codex")),
        "the kept writes saved",
        10_000,
      );
      assertEquals(await w.quit(), 0);
      await waitForOutput(screenLog, /takes writes again/, 5_000);

      const screen = readFileSync(screenLog, "latin1");
      assertEquals(count(screen, "is locked by another process"), 1, screen.slice(-3000));
      assert(!/Uncaught|internal error|\n\s+at /.test(screen), screen.slice(-3000));
      assertSavedAfter(w, [
        "first request while the journal is locked",
        "second request, still locked",
      ]);
    } finally {
      await lock?.release();
      await w.close();
    }
  },
);

Deno.test(
  "Ctrl-C while the journal is still locked ends uuldana at once; what was not saved is kept in a file",
  opts,
  async () => {
    const w = new World(["claude"]);
    const screenLog = join(w.root, "screen.log");
    let lock: { release(): Promise<void> } | null = null;
    try {
      lock = await startLocked(w, screenLog);
      await ask(w, "claude", "a request nobody can save", 1);
      assertEquals(await w.quit(10_000), 0);
      await waitForOutput(screenLog, /journal writes it never took are in \S+\.jsonl/, 1_000);
      const screen = readFileSync(screenLog, "latin1");
      assert(!/Uncaught|internal error|\n\s+at /.test(screen), screen.slice(-3000));
      const file = /never took are in (\S+\.jsonl)/.exec(screen.replace(/\r?\n/g, ""))![1];
      assert(readFileSync(file, "utf8").includes("a request nobody can save"));
    } finally {
      await lock?.release();
      await w.close();
    }
  },
);

for (
  const fault of [
    {
      name: "the disk under the journal is full",
      start: (home: string) => sh(`dd if=/dev/zero of=${home}/filler bs=64k 2>/dev/null; sync`),
      told: "cannot grow: the disk is full",
      end: (home: string) => sh(`rm -f ${home}/filler`),
    },
    {
      // A read-only bind mount over the data directory: new files (the handoff file) are refused.
      // The journal's open file keeps its write access, as on any Unix, so it goes on being written.
      name: "the data directory is made read-only",
      start: (home: string) =>
        sh(`mount --bind ${home} ${home} && mount -o remount,bind,ro ${home}`),
      told: null,
      // Lazily: a file uuldana opened under the read-only mount (a reader of the run's files)
      // keeps a plain umount busy, and it would fail unseen, leaving the folder read-only.
      end: (home: string) => sh(`umount -l ${home}`),
    },
  ]
) {
  Deno.test({
    name: mountingTest(
      `${fault.name} mid-run: keys reach the agent, the handoff still happens, saved after`,
    ),
    ignore: !CAN_MOUNT,
    ...opts,
    fn: async () => {
      const w = new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "2" } });
      const screenLog = join(w.root, "screen.log");
      assert(await mountTmpfs(w.home, "8m"));
      let faulty = false;
      let passed = false;
      try {
        await w.start(["run"]);
        await w.term.record(screenLog);
        await w.waitForEvent("claude", "start");
        await w.term.waitFor("? for shortcuts");
        await fault.start(w.home);
        faulty = true;

        // Ready already: uuldana's lines about the fault may cover the agent's footer now.
        await ask(w, "claude", "first request on a bad disk", 1, null);
        await ask(w, "claude", "second request on a bad disk", 2, null);
        const [start] = await w.waitForEvent("codex", "start");
        const framed = framedBody(String(start.prompt));
        assert(framed, String(start.prompt).slice(0, 500));
        assert(framed.body.includes("first request on a bad disk"), framed.body);
        assert(framed.body.includes("second request on a bad disk"), framed.body);
        // Said at the switch, when the screen is uuldana's.
        await waitForOutput(screenLog, /could not write \S+handoffs\/\S+\.md/, 5_000);
        const file = /could not write (\S+handoffs\/\S+\.md)/.exec(
          readFileSync(screenLog, "latin1"),
        )![1];

        await fault.end(w.home);
        faulty = false;
        // Written at the next retry; what is said about it while codex runs is said once it is
        // gone (nothing is written into its screen).
        await until(() => existsSync(file), "the handoff file written", 10_000);
        assertEquals(await w.quit(), 0);
        if (fault.told) await waitForOutput(screenLog, /takes writes again/, 5_000);
        await waitForOutput(screenLog, /wrote \S+handoffs\/\S+\.md/, 5_000);

        const screen = readFileSync(screenLog, "latin1");
        const kept = count(screen, "keeping what is not saved in memory");
        if (fault.told) {
          assertEquals([count(screen, fault.told), kept], [1, 1], screen.slice(-3000));
        } else assertEquals(kept, 0);
        assert(!/Uncaught|internal error|\n\s+at /.test(screen), screen.slice(-3000));
        assertSavedAfter(w, ["first request on a bad disk", "second request on a bad disk"]);
        passed = true;
      } finally {
        if (faulty) await fault.end(w.home);
        // A failed body's own error is the one to see, not the replay's of a journal left faulty.
        await w.close({ replay: passed });
        await sh(`umount -l ${w.home}`);
      }
    },
  });
}

Deno.test(
  "exec with the journal locked for its whole run: the failover works, and what was never saved is kept in a file",
  opts,
  async () => {
    const root = Deno.makeTempDirSync({ prefix: "uuldana-exec-locked-" });
    const data = join(root, "data");
    Deno.mkdirSync(data);
    Journal.open(data).close();
    const fakes = join(REPO_DIR, "tests/fixtures/headless_agents");
    const lock = await holdLock(join(data, "journal.db"));
    let out: UuldanaOutput;
    try {
      out = await runUuldana(["exec", "fix the flaky test", "--agents", "claude,codex"], {
        cwd: root,
        env: {
          UULDANA_HOME: data,
          UULDANA_CONFIG: join(root, "none.json"),
          UULDANA_CLAUDE_BIN: join(fakes, "claude"),
          UULDANA_CODEX_BIN: join(fakes, "codex"),
          FAKE_CLAUDE_MODE: "limit",
          FAKE_AGENT_LOG: root,
          NO_COLOR: "1",
        },
      });
    } finally {
      await lock.release();
    }
    assertEquals([out.code, out.stdout], [0, "FAKE CODEX ANSWER\n"], out.stderr);
    // Told once when it began, once at the end with where the rest is.
    assertEquals(count(out.stderr, "keeping what is not saved in memory"), 1, out.stderr);
    assert(!/internal error|Uncaught|\n\s+at /.test(out.stderr), out.stderr);
    const kept = /journal writes it never took are in (\S+\.jsonl)/.exec(out.stderr)?.[1];
    assert(kept, out.stderr);
    const writes = readFileSync(kept, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert(writes.some((w) => w.kind === "addEntry" && w.entry.text === "fix the flaky test"));
    assert(writes.some((w) => w.kind === "addHandoff" && w.handoff.toAgent === "codex"));
  },
);
