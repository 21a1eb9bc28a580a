/**
 * Every command's `--help` teaches with an example, so a new command without one fails here.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Command } from "@commander-js/extra-typings";
import { buildProgram } from "../src/cli/main.ts";
import { runUuldana } from "./_uuldana.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

/** The words of every visible command below `cmd` (`[]` is the program itself). */
function commandPaths(cmd: AnyCommand, path: string[] = []): string[][] {
  // deno-lint-ignore no-explicit-any
  const subs = (cmd.commands as AnyCommand[]).filter((c) => !(c as any)._hidden);
  return [path, ...subs.flatMap((c) => commandPaths(c, [...path, c.name()]))];
}

Deno.test("every command's --help shows an example of it", async () => {
  const paths = commandPaths(buildProgram() as AnyCommand);
  const missing: string[] = [];
  await Promise.all(paths.map(async (path) => {
    const r = await runUuldana([...path, "--help"], { env: { NO_COLOR: "1" } });
    const examples = r.stdout.split(/^Examples:$/m)[1] ?? "";
    // An example line runs this very command (the program's own: any uuldana command).
    const shown = examples.split("\n").some((l) => l.includes(["uuldana", ...path].join(" ")));
    if (r.code !== 0 || !shown) missing.push(`uuldana ${path.join(" ")}`.trim());
  }));
  assertEquals(missing, []);
  assertEquals(paths.length > 15, true, `only ${paths.length} commands found`);
});
