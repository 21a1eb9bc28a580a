/**
 * Writes `src/sim/help_texts.json`, the top-level `--help` text each simulated agent prints, from
 * the real CLIs' captured help in `testdata/reference/help/NAME.txt` (the one source):
 *
 *   tools/deno.sh run -A tools/sim/help_texts.ts
 *
 * `tools/sim/help_texts_test.ts` fails when the two differ.
 *
 * @module
 */
import { join } from "node:path";
import { HELP_TEXTS_DIR, REPO_DIR } from "../../tests/_paths.ts";

/** The simulated agents, whose help is in `testdata/reference/help/NAME.txt`. */
export const HELP_PERSONAS = ["claude", "codex", "gemini", "opencode", "qwen", "copilot"] as const;

/** Where the generated help texts are. */
export const HELP_JSON: string = join(REPO_DIR, "src", "sim", "help_texts.json");

/**
 * What `NAME --help` printed to stdout, from a captured reference file: the lines after its
 * `$ NAME --help` header (`===== $ …` in some files) up to the next header, without the capture's
 * `[exit N]` trailer, trailing blank lines, or a `WARNING:` line the CLI wrote to stderr first.
 */
export function topHelp(name: string, captured: string): string {
  const lines = captured.split("\n");
  const header = (line: string) => /^(?:===== )?\$ /.test(line);
  const start = lines.findIndex((l) =>
    header(l) && l.replace(/^(?:===== )?\$ /, "") === `${name} --help`
  );
  if (start < 0) throw new Error(`no "$ ${name} --help" section`);
  const end = lines.findIndex((l, i) => i > start && header(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  if (body[0]?.startsWith("WARNING: ")) body.shift();
  const blank = () => body.length > 0 && body.at(-1) === "";
  while (blank()) body.pop();
  if (body.length) body[body.length - 1] = body.at(-1)!.replace(/\[exit \d+\]$/, "");
  while (blank()) body.pop();
  return body.join("\n");
}

/** The generated file's text: persona → its help text. */
export function helpTextsJson(): string {
  const texts = Object.fromEntries(HELP_PERSONAS.map((name) => [
    name,
    topHelp(name, Deno.readTextFileSync(join(HELP_TEXTS_DIR, `${name}.txt`))),
  ]));
  return JSON.stringify(texts, null, 2) + "\n";
}

if (import.meta.main) {
  Deno.writeTextFileSync(HELP_JSON, helpTextsJson());
  console.log(`wrote ${HELP_JSON}`);
}
