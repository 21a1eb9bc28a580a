/**
 * The README test command's pieces (tools/run_tests.ts): the skip list read from deno test's output,
 * and what a PATH lacks.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { join } from "node:path";
import { closingLine, coreProblem, ignoredTests, skipList } from "./run_tests.ts";
import { missingReason } from "../tests/_needs.ts";

Deno.test("the skips are read from deno test's output, colours or not, and listed by name", () => {
  const output = [
    "running 3 tests from ./tests/completions_test.ts",
    "bash: commands complete ... ok (2s)",
    "\x1b[0mzsh: completes [skipped: zsh is not installed: apt-get install zsh] ... " +
    "\x1b[0m\x1b[33mignored\x1b[0m \x1b[0m\x1b[38;5;245m(0ms)\x1b[0m",
    "fish: completes [skipped: fish is not installed: apt-get install fish] ... ignored (0ms)",
    "a test whose name says ignored ... ok (1ms)",
  ].join("\n");
  const skipped = ignoredTests(output);
  assertEquals(skipped, [
    "zsh: completes [skipped: zsh is not installed: apt-get install zsh]",
    "fish: completes [skipped: fish is not installed: apt-get install fish]",
  ]);
  assertMatch(
    skipList(skipped),
    /^not tested: 2 skipped tests .*\n {2}- zsh: .*apt-get install zsh/,
  );
  assertEquals(skipList([]), "not tested: nothing (no test was skipped)");
});

Deno.test("the run ends with the plain counts CI reads, skips counted", () => {
  assertEquals(
    closingLine("x ... ok\n\x1b[0m\x1b[32mok\x1b[0m | 28 passed | 0 failed | 20 ignored (1m30s)\n"),
    "tests: 28 passed, 0 failed, 20 skipped",
  );
  assertEquals(
    closingLine("FAILED | 1 passed | 2 failed (7s)\n"),
    "tests: 1 passed, 2 failed, 0 skipped",
  );
  assertEquals(closingLine("error: Module not found\n"), null);
});

Deno.test("a program missing from PATH is named with the line that installs it", () => {
  const bin = Deno.makeTempDirSync({ prefix: "uuldana-needs-" });
  try {
    Deno.writeTextFileSync(join(bin, "zsh"), "#!/bin/sh\n");
    Deno.chmodSync(join(bin, "zsh"), 0o755);
    Deno.writeTextFileSync(join(bin, "fish"), "not executable");
    assertEquals(missingReason(["zsh"], bin), "");
    assertEquals(missingReason(["fish"], bin), "fish is not installed: apt-get install fish");
    assertEquals(
      missingReason(["posh", "curl", "wget"], bin),
      "posh, curl and wget are not installed: apt-get install posh curl wget",
    );
    assertEquals(
      missingReason(["posh", "curl", "posh"], bin),
      "posh and curl are not installed: apt-get install posh curl",
    );
    assertEquals(
      coreProblem(bin),
      'the tests need tmux, script, ps, pgrep (see README.md, "Working on it from source"): ' +
        "apt-get install tmux bsdutils procps",
    );
  } finally {
    Deno.removeSync(bin, { recursive: true });
  }
});
