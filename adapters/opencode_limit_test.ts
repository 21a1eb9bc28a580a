import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adapterByName } from "./registry.ts";
import { shouldHandOff } from "./policy.ts";
import { SCREENS_DIR } from "../tests/_paths.ts";

const OPTS = { now: new Date("2026-12-02T00:00:00Z"), cols: 120, timeZone: "UTC" };

function screen(name: string): string[] {
  return readFileSync(join(SCREENS_DIR, `${name}.txt`), "utf8").split("\n");
}

// Real 1.18.33 / 7.7.7 at 120 columns: the progress bar overwrites the footer's first cells and
// the end of "attempt" is lost where the footer wraps.
for (
  const [agent, name] of [
    ["opencode", "opencode-1.18.33-quota-retry"],
    ["opencode", "opencode-1.18.33-quota-retry-wait"],
    ["kilo", "kilo-7.7.7-quota-retry"],
  ] as const
) {
  Deno.test(`${name}: the quota in a wrapped retry footer is a limit at its first attempt`, () => {
    const hit = adapterByName(agent)!.detectLimit(screen(name), OPTS);
    assert(hit, "no limit found");
    assert(hit.message.startsWith("You exceeded your current quota"), hit.message);
    assertEquals(hit.attempt, 1);
    assert(shouldHandOff(hit), `not a handoff: ${hit.kind}`);
  });
}

Deno.test("opencode-1.18.33-server-error-retry: a server error being retried is not a limit", () => {
  assertEquals(
    adapterByName("opencode")!.detectLimit(screen("opencode-1.18.33-server-error-retry"), OPTS),
    null,
  );
});
