import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { adapterByName } from "../../adapters/registry.ts";
import { headlessAdapter } from "../../adapters/headless/registry.ts";
import { type ExecChannel, openExecChannel } from "./exec_channel.ts";
import { receiverTest } from "../session/_otlp_test_util.ts";

// Qwen Code 0.24.4's exporter posts each failed call as an OTLP JSON log record.
function apiError(status: number, message: string): string {
  const attr = (key: string, v: string | number) => ({
    key,
    value: typeof v === "number" ? { intValue: v } : { stringValue: v },
  });
  return JSON.stringify({
    resourceLogs: [{
      scopeLogs: [{
        logRecords: [{
          attributes: [
            attr("event.name", "qwen-code.api_error"),
            attr("status_code", status),
            attr("error_message", message),
            attr("error_type", "RateLimitError"),
          ],
        }],
      }],
    }],
  });
}

async function opened(agent: string, env: Record<string, string> = {}) {
  const dataDir = Deno.makeTempDirSync({ prefix: "uuldana-exec-channel-" });
  const got = await openExecChannel(adapterByName(agent)!, headlessAdapter(agent)!, {
    dataDir,
    cwd: dataDir,
    extraArgs: [],
    env,
  });
  return { dataDir, got };
}

async function until<T>(fn: () => T[]): Promise<T[]> {
  for (let i = 0; i < 500; i++) {
    const got = fn();
    if (got.length) return got;
    await new Promise((ok) => setTimeout(ok, 10));
  }
  return [];
}

receiverTest(
  "exec's Qwen channel: its telemetry's first quota api_error is a limit exec stops it on; a 500 is not",
  async () => {
    const { dataDir, got } = await opened("qwen");
    const ch = got as ExecChannel;
    try {
      assert(ch && !("off" in ch), JSON.stringify(got));
      // Only through a file of uuldana's own, named for this process.
      const file = ch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH;
      assert(file.startsWith(dataDir), file);
      const defaults = JSON.parse(readFileSync(file, "utf8"));
      assertEquals(defaults.telemetry.logPrompts, false);
      const url = `${defaults.telemetry.otlpEndpoint}/v1/logs`;
      const post = async (body: string) =>
        await (await fetch(url, {
          method: "POST",
          body,
          headers: { "content-type": "application/json" },
        }))
          .body?.cancel();
      await post(apiError(500, "500 Internal Server Error"));
      await post(apiError(429, "429 Free allocated quota exceeded."));
      const limits = await until(() => ch.take());
      assertEquals(limits, [{
        kind: "limit",
        message: "429 Free allocated quota exceeded.",
        resetsAt: null,
        retrying: true,
      }]);
    } finally {
      await ch?.close?.();
    }
    // Gone with the run: the defaults file and the receiver.
    assert(!existsSync(ch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH));
    Deno.removeSync(dataDir, { recursive: true });
  },
);

receiverTest(
  "exec's Qwen channel: the user's own telemetry variable leaves that road off (the hooks stay)",
  async () => {
    const { dataDir, got } = await opened("qwen", {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://their.own",
    });
    const ch = got as ExecChannel;
    try {
      assert(/OTEL_EXPORTER_OTLP_ENDPOINT/.test(ch.telemetryOff ?? ""), ch.telemetryOff ?? "");
      const defaults = JSON.parse(readFileSync(ch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH, "utf8"));
      assertEquals(defaults.telemetry, undefined);
    } finally {
      await ch.close();
      Deno.removeSync(dataDir, { recursive: true });
    }
  },
);

receiverTest(
  "exec's channel is off where the user already names Qwen's defaults file; none for an agent whose stream is enough",
  async () => {
    const { dataDir, got } = await opened("qwen", {
      QWEN_CODE_SYSTEM_DEFAULTS_PATH: "/theirs.json",
    });
    try {
      assert(got && "off" in got && /theirs\.json/.test(got.off), JSON.stringify(got));
      const claude = await opened("claude");
      assertEquals(claude.got, null);
      Deno.removeSync(claude.dataDir, { recursive: true });
    } finally {
      Deno.removeSync(dataDir, { recursive: true });
    }
  },
);
