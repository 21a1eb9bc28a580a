import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { describeRunChannel } from "./run_channel_text.ts";

Deno.test("a silent channel reads with its why", () => {
  assertEquals(
    describeRunChannel({
      state: "silent",
      why: "no event came 4 s after a submit",
      records: 0,
      dropped: {},
      ignored: 0,
      differs: 0,
    }),
    "silent (no event came 4 s after a submit); 0 records",
  );
});

Deno.test("a channel that spoke reads with what it dropped, refused and its telemetry", () => {
  assertEquals(
    describeRunChannel({
      state: "on",
      records: 12,
      dropped: { malformed: 2, oversized: 0 },
      ignored: 1,
      differs: 1,
      telemetry: { state: "on", records: 30, dropped: { oversized: 1 } },
    }),
    "on; 12 records, dropped 2 malformed, 1 ignored, 1 other than typed (the typed kept), " +
      "telemetry on, 30 records, dropped 1 oversized",
  );
  assertEquals(
    describeRunChannel({
      state: "on",
      records: 1,
      dropped: {},
      ignored: 0,
      differs: 0,
      telemetry: { state: "off", why: "the user's own telemetry settings" },
    }),
    "on; 1 record, telemetry off (the user's own telemetry settings)",
  );
});
