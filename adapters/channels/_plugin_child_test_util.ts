/**
 * Loads a channel plugin in a child Deno for a test. The plugins uuldana gives OpenCode, Kilo and
 * pi read their channel folder from the environment when they load; the test files run in
 * parallel in one process (`deno test --parallel`), whose environment every other test's child
 * processes inherit, so no test sets it: the plugin is loaded where the variable is the child's.
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
