import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as table from "./process_table.ts";

function spawn(cmd: string, ...args: string[]): Deno.ChildProcess {
  return new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" }).spawn();
}

Deno.test("a child is found under its parent, with its command line, alive until killed", async () => {
  // sh starts sleep and says its pid (Deno's own children hang off another thread of its).
  const parent = new Deno.Command("sh", {
    args: ["-c", "sleep 30 & echo $!; wait"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = parent.stdout.getReader();
  const pid = Number(new TextDecoder().decode((await reader.read()).value).trim());
  reader.releaseLock();
  try {
    assertEquals(await table.childrenOf(parent.pid), [pid]);
    // Between its fork and its exec the child has no command line of its own yet.
    const deadline = Date.now() + 5_000;
    while (!(await table.cmdline(pid)).includes("sleep") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert((await table.cmdline(pid)).includes("sleep"), JSON.stringify(await table.cmdline(pid)));
    assertEquals(await table.ttyOf(pid), null); // no terminal on its stdio
    assert(await table.alive(pid));
    table.kill(pid, "SIGKILL");
    await parent.status;
    assertEquals(await table.alive(pid), false);
    assertEquals(await table.cmdline(pid), "");
    assertEquals(await table.childrenOf(parent.pid), []);
    table.kill(pid, "SIGKILL"); // gone: no error
  } finally {
    table.kill(parent.pid, "SIGKILL");
    await parent.status;
    await parent.stdout.cancel();
  }
});

Deno.test("a session's members are found and swept, the leader's children too", async () => {
  // setsid execs in place (a Deno child leads no group): the child is its session's leader.
  const child = spawn("setsid", "sh", "-c", "sleep 30 & sleep 30");
  try {
    const deadline = Date.now() + 5_000;
    let members: number[] = [];
    while (members.length < 3 && Date.now() < deadline) {
      members = await table.sessionMembers(child.pid);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert(members.includes(child.pid), `${members}`);
    assertEquals(members.length, 3, `${members}`); // sh and its two sleeps
    await table.sweepSession(child.pid);
    assertEquals(await table.sessionMembers(child.pid), []);
  } finally {
    table.kill(child.pid, "SIGKILL");
    await child.status;
  }
});
