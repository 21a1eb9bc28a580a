/**
 * Qwen's telemetry channel end to end: the simulated Qwen (src/sim, posting OTLP logs to the
 * receiver named in the defaults file uuldana wrote, as Qwen Code 0.24.4 does) retries a quota 429
 * silently behind its turning spinner; its first `api_error` hands off long before its screen
 * would show anything. With the user's own telemetry variables the road stays off, kept with the
 * run (and said once on the status line).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { World, worldTest } from "./_world.ts";

worldTest(
  "Qwen retrying a quota silently behind its spinner: its telemetry's first api_error hands off before its screen shows anything",
  () =>
    new World(["qwen", "codex"], {
      // A minute of silent retries (the real 0.24.4: its ✕ row after ~95 s), a failed call
      // logged every 700 ms, batched every second like its exporter.
      qwen: { SIM_LIMIT_AFTER: "1", SIM_QWEN_SILENT_MS: "60000" },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("qwen", "fix the flaky test", null);
    const [limit] = await w.waitForEvent("qwen", "limit");
    const [start] = await w.waitForEvent("codex", "start", 1, 30_000);
    const took = Date.parse(String(start.time)) - Date.parse(String(limit.time));
    assert(took < 15_000, `codex started ${took} ms after qwen's limit`);
    assert(String(start.prompt ?? "").includes("fix the flaky test"), "the handoff has the turn");
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "qwen")!;
      assertEquals(run.endReason, "limit");
      // The provider's message as the telemetry carried it, not a screen row.
      assert(/^429 .*quota/.test(run.limitMessage ?? ""), run.limitMessage ?? "");
      const acted = j.decisions(run.id).find((d) => d.verdict === "acted")!;
      assertEquals(acted.source, "channel");
      assert(/retrying the provider's error/.test(acted.why ?? ""), acted.why);
      const channel = j.runChannel(run.id)!;
      assertEquals(channel.telemetry?.state, "on");
      assert((channel.telemetry?.records ?? 0) >= 1, JSON.stringify(channel));
      // Nothing on its screen said so: no ✕ row was drawn before the switch.
      const screens = j.decisions(run.id).filter((d) => d.source === "screen" && d.hit);
      assertEquals(screens, []);
    });
  },
);

worldTest(
  "the user's own QWEN_TELEMETRY_* leaves Qwen's telemetry road off, kept with the run; the screen still hands off",
  () =>
    new World(["qwen", "codex"], {
      qwen: {
        SIM_LIMIT_AFTER: "1",
        SIM_QWEN_SILENT_MS: "1500",
        QWEN_TELEMETRY_ENABLED: "false",
      },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("qwen", "fix the flaky test", null);
    await w.waitForEvent("codex", "start", 1, 30_000);
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "qwen")!;
      assertEquals(run.endReason, "limit");
      const channel = j.runChannel(run.id)!;
      assertEquals(channel.telemetry?.state, "off");
      assert(/QWEN_TELEMETRY_ENABLED/.test(channel.telemetry?.why ?? ""), channel.telemetry?.why);
      // Its hooks still spoke.
      assertEquals(channel.state, "on");
      assertEquals(j.decisions(run.id).find((d) => d.verdict === "acted")?.source, "screen");
    });
  },
);
