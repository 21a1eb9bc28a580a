/**
 * Runs a piece of a test in a child Deno with an environment of its own. The test files run in
 * parallel in one process (`deno test --parallel`), whose environment, `fetch` and working
 * directory every test running at the same time shares (and every child process it starts
 * inherits), so no test changes them (`tests/parallel_safety_test.ts`). Code that reads them, as
 * the channel plugins do at load and `uuldana doctor`'s checks do throughout, runs here instead.
 *
 * @module
 */

/**
 * Runs `script` (a TypeScript module) in a child Deno with `env` added to the environment and
 * returns what it printed as its last line, parsed as JSON. A failure in the child fails the test
 * with the child's error output.
 *
 * @example
 * ```ts
 * const names = await inChildWithEnv<string[]>(
 *   `const m = await import(${JSON.stringify(url)}); console.log(JSON.stringify(Object.keys(m)));`,
 *   { UULDANA_PI_CHANNEL: dir },
 * );
 * ```
 */
export async function inChildWithEnv<T>(script: string, env: Record<string, string>): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", "--ext=ts", script],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout).trimEnd();
  if (!out.success) {
    throw new Error(`the child failed (${out.code}): ${new TextDecoder().decode(out.stderr)}`);
  }
  return JSON.parse(stdout.slice(stdout.lastIndexOf("\n") + 1)) as T;
}
