import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import {
  chooseRelease,
  compareVersions,
  type NpmView,
  resolveRelease,
  satisfiesNode,
} from "./release.ts";

Deno.test("versions compare by their dotted numbers, not as text", () => {
  assertEquals(compareVersions("2.1.332", "2.1.40") > 0, true);
  assertEquals(compareVersions("0.9.0", "0.10.0") < 0, true);
  assertEquals(compareVersions("7.7.7", "7.7.7"), 0);
  assertEquals(compareVersions("1.0", "1.0.0"), 0);
});

Deno.test("engines ranges: a Node 20.20.2 against what the agents declare", () => {
  assertEquals(satisfiesNode(">=22.0.0", "20.20.2"), false); // claude 2.1.332, qwen 0.24.4
  assertEquals(satisfiesNode(">=20.6.0", "20.20.2"), true); // pi 0.73.1
  assertEquals(satisfiesNode(">=16", "20.20.2"), true); // codex
  assertEquals(satisfiesNode("^18 || >=22", "20.20.2"), false);
  assertEquals(satisfiesNode("^20 || >=22", "20.20.2"), true);
  assertEquals(satisfiesNode(">=18 <20", "20.20.2"), false);
  assertEquals(satisfiesNode("20.x", "20.20.2"), true);
  assertEquals(satisfiesNode("whatever-this-is", "20.20.2"), true);
});

const KILO = {
  package: "@kilocode/cli",
  binaryPackage: "@kilocode/cli-linux-x64",
};

Deno.test("kilo: a latest whose linux binary is not published runs the newest release that has one", () => {
  const latest = {
    version: "7.8.1",
    optionalDependencies: { "@kilocode/cli-linux-x64": "7.8.1" },
  };
  const release = chooseRelease(
    KILO,
    latest,
    ["7.7.6", "7.7.7", "7.7.8-beta.1", "7.8.0", "7.8.1"],
    ["7.7.6", "7.7.7", "7.7.8-beta.1", "7.7.9"],
    "20.20.2",
  );
  assertEquals(release.spec, "@kilocode/cli@7.7.7");
  assertEquals(release.latest, "7.8.1");
  assertEquals(
    release.notLatest,
    "npm latest 7.8.1 needs @kilocode/cli-linux-x64@7.8.1, which is not published (it stops at 7.7.9); 7.7.7 is the newest release with its binary",
  );
});

Deno.test("claude 2.1.332 runs at latest and says it declares Node >=22", () => {
  const release = chooseRelease(
    { package: "@anthropic-ai/claude-code", binaryPackage: "@anthropic-ai/claude-code-linux-x64" },
    {
      version: "2.1.332",
      engines: { node: ">=22.0.0" },
      optionalDependencies: { "@anthropic-ai/claude-code-linux-x64": "2.1.332" },
    },
    ["2.1.332"],
    ["2.1.197", "2.1.332"],
    "20.20.2",
  );
  assertEquals(release, {
    spec: "@anthropic-ai/claude-code@2.1.332",
    version: "2.1.332",
    latest: "2.1.332",
    needsNode: ">=22.0.0",
  });
});

Deno.test("codex's binary is an alias of its own package (VERSION-linux-x64)", async () => {
  const answers: Record<string, unknown> = {
    "@openai/codex version engines optionalDependencies": {
      version: "0.172.0",
      engines: { node: ">=16" },
      optionalDependencies: { "@openai/codex-linux-x64": "npm:@openai/codex@0.172.0-linux-x64" },
    },
    "@openai/codex versions": ["0.171.0", "0.171.0-linux-x64", "0.172.0"],
  };
  const view: NpmView = (args) => Promise.resolve(answers[args.join(" ")] ?? null);
  const release = await resolveRelease(
    { package: "@openai/codex", binaryPackage: "@openai/codex-linux-x64" },
    (args) =>
      args[0] === "@openai/codex@0.171.0"
        ? Promise.resolve({ version: "0.171.0", engines: { node: ">=16" } })
        : view(args),
    "20.20.2",
  );
  assertEquals(release.spec, "@openai/codex@0.171.0");
  assertEquals(
    release.notLatest?.startsWith(
      "npm latest 0.172.0 needs @openai/codex-linux-x64@0.172.0-linux-x64",
    ),
    true,
  );
});

Deno.test("droid: the binary package installed on its own when the package pins one npm lacks", () => {
  const release = chooseRelease(
    { package: "@factory/cli", binaryPackage: "@factory/cli-linux-x64", binaryOnly: true },
    { version: "0.225.1", optionalDependencies: { "@factory/cli-linux-x64": "0.225.1" } },
    ["0.225.1"],
    ["0.215.0", "0.225.2"],
    "20.20.2",
  );
  assertEquals(release.spec, "@factory/cli-linux-x64@0.225.2");
  assertEquals(
    release.notLatest,
    "@factory/cli@0.225.1 pins @factory/cli-linux-x64@0.225.1, which npm does not have; @factory/cli-linux-x64@0.225.2 is installed on its own",
  );
});

Deno.test("a package npm does not know, or no release with a binary, is an error", async () => {
  await rejects(
    resolveRelease({ package: "@nobody/nothing" }, () => Promise.resolve(null), "20.20.2"),
    /npm has no package @nobody\/nothing/,
  );
  const latest = { version: "2.0.0", optionalDependencies: { "@x/cli-linux-x64": "2.0.0" } };
  let error = "";
  try {
    chooseRelease({ package: "@x/cli", binaryPackage: "@x/cli-linux-x64" }, latest, ["2.0.0"], [
      "1.0.0",
    ], "20.20.2");
  } catch (e) {
    error = (e as Error).message;
  }
  assertEquals(/no release has its binary/.test(error), true);
});

Deno.test("an older release chosen for its binary is checked against its own Node range", async () => {
  const view: NpmView = (args) => {
    const key = args.join(" ");
    if (key === "@kilocode/cli version engines optionalDependencies") {
      return Promise.resolve({
        version: "7.8.1",
        engines: { node: ">=18" },
        optionalDependencies: { "@kilocode/cli-linux-x64": "7.8.1" },
      });
    }
    if (key === "@kilocode/cli-linux-x64 versions") return Promise.resolve(["7.7.7"]);
    if (key === "@kilocode/cli versions") return Promise.resolve(["7.7.7", "7.8.1"]);
    if (key === "@kilocode/cli@7.7.7 version engines") {
      return Promise.resolve({ version: "7.7.7", engines: { node: ">=22" } });
    }
    return Promise.resolve(null);
  };
  const release = await resolveRelease(KILO, view, "20.20.2");
  assertEquals([release.version, release.needsNode], ["7.7.7", ">=22"]);
});
