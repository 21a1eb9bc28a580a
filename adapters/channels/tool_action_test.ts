import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { describeAction, statedExitCode, TARGET_MAX, toolAction } from "./tool_action.ts";

Deno.test("toolAction: each agent's own tool names and inputs become one kind of action", () => {
  const cases: [string, unknown, string][] = [
    ["Bash", { command: "npm test" }, "ran `npm test`"],
    ["run_shell_command", { command: "ls -la" }, "ran `ls -la`"],
    [
      "Edit",
      { file_path: "/ws/src/deploy.sh", old_string: "a", new_string: "b" },
      "edited /ws/src/deploy.sh",
    ],
    [
      "write_file",
      { file_path: "tests/deploy_test.sh", content: "x" },
      "created tests/deploy_test.sh",
    ],
    ["edit", { filePath: "src/a.ts" }, "edited src/a.ts"],
    [
      "apply_patch",
      {
        input:
          "*** Begin Patch\n*** Update File: src/a.rs\n@@\n*** Add File: src/b.rs\n*** End Patch",
      },
      "edited src/a.rs, src/b.rs",
    ],
    // Codex 0.171.0's PostToolUse gives the patch as `command`; one that only adds files created.
    [
      "apply_patch",
      { command: "*** Begin Patch\n*** Add File: work/t1-1.txt\n+x\n*** End Patch\n" },
      "created work/t1-1.txt",
    ],
    [
      "apply_patch",
      { command: "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n" },
      "edited old.txt",
    ],
    ["Grep", { pattern: "TODO" }, "searched for TODO"],
    ["WebFetch", { url: "https://example.com/doc" }, "fetched https://example.com/doc"],
    ["mcp__github__create_issue", { title: "x" }, "used mcp__github__create_issue"],
    ["Read", {}, "read (Read)"],
  ];
  for (const [tool, input, said] of cases) {
    assertEquals(describeAction(toolAction(tool, input, { failed: false })), said);
  }
});

Deno.test("toolAction: how a call ended, and bounds on what hostile input can put in a target", () => {
  assertEquals(
    describeAction(toolAction("Bash", { command: "npm test" }, { failed: true, exitCode: 1 })),
    "ran `npm test` → exit 1",
  );
  assertEquals(
    describeAction(toolAction("Bash", { command: "true" }, { failed: false, exitCode: 0 })),
    "ran `true` → exit 0",
  );
  assertEquals(
    describeAction(toolAction("Edit", { file_path: "a" }, { failed: true })),
    "edited a → failed",
  );
  const hostile = toolAction("Bash\u001b[2J".repeat(50), {
    command: "echo \u001b]0;x\u0007" + "y".repeat(10_000) + "\nrm -rf /",
  }, { failed: false, exitCode: 2.5 });
  assertEquals([...hostile.target!].length, TARGET_MAX);
  // deno-lint-ignore no-control-regex -- no control character may be left
  assertEquals(/[\u0000-\u001f]/.test(hostile.target! + hostile.tool), false);
  assertEquals(hostile.tool.length <= 64, true);
  assertEquals(hostile.exitCode, undefined, "not an integer: no exit code");
  assertEquals(toolAction("Bash", "not json", { failed: false }).target, "not json");
  assertEquals(toolAction("Bash", null, { failed: false }).target, null);
});

Deno.test("statedExitCode: the code an error text states", () => {
  assertEquals(statedExitCode("Exit code 1\nnpm ERR! Test failed"), 1);
  assertEquals(statedExitCode("Command exited with exit status 127"), 127);
  assertEquals(statedExitCode("FAIL\n\nCommand exited with code 2"), 2);
  assertEquals(statedExitCode("no code here"), null);
  assertEquals(statedExitCode(42), null);
});
