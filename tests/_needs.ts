/**
 * Tests that need a program a fresh machine may lack (a shell the completions or the installer are
 * tested in, a downloader): without it such a test is skipped by name, with the reason and the
 * line that installs it, and `tools/run_tests.ts` lists every skip at the end of the run. CI sets
 * `UULDANA_NO_SKIPS=1` (.ci/run installs them all): there a missing program fails the test instead.
 *
 * What every test needs (tmux, `script`, `ps`) is asked for up front by the README, not skipped.
 *
 * @module
 */
import { join } from "node:path";

/** The programs a test may need, with the Debian package that installs each. */
export const PACKAGES: Readonly<Record<string, string>> = {
  zsh: "zsh",
  fish: "fish",
  posh: "posh",
  dash: "dash",
  curl: "curl",
  wget: "wget",
};

/** The environment variable that turns a skip into a failure (CI). */
export const NO_SKIPS_VAR = "UULDANA_NO_SKIPS";

/** Where `cmd` is on `path` (a PATH value), or null when it is not there. */
export function onPath(cmd: string, path = Deno.env.get("PATH") ?? ""): string | null {
  for (const dir of path.split(":")) {
    if (!dir) continue;
    try {
      const file = join(dir, cmd);
      const st = Deno.statSync(file);
      if (st.isFile && ((st.mode ?? 0o111) & 0o111)) return file;
    } catch { /* not in this folder */ }
  }
  return null;
}

/** Why a test needing `programs` cannot run on this PATH ("" when it can). */
export function missingReason(programs: readonly string[], path?: string): string {
  const absent = [...new Set(programs)].filter((p) => onPath(p, path) === null);
  if (absent.length === 0) return "";
  const packages = [...new Set(absent.map((p) => PACKAGES[p] ?? p))];
  const names = absent.length === 1
    ? absent[0]
    : `${absent.slice(0, -1).join(", ")} and ${absent.at(-1)}`;
  return `${names} ${absent.length === 1 ? "is" : "are"} not installed: ` +
    `apt-get install ${packages.join(" ")}`;
}

/**
 * Registers `def` as a test needing `programs`. When one is missing it is registered skipped,
 * named `NAME [skipped: zsh is not installed: apt-get install zsh]`; under `UULDANA_NO_SKIPS=1`
 * it runs and fails with that reason instead.
 */
export function testNeeding(programs: readonly string[], def: Deno.TestDefinition): void {
  const why = missingReason(programs);
  if (!why) return Deno.test(def);
  if (Deno.env.get(NO_SKIPS_VAR) === "1") {
    return Deno.test({
      ...def,
      fn: () => {
        throw new Error(`${why} (${NO_SKIPS_VAR}=1: every test must run)`);
      },
    });
  }
  Deno.test({ ...def, name: `${def.name} [skipped: ${why}]`, ignore: true });
}
