/**
 * Commands on a journal that is locked by another process or damaged: one line that names the
 * file and says what to do, exit 1, never "internal error" or a stack trace; a write lock alone
 * does not stop reading.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Journal, JOURNAL_FILE } from "../src/journal/journal.ts";
import { REPO_DIR } from "./_paths.ts";
import { runUuldana, type UuldanaOutput } from "./_uuldana.ts";
import { CAN_MOUNT, mountingTest, mountTmpfs, sh } from "./_tmpfs.ts";

const HOLD_LOCK = join(REPO_DIR, "tests/fixtures/faults/hold_lock.ts");
const opts = { sanitizeOps: false, sanitizeResources: false };

/** A data directory whose journal holds one run, still open, whose uuldana is gone. */
async function homeWithRun(): Promise<string> {
  const home = Deno.makeTempDirSync({ prefix: "uuldana-cli-faults-" });
  const j = Journal.open(home);
  const id = j.startRun({ agent: "claude", workspace: "/w", transport: "pty" });
  for (let i = 0; i < 200; i++) {
    j.addEntry(id, { role: "user", text: `turn ${i} ${"x".repeat(200)}`, fidelity: "keystrokes" });
  }
  j.close();
  const gone = new Deno.Command("true").spawn();
  await gone.status;
  const db = new DatabaseSync(join(home, JOURNAL_FILE));
  db.prepare("UPDATE runs SET owner_pid = ?").run(gone.pid);
  db.close();
  return home;
}

async function holdLock(file: string, mode: "write" | "exclusive") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-write", HOLD_LOCK, file, mode],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  assertEquals(new TextDecoder().decode((await reader.read()).value).trim(), "locked");
  reader.releaseLock();
  return async () => {
    await child.stdin.close();
    await child.status;
    await child.stdout.cancel();
  };
}

function oneLine(r: UuldanaOutput, what: RegExp, hint: RegExp): void {
  assertEquals(r.code, 1, r.stderr);
  const lines = r.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 2, r.stderr);
  assertMatch(lines[0], what);
  assertMatch(lines[1], hint);
  assert(!/internal error|please report|\n\s+at /.test(r.stderr), r.stderr);
}

const uuldana = (args: string[], home: string) =>
  runUuldana(args, { env: { UULDANA_HOME: home, NO_COLOR: "1" } });

Deno.test("a write lock held by another process does not stop `runs` or `show`", opts, async () => {
  const home = await homeWithRun();
  const release = await holdLock(join(home, JOURNAL_FILE), "write");
  try {
    const runs = await uuldana(["runs", "--json"], home);
    assertEquals(runs.code, 0, runs.stderr);
    assertEquals(JSON.parse(runs.stdout).map((r: { agent: string }) => r.agent), ["claude"]);
    const show = await uuldana(["show", "last", "--json"], home);
    assertEquals(show.code, 0, show.stderr);
    assertEquals(JSON.parse(show.stdout).entries.length, 200);
  } finally {
    await release();
  }
  // Once the file is free, the next start marks the run interrupted.
  const runs = await uuldana(["runs", "--json"], home);
  assertEquals(JSON.parse(runs.stdout)[0].endReason, "interrupted");
});

Deno.test(
  "a journal another process locked exclusively: one line naming the file",
  opts,
  async () => {
    const home = await homeWithRun();
    const file = join(home, JOURNAL_FILE);
    const release = await holdLock(file, "exclusive");
    try {
      // At once: each waits the journal's busy time (5 s) before it says so.
      const commands = [["runs"], ["show", "last"], ["export", "last", "--asciicast", "-"]];
      for (const r of await Promise.all(commands.map((args) => uuldana(args, home)))) {
        oneLine(
          r,
          new RegExp(`journal ${file} is locked by another process`),
          /fuser .*journal\.db/,
        );
      }
    } finally {
      await release();
    }
  },
);

Deno.test(
  "a damaged journal: one line naming the file, for reading commands and `run`",
  opts,
  async () => {
    const home = await homeWithRun();
    const file = join(home, JOURNAL_FILE);
    // Garbage over every page after the first: the header and schema read, the tables do not.
    const bytes = Deno.readFileSync(file);
    bytes.fill(0xa5, 4096);
    Deno.writeFileSync(file, bytes);
    for (const args of [["runs"], ["show", "last"], ["run", "claude"]]) {
      oneLine(
        await uuldana(args, home),
        new RegExp(`journal ${file} is damaged`),
        /move the file away/,
      );
    }
  },
);

Deno.test({
  name: mountingTest(
    "a full disk where the journal would be created: one line naming the file, for `run` too",
  ),
  ignore: !CAN_MOUNT,
  ...opts,
  fn: async () => {
    const disk = Deno.makeTempDirSync({ prefix: "uuldana-full-" });
    assert(await mountTmpfs(disk, "256k"));
    try {
      await sh(`dd if=/dev/zero of=${disk}/filler bs=4k 2>/dev/null`);
      const home = join(disk, "home");
      for (const args of [["runs"], ["run", "claude"]]) {
        oneLine(
          await uuldana(args, home),
          new RegExp(`journal ${join(home, JOURNAL_FILE)} cannot grow: the disk is full`),
          /free some space/,
        );
      }
    } finally {
      await sh(`umount -l ${disk}`);
    }
  },
});
