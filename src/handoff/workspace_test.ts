import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeWorkspace, headCommit } from "./workspace.ts";
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

Deno.test("changes since the work started: git diff --stat against its commit, committed or not", async () => {
  const dir = Deno.makeTempDirSync();
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "deploy.sh"), "echo deploy\n");
  git(dir, "add", "deploy.sh");
  git(dir, "commit", "-q", "-m", "base");
  const base = (await headCommit(dir))!;
  assert(/^[0-9a-f]{40}$/.test(base), base);
  writeFileSync(join(dir, "deploy.sh"), 'echo deploy\nif [ "$1" = --dry-run ]; then exit 0; fi\n');
  git(dir, "commit", "-q", "-am", "dry run");
  writeFileSync(join(dir, "deploy.sh"), "echo deploy\n# more\n");
  const d = await describeWorkspace(dir, base);
  assertEquals(d.git!.changes!.base, base.slice(0, 12));
  assert(/deploy\.sh \| 1 \+/.test(d.git!.changes!.stat), d.git!.changes!.stat);
  assert(/1 file changed/.test(d.git!.changes!.stat), d.git!.changes!.stat);
  // Many files: the first ones, a count, and the closing total.
  for (let i = 0; i < STATUS_LINES + 5; i++) writeFileSync(join(dir, `f${i}`), "x\n");
  git(dir, "add", ".");
  const many = (await describeWorkspace(dir, base)).git!.changes!.stat.split("\n");
  assertEquals(many.length, STATUS_LINES + 2);
  assertEquals(many.at(-2), "… and 6 more");
  assert(/26 files changed/.test(many.at(-1)!), many.at(-1));
  // No base, or not a commit name: no changes section.
  assertEquals((await describeWorkspace(dir)).git!.changes, undefined);
  assertEquals((await describeWorkspace(dir, "HEAD; rm -rf /")).git!.changes, undefined);
  assertEquals(await headCommit(Deno.makeTempDirSync()), null);
});
