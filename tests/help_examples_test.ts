/**
 * Every command's `--help` teaches with an example, so a new command without one fails here.
 *
 * The help of each command is rendered in this process (commander writes it through
 * `configureOutput`, `addHelpText` included), and one command's is compared with what a real
 * `uuldana … --help` prints, so the in-process text is the one users see.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Command } from "@commander-js/extra-typings";
import { buildProgram } from "../src/cli/main.ts";
import { runUuldana } from "./_uuldana.ts";
import { labWords } from "./_lab_words.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any, any>;

/** Every visible command below `cmd` with its words (`[]` is the program itself). */
function commands(cmd: AnyCommand, path: string[] = []): [string[], AnyCommand][] {
  // deno-lint-ignore no-explicit-any
  const subs = (cmd.commands as AnyCommand[]).filter((c) => !(c as any)._hidden);
  return [[path, cmd], ...subs.flatMap((c) => commands(c, [...path, c.name()]))];
}

/** What `uuldana PATH… --help` prints, rendered here. */
function helpOf(cmd: AnyCommand): string {
  let out = "";
  cmd.configureOutput({ writeOut: (s) => out += s, getOutHelpWidth: () => 80 });
  cmd.outputHelp();
  return out;
}

Deno.test("every command's --help shows an example of it", async () => {
  const all = commands(await buildProgram() as AnyCommand);
  const missing = all.filter(([path, cmd]) => {
    const examples = helpOf(cmd).split(/^Examples:$/m)[1] ?? "";
    // An example line runs this very command (the program's own: any uuldana command).
    return !examples.split("\n").some((l) => l.includes(["uuldana", ...path].join(" ")));
  }).map(([path]) => `uuldana ${path.join(" ")}`.trim());
  assertEquals(missing, []);
  assertEquals(all.length > 15, true, `only ${all.length} commands found`);
});

Deno.test("the help rendered here is what `uuldana … --help` prints", async () => {
  const [, cmd] = commands(await buildProgram() as AnyCommand).find(([p]) =>
    p.join(" ") === "debug"
  )!;
  const r = await runUuldana(["debug", "--help"], { env: { NO_COLOR: "1", COLUMNS: "80" } });
  assertEquals([r.code, r.stdout], [0, helpOf(cmd)]);
});

Deno.test("no command's --help speaks of the project's machines ('here', 'this machine')", async () => {
  const said = commands(await buildProgram() as AnyCommand).flatMap(([path, cmd]) =>
    labWords(helpOf(cmd)).map((w) => `uuldana ${path.join(" ")} --help: ${w}`)
  );
  assertEquals(said, []);
});

Deno.test("a command named first is built alone, and its --help is the one the full program shows", async () => {
  const full = await buildProgram();
  const names = (full.commands as AnyCommand[]).map((c) => c.name());
  for (const name of names) {
    const alone = await buildProgram([name, "--help"]);
    const built = (alone.commands as AnyCommand[]).map((c) => c.name());
    // `completions` walks the whole program, so it gets all of it.
    assertEquals(built, name === "completions" ? names : [name], name);
    const named = (p: Command) => (p.commands as AnyCommand[]).find((c) => c.name() === name)!;
    assertEquals(helpOf(named(alone)), helpOf(named(full)), name);
  }
});
