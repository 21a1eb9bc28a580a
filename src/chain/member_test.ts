import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import { UsageError } from "../errors.ts";
import { chainAdapters, chainNames, roadOf, unknownAgentError, usable } from "./member.ts";
import { member } from "./_members_test_util.ts";

Deno.test("chainNames: the configured chain, or the named agent then --then or the rest", () => {
  const configured = ["claude", "codex", "gemini"];
  assertEquals(chainNames(configured, null, null), configured);
  assertEquals(chainNames(configured, "codex", null), ["codex", "claude", "gemini"]);
  assertEquals(chainNames(configured, "codex", ["gemini"]), ["codex", "gemini"]);
  assertEquals(chainNames(configured, "codex", []), ["codex"]);
  assertEquals(chainNames(["claude", "claude", "codex"], null, null), ["claude", "codex"]);
});

Deno.test("chainAdapters: one wording for an unknown agent", () => {
  assertEquals(chainAdapters(["claude"], adapterByName).map((a) => a.name), ["claude"]);
  assertThrows(() => chainAdapters(["claude", "nosuch"], adapterByName), (e: unknown) => {
    const u = e as UsageError;
    assertEquals(u.message, unknownAgentError("nosuch").message);
    assertEquals(u.message, `unknown agent "nosuch"`);
    assertEquals(u.hint, "see `uuldana agents` for the agents uuldana knows");
    return u instanceof UsageError;
  });
});

Deno.test("roadOf: the config's road, else the adapter's default", () => {
  assertEquals(roadOf(member("claude")), "hook");
  assertEquals(roadOf(member("codex")), "prompt");
  assertEquals(roadOf(member("opencode", { config: { road: "store" } })), "store");
});

Deno.test("usable: installed and not disabled", () => {
  assertEquals(usable(member("claude")), true);
  assertEquals(usable(member("claude", { installed: false })), false);
  assertEquals(usable(member("claude", { config: { disabled: true } })), false);
});
