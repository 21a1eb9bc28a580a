import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { HELP_JSON, helpTextsJson, topHelp } from "./help_texts.ts";

Deno.test("src/sim/help_texts.json is what the reference help files say (regenerate: tools/sim/help_texts.ts)", () => {
  assert(
    Deno.readTextFileSync(HELP_JSON) === helpTextsJson(),
    "src/sim/help_texts.json differs from testdata/reference/help: run " +
      "`tools/deno.sh run -A tools/sim/help_texts.ts`",
  );
});

Deno.test("topHelp: the section's stdout, without the capture's header, trailer and stderr", () => {
  const captured = [
    "# x --version: 1.0",
    "===== $ x --help",
    "WARNING: could not create aliases",
    "Usage: x [prompt]",
    "",
    "  -h  help[exit 0]",
    "",
    "$ x run --help",
    "Usage: x run",
  ].join("\n");
  assertEquals(topHelp("x", captured), "Usage: x [prompt]\n\n  -h  help");
});
