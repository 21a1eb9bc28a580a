import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName } from "./registry.ts";
import { shouldHandOff } from "./policy.ts";
import { claudeScreen } from "./_limit_screens_test_util.ts";
import { type Case, OPTS, QUOTES, REAL } from "./_limit_cases_test_util.ts";

function check(c: Case): void {
  const hit = adapterByName(c.agent)!.detectLimit(c.screen, OPTS);
  if (c.expect === null) {
    assertEquals(hit, null, `${c.name}: fired with ${hit?.message}`);
    return;
  }
  assert(hit, `${c.name}: not detected\n${c.screen.join("\n")}`);
  assertEquals({ kind: hit.kind, resetsAt: hit.resetsAt }, {
    kind: c.expect.kind,
    resetsAt: c.expect.resetsAt,
  }, c.name);
  if (c.expect.handOff !== undefined) assertEquals(shouldHandOff(hit), c.expect.handOff, c.name);
  if (c.holds) assert(hit.message.includes(c.holds), `${c.name}: ${hit.message}`);
}

Deno.test("the reported limit messages, each in its agent's framing, with their reset times", () => {
  for (const c of REAL) check(c);
});

Deno.test("quoted limit messages and limits before the latest turn never fire", () => {
  assert(QUOTES.length >= 21, "the 21 quote screens of the issue, and more");
  const agents = new Set(QUOTES.map((c) => c.agent));
  for (const a of ["claude", "codex", "gemini", "qwen", "opencode", "kilo", "copilot"]) {
    assert(agents.has(a), `no quote case for ${a}`);
  }
  for (const c of QUOTES) check(c);
});

Deno.test("a zone the system does not know: detected, read as the local zone, and said so", () => {
  const screen = claudeScreen([
    "  ⎿  You've hit your limit · resets 11pm (Europe/Barcelona)",
  ], "menu");
  const hit = adapterByName("claude")!.detectLimit(screen, OPTS)!;
  assertEquals(hit.kind, "usage");
  assertEquals(hit.resetsAt, "2026-03-10T23:00:00.000Z");
  assert(hit.note?.includes("Europe/Barcelona") && hit.note.includes("local zone (UTC)"), hit.note);
  // A known zone carries no note.
  const known = adapterByName("claude")!.detectLimit(
    claudeScreen(["  ⎿  You've hit your limit · resets 11pm (Europe/Madrid)"], "menu"),
    OPTS,
  )!;
  assertEquals(known.note, undefined);
});

Deno.test("each real message, as its agent's screens, fires for that agent only", () => {
  // Forks draw the same screens: OpenCode and Kilo, Gemini and Qwen.
  const family: Record<string, string[]> = {
    opencode: ["kilo"],
    kilo: ["opencode"],
    gemini: ["qwen"],
    qwen: ["gemini"],
  };
  for (const c of REAL) {
    for (
      const other of ["claude", "codex", "gemini", "qwen", "copilot", "opencode", "pi", "auggie"]
    ) {
      if (other === c.agent || family[c.agent]?.includes(other)) continue;
      const hit = adapterByName(other)!.detectLimit(c.screen, OPTS);
      assertEquals(hit, null, `${other} fired on ${c.name}: ${hit?.message}`);
    }
  }
});
