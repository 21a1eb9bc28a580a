import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import {
  classifyText,
  LIMIT_FILES,
  limitRules,
  limitVetoes,
  surfaces,
  warningAnywhere,
  warningIn,
} from "./limit_data.ts";
import { matchRule } from "./screen_text.ts";

const AGENTS = ["claude", "codex", "gemini", "qwen", "copilot", "opencode", "kilo", "pi"];
const SCHEMA = JSON.parse(
  readFileSync(new URL("./limits/limits.schema.json", import.meta.url), "utf8"),
);

Deno.test("every agent has a limit file, and each is valid against limits.schema.json", () => {
  assertEquals(Object.keys(LIMIT_FILES).sort(), [...AGENTS].sort());
  // deno-lint-ignore no-explicit-any
  const validate = new (Ajv2020 as any)({ allErrors: true }).compile(SCHEMA);
  for (const agent of AGENTS) {
    // The file as stored, not the imported value: the test reads what ships.
    const stored = JSON.parse(
      readFileSync(new URL(`./limits/${agent}.json`, import.meta.url), "utf8"),
    );
    assert(validate(stored), `${agent}.json: ${JSON.stringify(validate.errors, null, 1)}`);
    assertEquals(stored.agent, agent, `${agent}.json names another agent`);
  }
});

Deno.test("ids are unique, every example matches its own pattern, a limit states the reset it has", () => {
  const problems: string[] = [];
  for (const [agent, file] of Object.entries(LIMIT_FILES)) {
    const seen = new Set<string>();
    for (const m of file.messages) {
      if (seen.has(m.id)) problems.push(`${agent}.json: id "${m.id}" twice`);
      seen.add(m.id);
      const re = new RegExp(m.match, m.matchFlags ?? "");
      m.examples.forEach((e, n) => {
        if (!re.test(e)) {
          problems.push(
            `${agent}.json: ${m.id}: its match /${m.match}/${m.matchFlags ?? ""} does not ` +
              `match its example ${n}: "${e}"`,
          );
        }
      });
      // Where the reset is used (a limit's, a warning's for the ledger), the two must agree.
      const used = m.class === "hard" || m.class === "warning";
      if (used && m.reset === "none" && m.resetExample !== null) {
        problems.push(`${agent}.json: ${m.id}: reset "none" but resetExample ${m.resetExample}`);
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("on its own surface every example reads as its own class: no entry shadows another", () => {
  const problems: string[] = [];
  for (const [agent, file] of Object.entries(LIMIT_FILES)) {
    for (const m of file.messages) {
      const rules = limitRules(agent, m.surface);
      const vetoes = limitVetoes(agent, m.surface);
      for (const e of m.examples) {
        const rule = matchRule(e, rules, vetoes);
        const got = classifyText(agent, m.surface, e);
        if (m.class === "hard" && rule === null) {
          problems.push(`${agent}.json: ${m.id}: hard, but "${e}" is vetoed by ${got?.id}`);
        }
        if (m.class !== "hard" && rule !== null) {
          problems.push(`${agent}.json: ${m.id}: ${m.class}, but "${e}" is a limit`);
        }
        if (m.class === "hard" && rule && rule.kind !== m.kind) {
          problems.push(`${agent}.json: ${m.id}: "${e}" reads as ${got?.id}, a ${rule.kind} limit`);
        }
      }
    }
  }
  assertEquals(problems, []);
});

Deno.test("rules keep the file's order and carry kind and final; vetoes are the other classes", () => {
  for (const agent of AGENTS) {
    for (const surface of surfaces(agent)) {
      const messages = LIMIT_FILES[agent].messages.filter((m) => m.surface === surface);
      const hard = messages.filter((m) => m.class === "hard");
      assertEquals(
        limitRules(agent, surface).map((r) => [r.re.source, r.kind, r.final ?? false]),
        hard.map((m) => [new RegExp(m.match).source, m.kind, m.final ?? false]),
        `${agent}/${surface}`,
      );
      assertEquals(limitVetoes(agent, surface).length, messages.length - hard.length);
    }
  }
  // Kilo's own strings come before the OpenCode ones it shares.
  assertEquals(limitRules("kilo", "provider")[0].re.source, "You need to sign up to keep going");
});

Deno.test("a warning is told apart, with the reset it states; a limit or a plain text is not one", () => {
  const now = new Date("2026-03-10T02:00:00Z");
  assertEquals(
    warningIn("claude", "row", "You've used 90% of your session limit · resets 3pm (UTC)", now),
    {
      id: "used-percent",
      message: "You've used 90% of your session limit · resets 3pm (UTC)",
      resetsAt: "2026-03-10T15:00:00.000Z",
    },
  );
  assertEquals(
    warningIn("claude", "row", "You've hit your limit · resets 3pm (UTC)", now, "UTC"),
    null,
  );
  assertEquals(warningIn("claude", "row", "Done: the tests pass.", now, "UTC"), null);
  // A channel's text names no surface: every surface of the agent is asked.
  const codexWarning = LIMIT_FILES.codex.messages.find((m) => m.class === "warning");
  assert(codexWarning, "codex.json has a warning");
  assertEquals(
    warningAnywhere("codex", codexWarning.examples[0], now, "UTC")?.id,
    codexWarning.id,
  );
  assertEquals(warningAnywhere("auggie", "You've used 90% of your limit", now), null);
});

Deno.test("an agent or a surface the data does not have is an error, not an empty list", () => {
  let threw = "";
  try {
    limitRules("claude", "nowhere");
  } catch (e) {
    threw = String(e);
  }
  assert(threw.includes('no message on surface "nowhere"'), threw);
  threw = "";
  try {
    limitRules("auggie", "row");
  } catch (e) {
    threw = String(e);
  }
  assert(threw.includes('no limit data for agent "auggie"'), threw);
});
