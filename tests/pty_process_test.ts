import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnPty } from "../src/pty/pty_process.ts";
import { burstBlocks } from "./fixtures/pty_agents/burst_data.ts";
import { AGENTS_DIR, denoAgent, isAlive, OutputReader } from "./fixtures/pty_agents/harness.ts";

/** 20,000 code points over many lines, with everything a shell could misread. */
function nastyArgument(): string {
  const pieces = [
    `it's "quoted"`,
    "$HOME ${PATH} $(id) `id` $$ $1",
    "\ttab\t\t",
    "\n",
    "back\\slash \\n \\' \\\"",
    "héllo wörld ✓ 🎉 日本語 ",
    "!*?[a-z]{x,y};&&||<>#~%^",
    "\r\n",
    " ' '' ''' ",
  ];
  let s = "";
  for (let i = 0; [...s].length < 20_000; i++) s += pieces[i % pieces.length] + ` ${i} `;
  return [...s].slice(0, 20_000).join("");
}

Deno.test("argv arrives byte-identical, size is set before start, SHELL is the user's, exit code", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/argv.json`;
    const big = nastyArgument();
    const args = [big, "", " ", "x y", "'", '"', "-n", "--", "$", "a\nb", "é"];
    const p = await spawnPty({
      argv: denoAgent("argv_dump.ts", ...args),
      cols: 123,
      rows: 45,
      env: { PTY_AGENT_OUT: out, PTY_AGENT_EXIT: "42", SHELL: "/usr/bin/fish" },
    });
    const reader = new OutputReader(p);
    const exit = await p.exited;
    await reader.done;
    assert(reader.text.includes("argv-ok"), reader.text);
    assertEquals(exit, { code: 42, signal: null, stoppedBy: "exit" });
    const got = JSON.parse(await Deno.readTextFile(out));
    assertEquals(got.args.length, args.length);
    assertEquals(got.args[0] === big, true, "the 20,000-character argument changed");
    assertEquals(got.args, args);
    assertEquals([got.cols, got.rows], [123, 45]);
    assertEquals(got.shell, "/usr/bin/fish");
    assertEquals(got.outerShellVar, null);
    assertEquals(got.isTerminal, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exit codes pass through and the last output before exit is not lost", async () => {
  for (const code of [0, 1, 3, 255]) {
    const p = await spawnPty({
      argv: ["/bin/sh", "-c", `printf 'done %s' ${code}; exit ${code}`],
      cols: 80,
      rows: 24,
    });
    const reader = new OutputReader(p);
    assertEquals(await p.exited, { code, signal: null, stoppedBy: "exit" });
    await reader.done;
    assertEquals(reader.text, `done ${code}`);
  }
});

Deno.test("a missing program exits 127 through the shim", async () => {
  const p = await spawnPty({ argv: ["/nonexistent/agent"], cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  assertEquals((await p.exited).code, 127);
  await reader.done;
});

Deno.test("resize: the agent gets SIGWINCH and sees the new size", async () => {
  const p = await spawnPty({ argv: denoAgent("size_watch.ts"), cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  try {
    await reader.waitFor("size 80 24");
    await p.resize(132, 50);
    await reader.waitFor("winch 132 50");
    await p.resize(40, 10);
    await reader.waitFor("winch 40 10");
    await p.write(new TextEncoder().encode("q"));
    assertEquals((await p.exited).code, 0);
  } finally {
    await p.stop({ termMs: 500 });
    await reader.done;
  }
});

Deno.test("a resize right after spawn is not undone by the start-size prelude", async () => {
  const p = await spawnPty({ argv: denoAgent("size_watch.ts"), cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  try {
    await p.resize(100, 33);
    await reader.waitFor(/(size|winch) 100 33/);
  } finally {
    await p.stop({ quitKeys: ["q"], graceMs: 5000 });
    await reader.done;
  }
});

for (const borrowChunks of [false, true]) {
  const how = borrowChunks ? "borrowed chunks, each used before the next read" : "owned chunks";
  Deno.test(`50 MB burst, ${how}: every byte arrives, in order (hash)`, async () => {
    const total = 50 * 1024 * 1024;
    const expected = createHash("sha256");
    for (const block of burstBlocks(total)) expected.update(block);
    const p = await spawnPty({
      argv: denoAgent("burst.ts", String(total)),
      cols: 80,
      rows: 24,
      borrowChunks,
    });
    const got = createHash("sha256");
    let n = 0;
    for await (const chunk of p.output) {
      // A little work per chunk, as the session does: the reader must never get ahead of it.
      await new Promise((r) => setTimeout(r, 0));
      got.update(chunk);
      n += chunk.length;
    }
    assertEquals((await p.exited).code, 0);
    assertEquals(n, total);
    assertEquals(got.digest("hex"), expected.digest("hex"));
  });
}

Deno.test("stop: the agent's quit keys are honoured first", async () => {
  const p = await spawnPty({ argv: denoAgent("quit_keys.ts"), cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  await reader.waitFor("ready");
  const exit = await p.stop({ quitKeys: ["/quit", "\r"], graceMs: 10_000 });
  await reader.done;
  assertEquals(exit, { code: 7, signal: null, stoppedBy: "quit-keys" });
  assert(reader.text.includes("bye"), reader.text);
});

Deno.test("stop: without quit keys SIGTERM goes to the agent's process group", async () => {
  const p = await spawnPty({ argv: denoAgent("quit_keys.ts", "--term-ok"), cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  await reader.waitFor("ready");
  const agent = await p.agentPid();
  assert(agent !== null);
  const exit = await p.stop({ termMs: 10_000 });
  await reader.done;
  assertEquals(exit, { code: 143, signal: "SIGTERM", stoppedBy: "SIGTERM" });
  assertEquals(isAlive(agent), false);
  assertEquals(isAlive(p.pid), false);
});

Deno.test("stop: a SIGTERM-ignoring agent gets SIGKILL and leaves no process behind", async () => {
  const p = await spawnPty({ argv: [`${AGENTS_DIR}stubborn.sh`], cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  await reader.waitFor("ready");
  const agent = await p.agentPid();
  assert(agent !== null);
  const kids = [...reader.text.matchAll(/group (\d+)/g)].map((m) => Number(m[1]));
  assertEquals(kids.length, 2, reader.text);
  for (const pid of [agent, ...kids]) assert(isAlive(pid), `pid ${pid} should be running`);
  const exit = await p.stop({ quitKeys: ["\x03"], graceMs: 300, termMs: 300 });
  await reader.done;
  assertEquals(exit.stoppedBy, "SIGKILL");
  assertEquals(exit.signal, "SIGKILL");
  for (const pid of [p.pid, agent, ...kids]) assertEquals(isAlive(pid), false, `pid ${pid} left`);
  assertEquals(await p.agentPid(), null);
});

Deno.test("after exit: write is a no-op, stop returns the exit, agentPid is null", async () => {
  const p = await spawnPty({ argv: ["/bin/sh", "-c", "exit 5"], cols: 80, rows: 24 });
  const reader = new OutputReader(p);
  const exit = await p.exited;
  await reader.done;
  await p.write(new TextEncoder().encode("late keys"));
  assertEquals(await p.stop({ quitKeys: ["q"] }), exit);
  assertEquals(exit.code, 5);
  assertEquals(await p.agentPid(), null);
});

Deno.test("keys written reach the agent unchanged (raw pty, all byte values but NUL)", async () => {
  const p = await spawnPty({ argv: [`${AGENTS_DIR}echo_raw.sh`], cols: 80, rows: 24 });
  const got: number[] = [];
  const done = (async () => {
    for await (const chunk of p.output) got.push(...chunk);
  })();
  // Wait until cat runs in raw mode: only then does Ctrl-A come back as the byte 0x01 (the
  // cooked pty before `stty raw -echo` echoes it as "^A").
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  while (!got.includes(0x01)) {
    await p.write(new Uint8Array([0x01]));
    await sleep(50);
  }
  for (let n = -1; n !== got.length;) {
    n = got.length;
    await sleep(200);
  }
  const sent = Uint8Array.from({ length: 255 }, (_, i) => i + 1);
  const start = got.length;
  await p.write(sent);
  const deadline = Date.now() + 20_000;
  while (got.length - start < sent.length && Date.now() < deadline) await sleep(10);
  await p.stop({ termMs: 2000 });
  await done;
  assertEquals(got.slice(start), [...sent]);
});
