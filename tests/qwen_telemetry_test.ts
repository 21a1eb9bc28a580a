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
import { join } from "node:path";
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

// The defaults file uuldana wrote for the running Qwen, and the endpoint it names.
function receiverEndpoint(root: string): string | null {
  const find = (dir: string): string | null => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) {
        const got = find(path);
        if (got) return got;
      } else if (e.name === "qwen-system-defaults.json") return path;
    }
    return null;
  };
  const file = find(root);
  return file ? JSON.parse(Deno.readTextFileSync(file)).telemetry?.otlpEndpoint ?? null : null;
}

worldTest(
  "hostile posts to the receiver mid-run (a flood, oversized, malformed, a wrong path) leave Qwen, the keyboard and the journal unaffected",
  () =>
    new World(["qwen", "codex"], { qwen: { SIM_LIMIT_AFTER: "2", SIM_QWEN_SILENT_MS: "60000" } }),
  async (w) => {
    await w.start(["run"]);
    let endpoint: string | null = null;
    for (let i = 0; i < 100 && !endpoint; i++) {
      endpoint = receiverEndpoint(w.root);
      if (!endpoint) await new Promise((ok) => setTimeout(ok, 100));
    }
    assert(endpoint, "the receiver's endpoint is in Qwen's defaults file");
    const hostile = async () => {
      const url = `${endpoint}/v1/logs`;
      const sends = [
        ...Array.from({ length: 300 }, () => fetch(url, { method: "POST", body: "{not json" })),
        fetch(url, { method: "POST", body: new Uint8Array(4 * 1024 * 1024) }),
        fetch(endpoint!.replace(/\/[0-9a-f]{32}$/, "/v1/logs"), { method: "POST", body: "{}" }),
      ];
      for (const r of await Promise.allSettled(sends)) {
        if (r.status === "fulfilled") await r.value.body?.cancel();
      }
    };
    const flood = hostile();
    await w.ask("qwen", "first turn during the flood", null);
    await w.waitForEvent("qwen", "reply");
    await flood;
    await w.ask("qwen", "fix the flaky test", null);
    const [start] = await w.waitForEvent("codex", "start", 1, 30_000);
    assert(String(start.prompt ?? "").includes("first turn during the flood"));
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "qwen")!;
      assertEquals(run.endReason, "limit");
      const users = j.entries(run.id).filter((e) => e.role === "user").map((e) => e.text);
      assertEquals(users, ["first turn during the flood", "fix the flaky test"]);
      const dropped = j.runChannel(run.id)!.telemetry?.dropped ?? {};
      assert((dropped.malformed ?? 0) + (dropped.busy ?? 0) >= 1, JSON.stringify(dropped));
    });
  },
);

worldTest(
  "uuldana gone mid-run (SIGKILL) while Qwen's telemetry road is on: its receiver goes, Qwen goes with it, the next start repairs the journal and removes the defaults file",
  () => new World(["qwen"]),
  async (w) => {
    await w.start(["run", "qwen"]);
    await w.waitForEvent("qwen", "start");
    let endpoint: string | null = null;
    for (let i = 0; i < 100 && !endpoint; i++) {
      endpoint = receiverEndpoint(w.home);
      if (!endpoint) await new Promise((ok) => setTimeout(ok, 100));
    }
    assert(endpoint, "the receiver's endpoint is in Qwen's defaults file");
    const post = () =>
      fetch(`${endpoint}/v1/logs`, {
        method: "POST",
        body: "{}",
        signal: AbortSignal.timeout(5000),
      })
        .then(async (r) => {
          await r.body?.cancel();
          return r.status;
        }, () => "refused");
    assertEquals(await post(), 200);
    // The simulated Qwen of this world (its working folder is the world's): other tests' run too.
    const qwenAlive = async () => {
      const out = await new Deno.Command("pgrep", {
        args: ["-f", "sim-agent qwen"],
        stdout: "piped",
      })
        .output();
      return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).some((pid) => {
        try {
          return Deno.readLinkSync(`/proc/${pid}/cwd`).startsWith(w.root);
        } catch {
          return false;
        }
      });
    };
    assert(await qwenAlive());
    const [run] = w.withJournal((j) => j.runs());
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(join(w.home, "journal.db"), { readOnly: true });
    const owner = Number(
      (db.prepare("SELECT owner_pid FROM runs WHERE id = ?").get(run.id) as { owner_pid: number })
        .owner_pid,
    );
    db.close();

    Deno.kill(owner, "SIGKILL");
    const deadline = Date.now() + 15_000;
    while (await qwenAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assertEquals(await qwenAlive(), false, "Qwen was left running");
    // Nothing listens there any more: a late post is refused at once, never held.
    assertEquals(await post(), "refused");
    // The next start marks the run interrupted and removes the scratch folder (the defaults file
    // naming the receiver).
    const out = await w.uuldana(["runs", "--json"]);
    assertEquals(out.code, 0, out.stderr);
    w.withJournal((j) => assertEquals(j.run(run.id)!.endReason, "interrupted"));
    assertEquals(receiverEndpoint(w.home), null);
  },
);
