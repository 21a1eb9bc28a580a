import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { adapterByName, ADAPTERS } from "./registry.ts";
import { normalizeSpace } from "./screen_text.ts";
import { shouldHandOff } from "./policy.ts";
import { busySeconds } from "./stall.ts";
import type { DetectOptions } from "./adapter.ts";
import { AGENT_CORPUS_DIR } from "../tests/_paths.ts";
import { claudeScreen, codexScreen } from "./_limit_screens_test_util.ts";

const NOW = "2026-03-10T02:00:00Z";

const CORPUS = AGENT_CORPUS_DIR;

interface Recording {
  name: string;
  limit: boolean;
  limitText: string | null;
  limitOnFinalScreen?: boolean;
  oracle: { screen: string[]; wrappedRows: number[] };
  checkpoints: { screen: string[] }[];
}

function recordings(): Recording[] {
  return readdirSync(CORPUS).filter((f) => f.endsWith(".json")).sort().map((f) =>
    JSON.parse(readFileSync(join(CORPUS, f), "utf8"))
  );
}

// Logical lines from the oracle: rows listed in wrappedRows continue the row above.
function logicalLines(screen: string[], wrappedRows: number[] = []): string[] {
  const out: string[] = [];
  screen.forEach((row, i) => {
    if (wrappedRows.includes(i) && out.length) out[out.length - 1] += row;
    else out.push(row);
  });
  return out.map((l) => l.trimEnd());
}

const agentOf = (name: string) => adapterByName(name.split("-")[0])!;
const at = (iso: string): DetectOptions => ({ now: new Date(iso), cols: 120, timeZone: "UTC" });

Deno.test("limit recordings: detected on the final screen with message and reset time", () => {
  const usage = (resetsAt: string) => ({ kind: "usage", resetsAt });
  const expected: Record<string, { kind: string; resetsAt: string | null }> = {
    "claude-2.1.197-limit-tool-verbose": usage("2026-03-11T01:10:00.000Z"),
    "claude-2.1.332-limit": usage("2026-03-11T01:15:00.000Z"),
    "claude-2.1.332-limit-default": usage("2026-03-11T01:24:00.000Z"),
    "claude-2.1.332-limit-esc": usage("2026-03-11T01:15:00.000Z"),
    "claude-2.1.332-limit-tool": usage("2026-03-11T01:15:00.000Z"),
    "claude-2.1.332-limit-tool-verbose": usage("2026-03-11T01:15:00.000Z"),
    "claude-2.1.332-limit-typed": usage("2026-03-11T01:24:00.000Z"),
    "claude-2.1.332-limit-weekly": usage("2026-12-06T01:15:00.000Z"),
    "claude-limit-session": { kind: "usage", resetsAt: "2026-03-10T03:01:00.000Z" },
    "gemini-limit-quota-dialog": { kind: "usage", resetsAt: "2026-03-10T03:06:00.000Z" },
    "opencode-mock-429-retry": { kind: "rate", resetsAt: null },
    // pi 0.73.1 after its three retries: "Error: Retry failed after 3 attempts: 429 …".
    "pi-limit-anthropic": { kind: "rate", resetsAt: null },
    "pi-limit-quota": { kind: "usage", resetsAt: null },
    "pi-limit-rate": { kind: "rate", resetsAt: "2026-03-10T02:00:20.000Z" },
  };
  let checked = 0;
  for (const rec of recordings().filter((r) => r.limit && r.limitOnFinalScreen)) {
    const hit = agentOf(rec.name).detectLimit(
      logicalLines(rec.oracle.screen, rec.oracle.wrappedRows),
      at("2026-03-10T02:00:00Z"),
    );
    assert(hit, `${rec.name}: not detected`);
    const shown = normalizeSpace(rec.limitText!.replace(/[│]/g, " "));
    assert(shown.includes(hit.message), `${rec.name}: message ${hit.message} not in ${shown}`);
    assert(hit.message.length > 20, rec.name);
    assertEquals({ kind: hit.kind, resetsAt: hit.resetsAt }, expected[rec.name], rec.name);
    checked++;
  }
  assertEquals(checked, Object.keys(expected).length);
});

Deno.test("limit recordings: a reset time already past today means tomorrow", () => {
  const rec = recordings().find((r) => r.name === "claude-limit-session")!;
  const hit = agentOf(rec.name).detectLimit(rec.oracle.screen, at("2026-03-10T05:00:00Z"));
  assertEquals(hit?.resetsAt, "2026-03-11T03:01:00.000Z");
});

Deno.test("opencode retry footer: rate limit with attempt and wait, not yet worth a handoff", () => {
  const rec = recordings().find((r) => r.name === "opencode-mock-429-retry")!;
  const hit = agentOf(rec.name).detectLimit(rec.oracle.screen, at("2026-03-10T02:00:00Z"))!;
  assertEquals(hit.message, "Rate limit reached for requests [retrying in 13s attempt #1]");
  assertEquals([hit.attempt, hit.waitSeconds], [1, 13]);
  assertEquals(shouldHandOff(hit), false);
});

Deno.test("startup, trust and login recordings: no adapter detects a limit", () => {
  for (const rec of recordings().filter((r) => !r.limit)) {
    const screens = [rec.oracle.screen, ...rec.checkpoints.map((c) => c.screen)];
    for (const screen of screens) {
      for (const adapter of ADAPTERS) {
        const hit = adapter.detectLimit(screen, at("2026-03-10T02:00:00Z"));
        assertEquals(hit, null, `${adapter.name} fired on ${rec.name}: ${hit?.message}`);
      }
    }
  }
});

Deno.test("limit screens: only the right agent's detector fires", () => {
  for (const rec of recordings().filter((r) => r.limit && r.limitOnFinalScreen)) {
    for (const adapter of ADAPTERS) {
      const family = agentOf(rec.name).name === "opencode" ? ["opencode", "kilo"] : [];
      if (adapter.name === agentOf(rec.name).name || family.includes(adapter.name)) continue;
      assertEquals(adapter.detectLimit(rec.oracle.screen, at("2026-03-10T02:00:00Z")), null);
    }
  }
});

Deno.test("stall rule: Gemini's spinner shows how long it has been busy", () => {
  const rec = recordings().find((r) => r.name === "gemini-capacity-silent-retry")!;
  assertEquals(busySeconds(adapterByName("gemini")!, rec.oracle.screen), 20);
  assertEquals(
    busySeconds(adapterByName("gemini")!, [" ⠙ Thinking... (esc to cancel, 1m 5s)"]),
    65,
  );
  assertEquals(busySeconds(adapterByName("gemini")!, ["idle"]), null);
  assertEquals(busySeconds(adapterByName("claude")!, rec.oracle.screen), null);
});

Deno.test("delivered handoff quoting a limit message never fires; a real hit below it does", () => {
  const handoff = [
    "# uuldana handoff (untrusted historical evidence)",
    "The previous agent stopped with:",
    "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "Continue the task.",
  ].join("\n");
  // The echo of the handoff in Claude's framing, Claude idle below it.
  const echo = claudeScreen([
    "  The previous agent stopped with:",
    "    ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "  Continue the task.",
  ]).map((r) =>
    r === "❯ hello from handoff" ? "❯ # uuldana handoff (untrusted historical evidence)" : r
  );
  const opts = { ...at(NOW), delivered: [handoff] };
  assertEquals(adapterByName("claude")!.detectLimit(echo, opts), null);
  const real = claudeScreen([
    "  The previous agent stopped with:",
    "    ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "  Continue the task.",
    "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
  ], "menu").map((r) =>
    r === "❯ hello from handoff" ? "❯ # uuldana handoff (untrusted historical evidence)" : r
  );
  assertEquals(adapterByName("claude")!.detectLimit(real, opts)?.kind, "usage");
});

Deno.test("a genuine second limit is not hidden once the echo of a handoff quoting it scrolled away", () => {
  const quoted =
    "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit " +
    "https://chatgpt.com/settings/usage to purchase more credits or try again at 3:02 AM.";
  const handoff = `# uuldana handoff\nCodex stopped with:\n${quoted}\nContinue the task.`;
  // Later turns pushed the echo off the screen; Codex shows the same limit again, for real.
  const screen = codexScreen([
    "• Continuing with the parser.",
    "",
    "› and the tests",
    "",
    "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/",
    "usage to purchase more credits or try again at 3:02 AM.",
  ]).map((r) => r === "› hello from handoff" ? "› go on" : r);
  const hit = adapterByName("codex")!.detectLimit(screen, { ...at(NOW), delivered: [handoff] });
  assertEquals(hit?.resetsAt, "2026-03-10T03:02:00.000Z");
});

Deno.test("delivered text wrapped differently on screen is still recognised", () => {
  const handoff =
    "Earlier: ■ You’ve hit your usage limit. Upgrade to Pro or try again at 3:02 AM. " +
    "Then continue.";
  const screen = codexScreen([]).map((r) => r === "› hello from handoff" ? "› Earlier:" : r);
  screen.splice(
    6,
    0,
    "■ You’ve hit your usage limit. Upgrade to Pro or try again",
    "at 3:02 AM. Then continue.",
  );
  assertEquals(
    adapterByName("codex")!.detectLimit(screen, { ...at(NOW), delivered: [handoff] }),
    null,
  );
  // Without the delivered text, the echoed rows would have fired: the exclusion is what works.
  assert(adapterByName("codex")!.detectLimit(screen, at(NOW)) !== null);
});
