import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { jsonLimit, promptFromStdin, wantsJson } from "./headless.ts";
import { headlessAdapter } from "../../adapters/headless/registry.ts";

Deno.test("sim headless: the JSON flags each real CLI takes", () => {
  assert(wantsJson("gemini", ["-o", "stream-json", "--prompt=x"]));
  assert(wantsJson("qwen", ["--output-format=stream-json", "x"]));
  assert(wantsJson("copilot", ["--output-format", "json"]));
  assert(!wantsJson("gemini", ["-o", "json"]));
  assert(!wantsJson("codex", ["exec", "--json"]), "codex's is not simulated");
  assert(promptFromStdin("copilot", ["--output-format", "json", "--allow-all-tools"]));
  assert(!promptFromStdin("copilot", ["--output-format", "json", "--prompt=fix it"]));
  assert(!promptFromStdin("copilot", ["-i", "fix it"]));
});

Deno.test("sim headless: each limit reads back as the real CLI's through exec's parsers", () => {
  const gemini = jsonLimit("gemini");
  assertEquals(gemini.exitCode, 173);
  const gParser = headlessAdapter("gemini")!.newParser();
  assertEquals(gemini.stdout.flatMap((l) => gParser.parse(l)).map((e) => e.kind), [
    "limit",
    "result",
  ]);
  const echoed = jsonLimit("gemini", undefined, "the task");
  assertEquals(echoed.stdout.flatMap((l) => gParser.parse(l))[0], {
    kind: "message",
    role: "user",
    text: "the task",
  });
  const qwen = jsonLimit("qwen");
  const qParser = headlessAdapter("qwen")!.newParser();
  const heard = [
    ...qwen.stderr.flatMap((l) => qParser.parseStderr!(l)),
    ...qwen.stdout.flatMap((l) => qParser.parse(l)),
  ];
  assert(heard.every((e) => e.kind === "limit" && e.retrying === true) && heard.length === 2);
  assert(qwen.waitMs >= 60_000, "then it waits for its next retry");
  const copilot = jsonLimit("copilot");
  const cParser = headlessAdapter("copilot")!.newParser();
  assertEquals(copilot.stdout.flatMap((l) => cParser.parse(l)).map((e) => e.kind), ["limit"]);
});
