import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { adapterByName } from "../../adapters/registry.ts";
import { parseConfig } from "../config/config.ts";
import {
  checkProfiles,
  expandEnv,
  memberNames,
  missingVariables,
  profileByName,
} from "./profile.ts";

const config = (raw: Record<string, unknown>) => parseConfig(raw, "/c.json", () => undefined);
const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("profileByName: a profile lays its settings over its agent's; an agent is a profile of itself", () => {
  const c = config({
    agents: { codex: { args: ["--search"], env: { A: "1" }, road: "paste", stallSeconds: 60 } },
    profiles: { "codex-mini": { agent: "codex", args: ["-m", "gpt-5-mini"], env: { B: "2" } } },
  });
  const mini = profileByName(c, "codex-mini", adapterByName)!;
  assertEquals([mini.name, mini.adapter.name], ["codex-mini", "codex"]);
  assertEquals(mini.config.args, ["--search", "-m", "gpt-5-mini"]);
  assertEquals(mini.config.env, { A: "1", B: "2" });
  assertEquals([mini.config.road, mini.config.stallSeconds, mini.config.disabled], [
    "paste",
    60,
    false,
  ]);
  const codex = profileByName(c, "codex", adapterByName)!;
  assertEquals([codex.name, codex.config.args], ["codex", ["--search"]]);
  assertEquals(profileByName(c, "nosuch", adapterByName), undefined);
  assertEquals(memberNames(c, ["claude", "codex"]), ["claude", "codex", "codex-mini"]);
});

Deno.test("profileByName: retryLoopSeconds is the profile's, else its agent's, else absent", () => {
  const c = config({
    agents: { gemini: { retryLoopSeconds: 30 } },
    profiles: {
      "gemini-key": { agent: "gemini", retryLoopSeconds: 0 },
      "gemini-work": { agent: "gemini" },
      "qwen-key": { agent: "qwen" },
    },
  });
  const loop = (name: string) => profileByName(c, name, adapterByName)!.config.retryLoopSeconds;
  assertEquals(["gemini-key", "gemini-work", "qwen-key"].map(loop), [0, 30, undefined]);
});

Deno.test("checkProfiles: each mistake is one line naming the profile", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ profiles: { w: { agent: "clade" } } }, /profile "w" names the unknown agent "clade"/],
    [{ profiles: { gemini: { agent: "claude" } } }, /"gemini" is named like the agent gemini/],
    [{ profiles: { me: { agent: "me" } } }, /"me" names itself as its agent/],
    [
      { profiles: { a: { agent: "claude" }, b: { agent: "a" } } },
      /"b" names the profile "a" as its agent/,
    ],
    [
      { chain: ["claude", "off"], profiles: { off: { agent: "claude", disabled: true } } },
      /"off" is disabled but the chain names it/,
    ],
  ];
  for (const [raw, message] of cases) {
    assertThrows(() => checkProfiles(config(raw), adapterByName), message);
  }
  // Disabled but not in the chain: a profile kept for later is fine.
  checkProfiles(
    config({ profiles: { off: { agent: "claude", disabled: true } } }),
    adapterByName,
  );
});

Deno.test("expandEnv: ${VAR} from the environment, ~/ as home; a missing one names it, never a value", () => {
  const cfg = {
    args: [],
    disabled: false,
    env: {
      ANTHROPIC_API_KEY: "${KEY_FALLBACK}",
      CLAUDE_CONFIG_DIR: "~/.claude-work",
      MIXED: "pre-${A}-${B}",
      PLAIN: "x",
    },
  };
  const vars = env({ KEY_FALLBACK: "sk-secret", A: "1", B: "2" });
  assertEquals(expandEnv("claude-api", cfg, vars, "/home/u"), {
    ANTHROPIC_API_KEY: "sk-secret",
    CLAUDE_CONFIG_DIR: "/home/u/.claude-work",
    MIXED: "pre-1-2",
    PLAIN: "x",
  });
  assertEquals(missingVariables(cfg, env({ A: "1" })), ["KEY_FALLBACK", "B"]);
  assertThrows(
    () => expandEnv("claude-api", cfg, env({ A: "sk-other", B: "" }), "/home/u"),
    (e: Error) => {
      assertEquals(
        e.message,
        "claude-api: ${KEY_FALLBACK}, ${B} are not set in your environment (its env in your " +
          "config reads them)",
      );
      return !e.message.includes("sk-other");
    },
  );
});
