import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Detector } from "../detect/detector.ts";
import { castStateLine } from "../detect/cast.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { Redactor } from "./redact_bundle.ts";

Deno.test("a recording's saved states are left out of a bundle: they hold the screen as cells", () => {
  const secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const detector = new Detector({
    adapter: adapterByName("claude")!,
    cols: 80,
    rows: 24,
    startedAt: 0,
  });
  detector.output(new TextEncoder().encode(`export TOKEN=${secret}\r\n`), 5);
  const cast = [
    '{"version":2,"width":80,"height":24}',
    `[0.005000,"o",${JSON.stringify(`export TOKEN=${secret}\r\n`)}]`,
    `[0.005000,"g",""]`,
    castStateLine(detector.saveState()!).trimEnd(),
    `[0.010000,"o","ok"]`,
  ].join("\n");
  const redactor = new Redactor(false);
  const out = redactor.cast(cast);
  assert(!out.includes(secret), "the secret is gone from the output event");
  assertEquals(out.split("\n").map((l) => /^\[[0-9.]+,"(\w)"/.exec(l)?.[1] ?? "header"), [
    "header",
    "o",
    "g",
    "o",
  ]);
  assertEquals(redactor.count.states, 1);
  assert(redactor.count.secrets >= 1);
});
