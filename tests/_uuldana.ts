/**
 * Runs uuldana from source as a user would, to its end: the shipped V8 flags, the repository's
 * config (so any working directory works), output collected.
 *
 * @module
 */
import { UULDANA } from "./_paths.ts";

/** What a finished uuldana process left. */
export interface UuldanaOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runUuldana}. */
export interface RunUuldanaOptions {
  env?: Record<string, string>;
  /** Start from `env` alone, not this process's environment. */
  clearEnv?: boolean;
  cwd?: string;
  /** Written to stdin, which is then closed; stdin is /dev/null without it. */
  stdin?: string;
}

/** Runs `uuldana ARGS…` to its end. */
export async function runUuldana(
  args: string[],
  opts: RunUuldanaOptions = {},
): Promise<UuldanaOutput> {
  const child = new Deno.Command(UULDANA[0], {
    args: [...UULDANA.slice(1), ...args],
    env: opts.env,
    clearEnv: opts.clearEnv,
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
