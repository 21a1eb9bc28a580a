import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeWorkspace } from "./workspace.ts";
import { STATUS_LINES } from "./package.ts";

function git(dir: string, ...args: string[]) {
  const res = new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!res.success) throw new Error(new TextDecoder().decode(res.stderr));
}

Deno.test("not a repository: path only", async () => {
  const dir = Deno.makeTempDirSync();
  assertEquals(await describeWorkspace(dir), { path: dir, git: null });
});

Deno.test("a fresh repository: branch before the first commit, untracked files", async () => {
  const dir = Deno.makeTempDirSync();
  git(dir, "init", "-q", "-b", "trunk");
  writeFileSync(join(dir, "a.txt"), "a");
  const d = await describeWorkspace(dir);
  assertEquals(d, { path: dir, git: { branch: "trunk", status: "?? a.txt" } });
});

Deno.test("a detached HEAD has no branch; the status is bounded", async () => {
  const dir = Deno.makeTempDirSync();
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "base"), "x");
  git(dir, "add", "base");
  git(dir, "commit", "-q", "-m", "base");
  git(dir, "checkout", "-q", "--detach");
  for (let i = 0; i < STATUS_LINES + 5; i++) writeFileSync(join(dir, `f${i}`), "");
  const d = await describeWorkspace(join(dir, "."));
  assertEquals(d.git?.branch, null);
  const lines = d.git!.status.split("\n");
  assertEquals(lines.length, STATUS_LINES + 1);
  assertEquals(lines[STATUS_LINES], "… and 5 more");
  assert(lines.slice(0, STATUS_LINES).every((l) => l.startsWith("?? f")));
});
