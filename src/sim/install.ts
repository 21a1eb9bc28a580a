/**
 * Installs the simulated agents as executables named like the real CLIs (`dir/claude`, …), each a
 * tiny shell script that starts uuldana's hidden `sim-agent` subcommand.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";

/** Quotes `s` for a POSIX shell. */
function _shQuote(s: string): string {
  return `'${s.replaceAll("'", `'"'"'`)}'`;
}

/**
 * The argv that starts this uuldana: the compiled binary alone, or in development
 * `deno run -A [--config deno.json] /path/mod.ts` (the config is the nearest `deno.json` above
 * the main module, so the import map resolves from any working directory).
 */
export function selfArgv(): string[] {
  const exe = Deno.execPath();
  const main = Deno.mainModule;
  if (!/^deno(?:\.exe)?$/.test(basename(exe)) || !main.startsWith("file:")) return [exe];
  const path = fileURLToPath(main);
  const argv = [exe, "run", "-A"];
  for (let dir = dirname(path);; dir = dirname(dir)) {
    const config = join(dir, "deno.json");
    if (existsSync(config)) {
      argv.push("--config", config);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return [...argv, path];
}

/**
 * Writes one executable wrapper per persona into `dir` (created if needed) that runs
 * `self… sim-agent PERSONA "$@"`; returns persona → wrapper path.
 */
export function installSimAgents(
  dir: string,
  personas: string[],
  self: readonly string[],
): Record<string, string> {
  Deno.mkdirSync(dir, { recursive: true });
  const out: Record<string, string> = {};
  for (const persona of personas) {
    if (!/^[a-z][a-z0-9-]*$/.test(persona)) throw new Error(`bad persona name: ${persona}`);
    const path = join(dir, persona);
    const cmd = [...self, "sim-agent", persona].map(_shQuote).join(" ");
    Deno.writeTextFileSync(
      path,
      `#!/bin/sh\n# uuldana simulated agent (${persona})\nexec ${cmd} "$@"\n`,
    );
    Deno.chmodSync(path, 0o755);
    out[persona] = path;
  }
  return out;
}
