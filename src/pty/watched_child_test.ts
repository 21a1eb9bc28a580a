import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { watchedArgv } from "./watched_child.ts";
import { processAlive } from "../process_alive.ts";

/** Starts `sh -c script` watched for `watchPid`; the script's first line of output is a pid. */
async function startWatched(script: string, watchPid: number) {
  const [cmd, ...args] = watchedArgv(["sh", "-c", script], watchPid);
  const wrapper = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).spawn();
  const reader = wrapper.stdout.getReader();
  const pid = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  return {
    pid,
    async end() {
      await wrapper.status;
      await wrapper.stdout.cancel();
    },
  };
}

async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !processAlive(pid);
}

Deno.test("a watched command keeps the wrapper's pid, its output and exit status", async () => {
  const [cmd, ...args] = watchedArgv(["sh", "-c", "echo $$; echo err >&2; exit 7"], Deno.pid);
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).spawn();
  const out = await child.output();
  const dec = new TextDecoder();
  assertEquals([out.code, dec.decode(out.stdout), dec.decode(out.stderr)], [
    7,
    `${child.pid}\n`,
    "err\n",
  ]);
});

Deno.test("a watched command dies within seconds of the process it watches", async () => {
  const watched = new Deno.Command("sleep", { args: ["1"] }).spawn();
  const helper = await startWatched("echo $$; exec sleep 60", watched.pid);
  assertEquals(processAlive(helper.pid), true);
  await watched.status;
  assertEquals(await gone(helper.pid), true);
  await helper.end();
});

Deno.test("what a watched command started goes with it (a launcher's real binary)", async () => {
  const watched = new Deno.Command("sleep", { args: ["1"] }).spawn();
  // A launcher that starts the real program as its child and waits for it.
  const launcher = await startWatched("sleep 60 & echo $!; wait", watched.pid);
  assertEquals(processAlive(launcher.pid), true);
  await watched.status;
  assertEquals(await gone(launcher.pid), true);
  await launcher.end();
});

Deno.test("the watcher's command line names no part of the watched command", async () => {
  const marker = `uuldana-watched-${crypto.randomUUID()}`;
  // `sh -c SCRIPT MARKER`: the command's own command line holds the marker while it runs.
  const [cmd, ...args] = watchedArgv(["sh", "-c", "echo $$; sleep 3", marker], Deno.pid);
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).spawn();
  const reader = child.stdout.getReader();
  const pid = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  await new Promise((r) => setTimeout(r, 300));
  const found = new TextDecoder().decode(
    (await new Deno.Command("pgrep", { args: ["-f", marker], stdout: "piped" }).output()).stdout,
  ).trim().split("\n").filter(Boolean).map(Number);
  // Only the command (the wrapper's pid) carries it, not the watcher beside it.
  assertEquals([found, pid], [[child.pid], child.pid]);
  child.kill("SIGKILL");
  await child.status;
  await child.stdout.cancel();
});
