import { ok as assert } from "node:assert/strict";
import { adapterByName } from "./registry.ts";
import { LIMIT_FILES } from "./limit_data.ts";
import { OPTS } from "./_limit_cases_test_util.ts";
import { type DrawnScreen, SURFACES } from "./_limit_data_screens_test_util.ts";

// Every example of every agent's limit data, drawn where that agent draws it: a hard one is
// detected with its kind (and examples[0] with its reset) when the turn ended on it, and never
// while the agent works; any other class never fires.
for (const [agent, file] of Object.entries(LIMIT_FILES)) {
  Deno.test(`${agent}: every message of its limit data, drawn in its real screen`, () => {
    const adapter = adapterByName(agent);
    assert(adapter, `no adapter named ${agent}`);
    const failures: string[] = [];
    let drawn = 0;
    for (const m of file.messages) {
      const draw = SURFACES[agent]?.[m.surface];
      if (!draw) {
        failures.push(`${m.id}: no screen draws ${agent}'s surface "${m.surface}"`);
        continue;
      }
      m.examples.forEach((example, n) => {
        for (const screen of draw(example)) {
          drawn++;
          const problem = _check(adapter.detectLimit(screen.rows, OPTS), m, n, screen);
          if (problem) {
            failures.push(
              `${m.id} (${m.class}) example ${n} on ${m.surface}, ${screen.name}: ${problem}\n` +
                `  "${example}"`,
            );
          }
        }
      });
    }
    assert(drawn > 0, `${agent}: nothing drawn`);
    if (failures.length > 0) throw new Error(`${agent}.json:\n${failures.join("\n")}`);
  });
}

function _check(
  hit: ReturnType<NonNullable<ReturnType<typeof adapterByName>>["detectLimit"]>,
  m: (typeof LIMIT_FILES)[string]["messages"][number],
  n: number,
  screen: DrawnScreen,
): string | null {
  if (m.class !== "hard") return hit ? `fired as a ${hit.kind} limit: ${hit.message}` : null;
  if (screen.state === "busy") return hit ? `fired while the agent works: ${hit.message}` : null;
  if (screen.state === "retrying") return null;
  if (!hit) return "not detected";
  if (hit.kind !== m.kind) return `detected as ${hit.kind}, the data says ${m.kind}`;
  if (n === 0 && hit.resetsAt !== m.resetExample) {
    return `reset ${hit.resetsAt}, the data says ${m.resetExample}`;
  }
  return null;
}
