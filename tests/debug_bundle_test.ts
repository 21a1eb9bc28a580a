/**
 * `uuldana debug bundle RUN`: a real switch (simulated agents, tmux, the real journal) whose config
 * and conversation hold the redactor's test secrets; the bundle, with and without the
 * conversation, holds each part, opens with the system's `tar`, replays to the run's decision,
 * and holds none of the secrets.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { World } from "./_world.ts";
import { runUuldana } from "./_uuldana.ts";
import { testSecrets } from "../src/handoff/_redact_secrets_test_util.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function tar(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tar", { args, stdout: "piped", stderr: "piped" }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test(
  "a bundle holds each part, opens with tar, replays, and holds no secret",
  opts,
  async () => {
    const secrets = testSecrets();
    const [anthropic, openai, github, aws, google, slack, jwt] = secrets.map((s) => s.secret);
    const bearerLine = secrets.find((s) => s.kind === "bearer-token")!.line;
    const passwordLine = secrets.find((s) => s.line.startsWith("password="))!.line;
    const w = new World(
      ["claude", "codex"],
      {
        claude: {
          SIM_LIMIT_AFTER: "1",
          TZ: "UTC",
          ANTHROPIC_API_KEY: anthropic,
          MY_TOKEN: "plain9value",
        },
        codex: { OPENAI_API_KEY: openai },
      },
      {
        config: { notify: { command: ["/bin/true", "--api-key", "plain9value", jwt] } },
      },
    );
    try {
      await w.start(["run"]);
      await w.waitForEvent("claude", "start");
      await new Promise((r) => setTimeout(r, 1000));
      // The user pastes secrets into the conversation: the agent echoes them on its screen.
      await w.type(
        `deploy with ${github} and ${aws} ${google} ${slack} ${passwordLine} ${bearerLine}`,
      );
      await w.waitForEvent("codex", "start");
      await new Promise((r) => setTimeout(r, 1000));
      await w.term.send("C-c");
      await w.term.send("C-c");
      await w.exitCode();
      const env = { UULDANA_CONFIG: w.config, UULDANA_HOME: w.home, NO_COLOR: "1" };
      const run = w.withJournal((j) => j.runs().find((r) => r.agent === "claude")!);
      // The secrets really are in what the bundle is made from.
      const recording = gunzipSync(
        Deno.readFileSync(join(w.home, "recordings", `run-${run.id}.cast.gz`)),
      );
      assert(new TextDecoder().decode(recording).includes(github), "the screen showed the secret");

      const plain = join(w.root, "plain.tar.gz");
      const full = join(w.root, "full.tar.gz");
      const dry = await runUuldana(["debug", "bundle", String(run.id), "--dry-run"], {
        env,
        cwd: w.root,
      });
      assertEquals(dry.code, 0, dry.stderr);
      assert(
        dry.stdout.startsWith(`would write uuldana-bundle-run-${run.id}.tar.gz, for run ${run.id}`),
      );
      assert(
        dry.stdout.includes("recording.cast") && dry.stdout.includes("read it before you send it"),
      );
      const made = await runUuldana(["debug", "bundle", String(run.id), "-o", plain], { env });
      assertEquals(made.code, 0, made.stderr);
      // It says what it holds before it writes.
      assert(
        made.stdout.indexOf("config.json") < made.stdout.indexOf(`wrote ${plain}`),
        made.stdout,
      );
      const again = await runUuldana(["debug", "bundle", String(run.id), "-o", plain], { env });
      assertEquals(again.code, 1, "an existing file is not overwritten");
      const withConv = await runUuldana(
        ["debug", "bundle", "1", "--with-conversation", "-o", full],
        { env },
      );
      assertEquals(withConv.code, 0, withConv.stderr);

      const top = `uuldana-bundle-run-${run.id}`;
      const base = [
        "README.txt",
        "recording.cast",
        "decisions.json",
        "replay.json",
        "run.json",
        "config.json",
        "environment.json",
      ];
      assertEquals((await tar("-tzf", plain)).trim().split("\n"), [
        `${top}/`,
        ...base.map((n) => `${top}/${n}`),
      ]);
      const listed = (await tar("-tzf", full)).trim().split("\n");
      for (const n of [...base, "conversation.json", "delivered.json", "handoffs/"]) {
        assert(listed.includes(`${top}/${n}`), `${n} in ${listed}`);
      }
      assert(listed.some((n) => /handoffs\/.+\.md$/.test(n)), "the handoff text");

      for (const [archive, conversation] of [[plain, false], [full, true]] as const) {
        const dir = Deno.makeTempDirSync({ dir: w.root });
        await tar("-xzf", archive, "-C", dir);
        const at = (n: string) => join(dir, top, n);
        const read = (n: string) => Deno.readTextFileSync(at(n));
        // No secret in any part: neither whole nor its telling start.
        const files = listed.filter((n) => !n.endsWith("/")).map((n) => n.slice(top.length + 1))
          .filter((n) => conversation || !/conversation|delivered|handoffs/.test(n));
        for (const s of [...secrets.map((x) => x.secret), "plain9value"]) {
          const holding = files.filter((n) => read(n).includes(s.slice(0, 14)));
          assertEquals(holding, [], `${conversation ? "full" : "plain"} bundle: ${s}`);
        }
        assert(
          read("recording.cast").includes("[REDACTED:github-token]"),
          "the screen's secret is marked",
        );
        // Each part holds what it says.
        assert(read("README.txt").includes("Only with --with-conversation"));
        const decisions = JSON.parse(read("decisions.json"));
        const acted = decisions.find((d: { verdict: string }) => d.verdict === "acted");
        assert(acted?.hit?.message.includes("session limit"), read("decisions.json"));
        assertEquals(JSON.parse(read("replay.json")).match, "same");
        const rows = JSON.parse(read("run.json"));
        assertEquals([rows.run.id, rows.run.agent, rows.run.endReason], [
          run.id,
          "claude",
          "limit",
        ]);
        assertEquals(rows.handoffs.map((h: { toAgent: string }) => h.toAgent), ["codex"]);
        const config = JSON.parse(read("config.json")).effective;
        assertEquals(config.agents.claude.env.ANTHROPIC_API_KEY, "[REDACTED:config-value]");
        assertEquals(config.agents.claude.env.MY_TOKEN, "[REDACTED:config-value]");
        assertEquals(config.agents.claude.env.TZ, "UTC");
        assertEquals(config.notify.command.slice(0, 3), [
          "/bin/true",
          "--api-key",
          "[REDACTED:config-value]",
        ]);
        const environment = JSON.parse(read("environment.json"));
        assert(/^\d+\.\d+\.\d+/.test(environment.uuldana.version) && environment.uuldana.commit);
        assertEquals(
          environment.agents.find((a: { name: string }) => a.name === "claude").version,
          "2.1.197-sim",
        );
        assert(
          environment.os.os && "TERM" in environment.terminal && "size" in environment.terminal,
        );
        // The recording, redacted, still replays to the decision the run acted on.
        const detect = await runUuldana(["debug", "detect", at("recording.cast"), "--json"], {
          env,
        });
        const report = JSON.parse(detect.stdout);
        assertEquals([report.atOffset, report.atMs], [acted.offset, acted.atMs]);
        if (conversation) {
          const turns = JSON.parse(read("conversation.json"));
          assert(
            turns.some((t: { text: string }) =>
              t.text.includes("deploy with [REDACTED:github-token]")
            ),
          );
        }
      }
    } finally {
      await w.close();
    }
  },
);
