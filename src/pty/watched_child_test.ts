import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { watchedArgv } from "./watched_child.ts";
import { processAlive } from "../process_alive.ts";

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
  const [cmd, ...args] = watchedArgv(["sh", "-c", "echo $$; exec sleep 60"], watched.pid);
  const wrapper = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).spawn();
  const reader = wrapper.stdout.getReader();
  const pid = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  assertEquals(processAlive(pid), true);
  await watched.status;
  const deadline = Date.now() + 5_000;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assertEquals(processAlive(pid), false);
  await wrapper.status;
  await wrapper.stdout.cancel();
});

Deno.test("what a watched command started goes with it (a launcher's real binary)", async () => {
  const watched = new Deno.Command("sleep", { args: ["1"] }).spawn();
  // A launcher that starts the real program as its child and waits for it.
  const [cmd, ...args] = watchedArgv(["sh", "-c", "sleep 60 & echo $!; wait"], watched.pid);
  const wrapper = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).spawn();
  const reader = wrapper.stdout.getReader();
  const grandchild = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  assertEquals(processAlive(grandchild), true);
  await watched.status;
  const deadline = Date.now() + 5_000;
  while (processAlive(grandchild) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assertEquals(processAlive(grandchild), false);
  await wrapper.status;
  await wrapper.stdout.cancel();
});
