import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  contextFromStdout,
  modelContext,
  readSettings,
  runHook,
  sessionStartHooks,
} from "./claude_hook.ts";

const settings = {
  hooks: {
    SessionStart: [
      { matcher: "startup", hooks: [{ type: "command", command: "a", timeout: 5 }] },
      { matcher: "resume", hooks: [{ type: "command", command: "b" }] },
      { hooks: [{ type: "command", command: "c" }] },
    ],
  },
};

Deno.test("sessionStartHooks: startup and catch-all matchers only", () => {
  assertEquals(sessionStartHooks(settings).map((h) => h.command), ["a", "c"]);
  assertEquals(sessionStartHooks({}), []);
});

Deno.test("readSettings: inline JSON or a file", () => {
  const f = Deno.makeTempFileSync({ suffix: ".json" });
  try {
    Deno.writeTextFileSync(f, JSON.stringify(settings));
    assertEquals(readSettings(f), settings);
    assertEquals(readSettings(' {"a":1}'), { a: 1 });
  } finally {
    Deno.removeSync(f);
  }
});

Deno.test("contextFromStdout: JSON additionalContext, plain text, other JSON", () => {
  const j = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "ctx" } };
  assertEquals(contextFromStdout(JSON.stringify(j)), "ctx");
  assertEquals(contextFromStdout("plain\n"), "plain");
  assertEquals(contextFromStdout('{"continue":true}'), "");
});

Deno.test("modelContext: over 10,000 characters the model gets a notice and a preview", () => {
  assertEquals(modelContext("hi"), "SessionStart hook additional context: hi");
  const big = modelContext("é".repeat(10_001));
  assertEquals(big.startsWith("<persisted-output>"), true);
  assertEquals(big.includes("10001 characters"), true);
});

Deno.test("runHook: runs through /bin/sh with the stdin JSON and reads its output", async () => {
  const r = await runHook(
    { command: `x=$(cat); printf 'got %s' "$x"`, timeout: 10 },
    { hook_event_name: "SessionStart", source: "startup" },
    Deno.cwd(),
  );
  assertEquals(r.exitCode, 0);
  assertEquals(r.additionalContext, 'got {"hook_event_name":"SessionStart","source":"startup"}');
  const bad = await runHook({ command: "echo nope; exit 3", timeout: 10 }, {}, Deno.cwd());
  assertEquals([bad.exitCode, bad.additionalContext], [3, ""]);
});
