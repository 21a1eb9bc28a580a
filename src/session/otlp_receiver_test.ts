import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  OTLP_MAX_KEPT,
  type OtlpReceiver,
  parseOtlpLogs,
  startOtlpReceiver,
} from "./otlp_receiver.ts";
import { receiverTest } from "./_otlp_test_util.ts";

const KEEP = new Set(["qwen-code.api_error", "qwen-code.api_retry"]);

// An OTLP/HTTP JSON logs body as Qwen Code 0.24.4's exporter posts it (JsonLogsSerializer).
function logsBody(records: Array<Record<string, string | number>>): string {
  const attr = (key: string, v: string | number) => ({
    key,
    value: typeof v === "number" ? { intValue: v } : { stringValue: v },
  });
  return JSON.stringify({
    resourceLogs: [{
      resource: { attributes: [attr("service.name", "qwen-code")] },
      scopeLogs: [{
        scope: { name: "qwen-code" },
        logRecords: records.map((r) => ({
          timeUnixNano: "1796409303352000000",
          body: { stringValue: "API error" },
          attributes: Object.entries(r).map(([k, v]) => attr(k, v)),
        })),
      }],
    }],
  });
}

const QUOTA = {
  "event.name": "qwen-code.api_error",
  status_code: 429,
  error_message: "429 Free allocated quota exceeded.",
  error_type: "RateLimitError",
};

async function post(
  r: OtlpReceiver,
  path: string,
  body: BodyInit,
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<Response> {
  return await fetch(`${r.endpoint}${path}`, { method: "POST", body, headers });
}

// The records kept once the receiver parsed what it was sent (parsing runs on a timer after).
async function settle(r: OtlpReceiver): Promise<ReturnType<OtlpReceiver["events"]>> {
  for (let i = 0; i < 50; i++) {
    await new Promise((ok) => setTimeout(ok, 10));
    const got = r.events();
    if (got.length) return got;
  }
  return [];
}

function receiver(maxBody?: number): OtlpReceiver {
  return startOtlpReceiver({ keep: (n) => KEEP.has(n), maxBody });
}

receiverTest(
  "the receiver keeps Qwen's api_error records from /v1/logs and nothing else",
  async () => {
    const r = receiver();
    try {
      assert(/^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/.test(r.endpoint), r.endpoint);
      const res = await post(
        r,
        "/v1/logs",
        logsBody([QUOTA, {
          "event.name": "qwen-code.user_prompt",
          prompt: "a prompt is never held",
        }]),
      );
      assertEquals([res.status, await res.text()], [200, "{}"]);
      const got = await settle(r);
      assertEquals(got, [{ name: "qwen-code.api_error", attributes: QUOTA }]);
      // Traces and metrics are answered with success and not read.
      for (const signal of ["traces", "metrics"]) {
        const s = await post(r, `/v1/${signal}`, "{}");
        assertEquals(s.status, 200);
        await s.body?.cancel();
      }
      assertEquals(r.stats.requests, 3);
    } finally {
      await r.close();
    }
  },
);

receiverTest("a protobuf body is answered with success, not parsed, and counted", async () => {
  const r = receiver();
  try {
    const res = await post(r, "/v1/logs", new Uint8Array([0x0a, 0x02, 0x08, 0x01]), {
      "content-type": "application/x-protobuf",
    });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/x-protobuf");
    assertEquals((await res.arrayBuffer()).byteLength, 0);
    assertEquals(r.stats.dropped.protobuf, 1);
    assertEquals(r.events(), []);
  } finally {
    await r.close();
  }
});

receiverTest("a wrong path, a wrong secret or a GET gets a 404 and is not read", async () => {
  const r = receiver();
  try {
    const base = r.endpoint.replace(/\/[0-9a-f]{32}$/, "");
    const tries = [
      fetch(`${base}/v1/logs`, { method: "POST", body: logsBody([QUOTA]) }),
      fetch(`${base}/${"0".repeat(32)}/v1/logs`, { method: "POST", body: logsBody([QUOTA]) }),
      fetch(`${r.endpoint}/v1/other`, { method: "POST", body: "{}" }),
      fetch(`${r.endpoint}/v1/logs`),
    ];
    for (const res of await Promise.all(tries)) {
      assertEquals(res.status, 404);
      await res.body?.cancel();
    }
    assertEquals(r.stats.refused, 4);
    assertEquals(r.stats.requests, 0);
    assertEquals(await settle(r), []);
  } finally {
    await r.close();
  }
});

receiverTest(
  "an oversized body is answered at once and dropped, declared or streamed",
  async () => {
    const r = receiver(4096);
    try {
      const big = logsBody([{ ...QUOTA, error_message: "x".repeat(8192) }]);
      const declared = await post(r, "/v1/logs", big);
      assertEquals(declared.status, 200);
      await declared.body?.cancel();
      // No length given: read until the bound, then dropped.
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 16; i++) c.enqueue(new Uint8Array(1024).fill(0x20));
          c.close();
        },
      });
      const streamed = await post(r, "/v1/logs", stream);
      assertEquals(streamed.status, 200);
      await streamed.body?.cancel();
      assertEquals(r.stats.dropped.oversized, 2);
      // What comes next is still heard.
      (await post(r, "/v1/logs", logsBody([QUOTA]))).body?.cancel();
      assertEquals((await settle(r)).length, 1);
    } finally {
      await r.close();
    }
  },
);

receiverTest("malformed JSON is dropped and counted; the next body is heard", async () => {
  const r = receiver();
  try {
    for (const bad of ["{not json", "[]", '{"resourceLogs":7}', "\u0000\u0001"]) {
      const res = await post(r, "/v1/logs", bad);
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
    (await post(r, "/v1/logs", logsBody([QUOTA]))).body?.cancel();
    assertEquals((await settle(r)).length, 1);
    assertEquals(r.stats.dropped.malformed, 4);
  } finally {
    await r.close();
  }
});

receiverTest(
  "a flood is answered, the records kept stay bounded, drops are counted, timers keep running",
  async () => {
    const r = receiver();
    // A timer beside it (the keyboard's path runs on the same loop): its ticks must go on.
    let ticks = 0;
    const tick = setInterval(() => ticks++, 5);
    try {
      const body = logsBody(Array.from({ length: 20 }, () => QUOTA));
      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          post(r, "/v1/logs", body).then(async (res) => {
            await res.body?.cancel();
            return res.status;
          })),
      );
      assert(answers.every((s) => s === 200));
      await new Promise((ok) => setTimeout(ok, 50));
      const got = r.events();
      assert(got.length <= OTLP_MAX_KEPT, `${got.length}`);
      const dropped = Object.values(r.stats.dropped).reduce((a, b) => a + (b ?? 0), 0);
      assert(dropped > 0, JSON.stringify(r.stats));
      assert(ticks > 0);
      // Taken, there is room again.
      (await post(r, "/v1/logs", logsBody([QUOTA]))).body?.cancel();
      assertEquals((await settle(r)).length, 1);
    } finally {
      clearInterval(tick);
      await r.close();
    }
  },
);

receiverTest("closed mid-run, a sender's post fails at once instead of waiting", async () => {
  const r = receiver();
  const endpoint = r.endpoint;
  await r.close();
  const started = performance.now();
  const failed = await fetch(`${endpoint}/v1/logs`, { method: "POST", body: logsBody([QUOTA]) })
    .then(() => false, () => true);
  assert(failed);
  assert(performance.now() - started < 2_000);
  await r.close(); // twice is harmless
});

receiverTest("parseOtlpLogs reads OTLP JSON's int64 strings and cuts long values", () => {
  const body = JSON.stringify({
    resourceLogs: [{
      scopeLogs: [{
        logRecords: [{
          attributes: [
            { key: "event.name", value: { stringValue: "qwen-code.api_retry" } },
            { key: "attempt_number", value: { intValue: "2" } },
            { key: "ok", value: { boolValue: true } },
            { key: "nested", value: { kvlistValue: { values: [] } } },
            { key: "long", value: { stringValue: "y".repeat(20_000) } },
          ],
        }, { attributes: [{ key: "event.name", value: { stringValue: "other" } }] }],
      }],
    }],
  });
  const got = parseOtlpLogs(new TextEncoder().encode(body), (n) => KEEP.has(n))!;
  assertEquals(got.length, 1);
  assertEquals(got[0].attributes.attempt_number, 2);
  assertEquals(got[0].attributes.ok, true);
  assertEquals("nested" in got[0].attributes, false);
  assertEquals((got[0].attributes.long as string).length, 8 * 1024);
  assertEquals(parseOtlpLogs(new TextEncoder().encode("nope"), () => true), null);
});
