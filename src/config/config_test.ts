import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { UsageError, UuldanaError } from "../errors.ts";
import {
  agentConfig,
  DEFAULT_CHAIN,
  handoffEarlyFor,
  loadConfig,
  NUMBER_RANGES,
  parseConfig,
} from "./config.ts";
import { configPath, dataDir, ensurePrivateDir } from "./paths.ts";

const noEnv = (_: string) => undefined;

function usageErrorOf(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    assert(e instanceof UsageError, `expected UsageError, got ${e}`);
    return e;
  }
  throw new Error("expected a UsageError");
}

Deno.test("a missing config file gives the defaults", () => {
  const dir = Deno.makeTempDirSync();
  const env = (n: string) =>
    ({ UULDANA_CONFIG: join(dir, "none.json") } as Record<string, string>)[n];
  const c = loadConfig(env);
  assertEquals([c.exists, c.chain, c.agents, c.quietSeconds, c.pasteTimeoutSeconds], [
    false,
    [...DEFAULT_CHAIN],
    {},
    1.5,
    40,
  ]);
});

Deno.test("a full config is read with its overrides", () => {
  const c = parseConfig(
    {
      chain: ["codex", "gemini"],
      quietSeconds: 2,
      agents: {
        codex: {
          bin: "/opt/bin/codex",
          args: ["-m", "o4"],
          env: { A: "1" },
          disabled: false,
          road: "prompt",
        },
      },
    },
    "/c.json",
    noEnv,
  );
  assertEquals(c.chain, ["codex", "gemini"]);
  assertEquals(c.agents.codex, {
    bin: "/opt/bin/codex",
    args: ["-m", "o4"],
    env: { A: "1" },
    disabled: false,
    road: "prompt",
  });
  assertEquals(c.quietSeconds, 2);
});

Deno.test("UULDANA_<AGENT>_BIN overrides bin", () => {
  const env = (n: string) =>
    ({ UULDANA_CODEX_BIN: "/env/codex", UULDANA_KILO_BIN: "/env/kilo" } as Record<string, string>)[
      n
    ];
  const c = parseConfig(
    { chain: ["kilo"], agents: { codex: { bin: "/opt/bin/codex" } } },
    "/c.json",
    env,
  );
  assertEquals(c.agents.codex.bin, "/env/codex");
  assertEquals(c.agents.kilo.bin, "/env/kilo");
});

Deno.test("validation names the file, the key and the expected type", () => {
  const cases: [unknown, string][] = [
    [[], `"(top level)" must be an object, got array`],
    [
      { chain: "claude" },
      `"chain" must be an array of agent or profile names (strings), got string`,
    ],
    [{ chain: [1] }, `"chain" must be an array of agent or profile names`],
    [{ agents: [] }, `"agents" must be an object keyed by agent name, got array`],
    [
      { agents: { codex: { args: "x" } } },
      `"agents.codex.args" must be an array of strings, got string`,
    ],
    [
      { agents: { codex: { env: { A: 1 } } } },
      `"agents.codex.env" must be an object of string values`,
    ],
    [
      { agents: { codex: { disabled: "no" } } },
      `"agents.codex.disabled" must be true or false, got string`,
    ],
    [{ agents: { codex: { road: "teleport" } } }, `"agents.codex.road" must be one of`],
    [{ agents: { codex: { bin: "" } } }, `"agents.codex.bin" must be a non-empty string`],
    [
      { agents: { gemini: { stallSeconds: 0 } } },
      `"agents.gemini.stallSeconds" must be a number from 1 to 86400 (seconds), got 0`,
    ],
    [{ agents: { codex: { colour: "red" } } }, `unknown key "agents.codex.colour"`],
    [{ chian: [] }, `unknown key "chian"`],
    [{ quietSeconds: -1 }, `"quietSeconds" must be a number from 0.1 to 60 (seconds), got -1`],
    [
      { retention: { keepDays: -1 } },
      `"retention.keepDays" must be a number from 0 to 36500 (days), got -1`,
    ],
    [{ retention: { maxDays: 3 } }, `unknown key "retention.maxDays"`],
  ];
  for (const [raw, expected] of cases) {
    const err = usageErrorOf(() => parseConfig(raw, "/home/u/.config/uuldana/config.json", noEnv));
    assert(
      err.message.startsWith("invalid config /home/u/.config/uuldana/config.json: "),
      err.message,
    );
    assert(err.message.includes(expected), `${err.message}\n  should include ${expected}`);
    assertEquals(err.code, 2);
  }
});

Deno.test("every number must be finite and in its range: 1e999, huge, tiny, zero, wrong type", () => {
  // JSON.parse reads 1e999 as Infinity: the file a user writes, not a value built in code.
  const file = join(Deno.makeTempDirSync(), "config.json");
  const env = (n: string) => (n === "UULDANA_CONFIG" ? file : undefined);
  const keys: [string, (v: string) => string][] = [
    ["quietSeconds", (v) => `{"quietSeconds": ${v}}`],
    ["pasteTimeoutSeconds", (v) => `{"pasteTimeoutSeconds": ${v}}`],
    ["agents.gemini.stallSeconds", (v) => `{"agents": {"gemini": {"stallSeconds": ${v}}}}`],
  ];
  for (const [key, json] of keys) {
    for (
      const [value, shown] of [
        ["1e999", "Infinity"],
        ["-1e999", "-Infinity"],
        ["1e300", "1e+300"],
        ["0", "0"],
        ["-5", "-5"],
        ["0.001", "0.001"],
        ["1e6", "1000000"],
        ['"30"', "string"],
        ["null", "null"],
      ]
    ) {
      Deno.writeTextFileSync(file, json(value));
      const err = usageErrorOf(() => loadConfig(env));
      const [min, max] = NUMBER_RANGES[key.split(".").at(-1)!];
      assertEquals(
        err.message,
        `invalid config ${file}: "${key}" must be a number from ${min} to ${max} (seconds), ` +
          `got ${shown}`,
        `${key} = ${value}`,
      );
      assert(!err.message.includes("\n"), "one line");
    }
  }
  // The edges are accepted.
  Deno.writeTextFileSync(
    file,
    `{"quietSeconds": 0.1, "pasteTimeoutSeconds": 3600, "agents": {"qwen": {"stallSeconds": 86400}}}`,
  );
  const c = loadConfig(env);
  assertEquals([c.quietSeconds, c.pasteTimeoutSeconds, c.agents.qwen.stallSeconds], [
    0.1,
    3600,
    86400,
  ]);
});

Deno.test("a file that is not JSON is an error naming the file, never a silent default", () => {
  const dir = Deno.makeTempDirSync();
  const file = join(dir, "config.json");
  Deno.writeTextFileSync(file, '{"chain": ["claude",]}');
  const err = usageErrorOf(() => loadConfig((n) => (n === "UULDANA_CONFIG" ? file : undefined)));
  assert(err.message.includes(file) && err.message.includes("not valid JSON"), err.message);
});

Deno.test("config and data paths follow UULDANA_*, then XDG, then the platform default", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assertEquals(configPath(env({ HOME: "/h" })), "/h/.config/uuldana/config.json");
  assertEquals(configPath(env({ HOME: "/h", XDG_CONFIG_HOME: "/x" })), "/x/uuldana/config.json");
  assertEquals(configPath(env({ HOME: "/h", UULDANA_CONFIG: "/c.json" })), "/c.json");
  assertEquals(dataDir(env({ HOME: "/h" }), "linux"), "/h/.local/share/uuldana");
  assertEquals(dataDir(env({ HOME: "/h" }), "darwin"), "/h/Library/Application Support/uuldana");
  assertEquals(dataDir(env({ HOME: "/h", XDG_DATA_HOME: "/d" }), "linux"), "/d/uuldana");
  assertEquals(dataDir(env({ HOME: "/h", UULDANA_HOME: "/u" }), "linux"), "/u");
});

Deno.test("the data dir is created private (0700)", () => {
  const dir = join(Deno.makeTempDirSync(), "a", "uuldana");
  ensurePrivateDir(dir);
  assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
});

Deno.test("a missing HOME or an unusable data dir is an expected error, not a crash", () => {
  for (const fn of [() => dataDir(noEnv, "linux"), () => configPath(noEnv)]) {
    try {
      fn();
      assert(false, "expected an error");
    } catch (e) {
      assert(e instanceof UuldanaError && /HOME is not set/.test(e.message), String(e));
    }
  }
  const file = join(Deno.makeTempDirSync(), "file");
  Deno.writeTextFileSync(file, "");
  try {
    ensurePrivateDir(join(file, "data"));
    assert(false, "expected an error");
  } catch (e) {
    assert(e instanceof UuldanaError && e.message.includes(join(file, "data")), String(e));
    assert(e.hint?.includes("UULDANA_HOME"));
  }
});

Deno.test("returnToFirst and notify: off by default / on by default, validated", () => {
  const d = parseConfig({}, "/c.json", noEnv);
  assertEquals([d.returnToFirst, d.notify], [false, { bell: true, desktop: true, command: null }]);
  const c = parseConfig(
    { returnToFirst: true, notify: { bell: false, command: ["notify-send", "uuldana"] } },
    "/c.json",
    noEnv,
  );
  assertEquals([c.returnToFirst, c.notify], [true, {
    bell: false,
    desktop: true,
    command: ["notify-send", "uuldana"],
  }]);
  const cases: [unknown, RegExp][] = [
    [{ returnToFirst: "yes" }, /"returnToFirst" must be true or false, got string/],
    [{ notify: true }, /"notify" must be an object/],
    [{ notify: { bell: 1 } }, /"notify.bell" must be true or false/],
    [{ notify: { command: [] } }, /"notify.command" must be a non-empty array of strings/],
    [{ notify: { command: "notify-send hi" } }, /"notify.command" must be a non-empty array/],
    [{ notify: { sound: true } }, /unknown key "notify.sound"/],
  ];
  for (const [raw, re] of cases) {
    const e = usageErrorOf(() => parseConfig(raw, "/c.json", noEnv));
    assert(re.test(e.message), e.message);
  }
});

Deno.test("handoffEarly: off by default, per agent over the top-level value, validated", () => {
  const d = parseConfig({}, "/c.json", noEnv);
  assertEquals([d.handoffEarly, handoffEarlyFor(d, agentConfig(d, "claude"))], [false, false]);
  const c = parseConfig(
    { handoffEarly: true, agents: { codex: { handoffEarly: false }, gemini: {} } },
    "/c.json",
    noEnv,
  );
  assertEquals(
    ["claude", "codex", "gemini"].map((name) => handoffEarlyFor(c, agentConfig(c, name))),
    [true, false, true],
  );
  const one = parseConfig({ agents: { claude: { handoffEarly: true } } }, "/c.json", noEnv);
  assertEquals([
    handoffEarlyFor(one, agentConfig(one, "claude")),
    handoffEarlyFor(one, agentConfig(one, "codex")),
  ], [true, false]);
  for (
    const [raw, re] of [
      [{ handoffEarly: "on" }, /"handoffEarly" must be true or false, got string/],
      [{ agents: { claude: { handoffEarly: 1 } } }, /"agents.claude.handoffEarly" must be true or/],
    ] as [unknown, RegExp][]
  ) {
    const e = usageErrorOf(() => parseConfig(raw, "/c.json", noEnv));
    assert(re.test(e.message), e.message);
  }
});

Deno.test("retention: the defaults, and a key set alone keeps the others' defaults", () => {
  const noEnv = () => undefined;
  assertEquals(parseConfig({}, "/c.json", noEnv).retention, {
    maxAgeDays: 30,
    maxMegabytes: 1000,
    keepDays: 3,
  });
  assertEquals(parseConfig({ retention: { maxMegabytes: 200 } }, "/c.json", noEnv).retention, {
    maxAgeDays: 30,
    maxMegabytes: 200,
    keepDays: 3,
  });
});

Deno.test("retryLoopSeconds: absent (the rule's default), 0 turns it off, validated, per profile", () => {
  const d = parseConfig({}, "/c.json", noEnv);
  assertEquals(agentConfig(d, "gemini").retryLoopSeconds, undefined);
  const c = parseConfig(
    { agents: { gemini: { retryLoopSeconds: 0 }, qwen: { retryLoopSeconds: 120 } } },
    "/c.json",
    noEnv,
  );
  assertEquals(
    [agentConfig(c, "gemini").retryLoopSeconds, agentConfig(c, "qwen").retryLoopSeconds],
    [0, 120],
  );
  for (const v of [-1, 86_401, "60"]) {
    const e = usageErrorOf(() =>
      parseConfig({ agents: { gemini: { retryLoopSeconds: v } } }, "/c.json", noEnv)
    );
    assert(
      e.message.includes('"agents.gemini.retryLoopSeconds" must be a number from 0 to 86400'),
      e.message,
    );
  }
});
