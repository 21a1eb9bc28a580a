import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { handoffInArgv, headlessHandoffInArgv } from "./argv_exposure.ts";
import { HEADLESS_ADAPTERS } from "./headless/registry.ts";
import { ADAPTERS } from "./registry.ts";

Deno.test("which roads put the handoff in the agent's arguments", () => {
  const exposed = ADAPTERS.flatMap((a) =>
    a.roads.filter((r) => handoffInArgv(a, r)).map((r) => `${a.name}:${r}`)
  );
  // Their CLIs take an opening prompt only as an argument. Auggie reads it from a file
  // (--instruction-file); the hook, store and paste roads never use arguments.
  assertEquals(exposed, [
    "claude:prompt",
    "codex:prompt",
    "gemini:prompt",
    "opencode:prompt",
    "qwen:prompt",
    "copilot:prompt",
    "kilo:prompt",
  ]);
});

Deno.test("uuldana exec: no agent takes a handoff on its command line", () => {
  const exposed = HEADLESS_ADAPTERS.filter((h) => headlessHandoffInArgv(h)).map((h) => h.name);
  assertEquals(exposed, []);
});
