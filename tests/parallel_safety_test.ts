/**
 * The suite runs its files in parallel in one process (`deno test --parallel`), so a test that
 * changes what the process shares changes it under every other test running then, and the children
 * they start. No test code may set the environment, change the working directory or take a signal.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_DIR } from "./_paths.ts";

/** What changes the process' shared state, as it is written in source. */
const SHARED_STATE = [
  /\bDeno\.env\.(?:set|delete)\s*\(/,
  /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]/,
  /\bdelete\s+process\.env\b/,
  /\b(?:Deno|process)\.chdir\s*\(/,
  /\bDeno\.addSignalListener\s*\(/,
  /\bprocess\.on\s*\(\s*["']SIG/,
];

/** Every test file and test helper of the repository (by git), but this one: its samples. */
function testSources(): string[] {
  const out = new Deno.Command("git", { args: ["ls-files", "-z"], cwd: REPO_DIR, stdout: "piped" })
    .outputSync();
  return new TextDecoder().decode(out.stdout).split("\0").filter((f) =>
    /\.ts$/.test(f) && (/_test(?:_util)?\.ts$/.test(f) || /^tests\/_[^/]+\.ts$/.test(f)) &&
    f !== "tests/parallel_safety_test.ts"
  );
}

Deno.test("no test changes the environment, the working directory or signal handling", () => {
  const found: string[] = [];
  for (const file of testSources()) {
    const lines = readFileSync(join(REPO_DIR, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (SHARED_STATE.some((re) => re.test(line))) {
        found.push(`${file}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assertEquals(found, []);
});

Deno.test("the check sees each way of changing shared state", () => {
  const samples = [
    `Deno.env.set("X", "1");`,
    `Deno.env.delete("X");`,
    `process.env.X = "1";`,
    `process.env[NAME] = dir;`,
    `delete process.env[NAME];`,
    `Deno.chdir("/tmp");`,
    `Deno.addSignalListener("SIGINT", f);`,
    `process.on("SIGTERM", f);`,
  ];
  assertEquals(samples.filter((s) => !SHARED_STATE.some((re) => re.test(s))), []);
  assertEquals(SHARED_STATE.some((re) => re.test(`if (process.env.X === "1") f();`)), false);
});
