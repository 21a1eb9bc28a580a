/**
 * The README's test command (`tools/deno.sh task test [FILES…]`): checks that the programs every
 * test needs are there (one line saying what to install when not), runs `deno test` in parallel
 * with its output passed through as it comes, then ends with what was not tested: every skipped
 * test by name, each with why and the line that installs what it needs (tests/_needs.ts), and
 * the counts as the plain line CI reads. With `UULDANA_NO_SKIPS=1` (CI) a skip fails the run.
 *
 * @module
 */
import { missingReason, NO_SKIPS_VAR } from "../tests/_needs.ts";

/**
 * What every test needs, asked for up front by the README: tmux is the outer terminal of every
 * end-to-end test, `script` makes the agent's terminal, `ps`/`pgrep` find the agent's processes.
 */
export const CORE_PROGRAMS: Readonly<Record<string, string>> = {
  tmux: "tmux",
  script: "bsdutils",
  ps: "procps",
  pgrep: "procps",
};

/** One line saying which core programs are missing and the line that installs them, or "". */
export function coreProblem(path?: string): string {
  const absent = Object.keys(CORE_PROGRAMS).filter((p) => missingReason([p], path) !== "");
  if (absent.length === 0) return "";
  const packages = [...new Set(absent.map((p) => CORE_PROGRAMS[p]))];
  return `the tests need ${absent.join(", ")} (see README.md, "Working on it from source"): ` +
    `apt-get install ${packages.join(" ")}`;
}

/** The names of the tests `deno test` reported ignored, from its output. */
export function ignoredTests(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  return [...plain.matchAll(/^(.+) \.\.\. ignored(?: \(.*\))?$/gm)].map((m) => m[1].trim());
}

/**
 * deno test's counts as the plain closing line CI reads (`tests: 3 passed, 0 failed, 2 skipped`),
 * from its summary (`ok | 3 passed | 0 failed | 2 ignored`); null when it printed none.
 */
export function closingLine(output: string): string | null {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const all = [...plain.matchAll(/^(?:ok|FAILED) \| (\d+) passed.*? \| (\d+) failed(.*)$/gm)];
  const last = all.at(-1);
  if (!last) return null;
  const ignored = /\| (\d+) ignored/.exec(last[3])?.[1] ?? "0";
  return `tests: ${last[1]} passed, ${last[2]} failed, ${ignored} skipped`;
}

/** The closing list: what was not tested, one test a line. */
export function skipList(skipped: readonly string[]): string {
  if (skipped.length === 0) return "not tested: nothing (no test was skipped)";
  return [
    `not tested: ${skipped.length} skipped ${skipped.length === 1 ? "test" : "tests"} ` +
    "(install what each names, then run the tests again):",
    ...skipped.map((name) => `  - ${name}`),
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  const problem = coreProblem();
  if (problem) {
    console.error(`uuldana tests: ${problem}`);
    return 2;
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", "--parallel", ...args],
    stdin: "inherit",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const decoder = new TextDecoder();
  const skipped: string[] = [];
  let output = "";
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    output += decoder.decode(chunk, { stream: true });
    // Only whole lines are needed for the list: keep the tail bounded.
    const cut = output.lastIndexOf("\n");
    if (output.length > 1 << 20 && cut > 0) {
      skipped.push(...ignoredTests(output.slice(0, cut + 1)));
      output = output.slice(cut + 1);
    }
  }
  let { code } = await child.status;
  skipped.push(...ignoredTests(output));
  console.log(`\n${skipList(skipped)}`);
  const counts = closingLine(output);
  if (skipped.length > 0 && Deno.env.get(NO_SKIPS_VAR) === "1") {
    console.log(`${NO_SKIPS_VAR}=1: every test must run (CI); install what the list names`);
    code ||= 1;
  }
  if (counts) console.log(counts);
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
