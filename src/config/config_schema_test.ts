import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { configSchemaText } from "./config_schema.ts";
import { parseConfig } from "./config.ts";
import { UsageError } from "../errors.ts";
import { REPO_DIR } from "../../tests/_paths.ts";

// Configs on both sides of every rule; the schema must say what the validator says about each.
const CASES: unknown[] = [
  {},
  { $schema: "./config.schema.json" },
  { chain: ["codex", "gemini"], quietSeconds: 2, pasteTimeoutSeconds: 5 },
  {
    agents: {
      codex: { bin: "/x", args: ["-m", "o4"], env: { A: "1" }, disabled: true, road: "prompt" },
      gemini: { stallSeconds: 30 },
    },
  },
  [],
  "claude",
  { chain: "claude" },
  { chain: [1] },
  { chain: [""] },
  { chian: [] },
  { quietSeconds: 0 },
  { quietSeconds: 0.1, pasteTimeoutSeconds: 3600, agents: { qwen: { stallSeconds: 86400 } } },
  { quietSeconds: 61 },
  { quietSeconds: Infinity },
  { pasteTimeoutSeconds: 0.5 },
  { agents: { qwen: { stallSeconds: 86401 } } },
  { quietSeconds: -1 },
  { pasteTimeoutSeconds: "40" },
  { agents: [] },
  { agents: { codex: [] } },
  { agents: { codex: { args: "x" } } },
  { agents: { codex: { env: { A: 1 } } } },
  { agents: { codex: { disabled: "no" } } },
  { agents: { codex: { road: "teleport" } } },
  { agents: { codex: { bin: "" } } },
  { agents: { gemini: { stallSeconds: 0 } } },
  { agents: { codex: { colour: "red" } } },
];

Deno.test("the JSON Schema accepts exactly the configs the validator accepts", () => {
  // deno-lint-ignore no-explicit-any
  const ajv = new (Ajv2020 as any)({ strict: true, allErrors: true });
  const schemaAccepts = ajv.compile(JSON.parse(configSchemaText()));
  for (const raw of CASES) {
    let validatorAccepts = true;
    try {
      parseConfig(raw, "/c.json", () => undefined);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      validatorAccepts = false;
    }
    assertEquals(schemaAccepts(raw), validatorAccepts, JSON.stringify(raw));
  }
});

Deno.test("the repository ships the schema as generated (config.schema.json)", () => {
  assertEquals(Deno.readTextFileSync(join(REPO_DIR, "config.schema.json")), configSchemaText());
});
