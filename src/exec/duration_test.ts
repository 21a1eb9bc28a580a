import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { formatDuration, parseDuration } from "./duration.ts";
import { UsageError } from "../errors.ts";

Deno.test("duration: units, compound forms and bare seconds", () => {
  assertEquals(parseDuration("90s", "--timeout"), 90_000);
  assertEquals(parseDuration("10m", "--timeout"), 600_000);
  assertEquals(parseDuration("1h30m", "--timeout"), 5_400_000);
  assertEquals(parseDuration("500ms", "--timeout"), 500);
  assertEquals(parseDuration("45", "--timeout"), 45_000);
  assertEquals(parseDuration(" 2M ", "--timeout"), 120_000);
});

Deno.test("duration: junk and zero are usage errors naming the option", () => {
  for (const bad of ["soon", "", "10 minutes", "-5s", "0", "0s"]) {
    throws(
      () => parseDuration(bad, "--stall"),
      (e: unknown) => e instanceof UsageError && e.message.startsWith("--stall"),
    );
  }
});

Deno.test("duration: formatting", () => {
  assertEquals(formatDuration(1000), "1s");
  assertEquals(formatDuration(600_000), "10m");
  assertEquals(formatDuration(3_905_000), "1h5m5s");
  assertEquals(formatDuration(250), "250ms");
});
