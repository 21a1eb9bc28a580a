/**
 * The version of this build and the one line `uuldana --version` prints: version, Deno version,
 * target and commit.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The version of this build. */
export const VERSION: string = denoJson.version;

/** The variable compile.sh embeds the commit in (`deno compile --env-file`). */
export const BUILD_COMMIT_ENV = "UULDANA_BUILD_COMMIT";

// Read once and removed, so the agents uuldana starts never inherit it.
const embeddedCommit = Deno.env.get(BUILD_COMMIT_ENV);
Deno.env.delete(BUILD_COMMIT_ENV);

/** What `--version` reports. */
export interface BuildInfo {
  version: string;
  deno: string;
  target: string;
  commit: string;
}

/** The `--version` line, e.g. `uuldana 0.1.0 (deno 2.9.6, x86_64-unknown-linux-gnu, commit 1d48613)`. */
export function versionLine(info: BuildInfo): string {
  return `uuldana ${info.version} (deno ${info.deno}, ${info.target}, commit ${info.commit})`;
}

/**
 * This build's facts. The commit is the one compile.sh embedded; from source, `git rev-parse` of
 * the checkout this file is in; else `unknown`.
 */
export function buildInfo(): BuildInfo {
  return {
    version: VERSION,
    deno: Deno.version.deno,
    target: Deno.build.target,
    commit: embeddedCommit || sourceCommit() || "unknown",
  };
}

function sourceCommit(): string | undefined {
  if (!import.meta.url.startsWith("file:")) return undefined;
  try {
    const out = new Deno.Command("git", {
      args: ["rev-parse", "--short=12", "HEAD"],
      cwd: dirname(fileURLToPath(import.meta.url)),
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const commit = new TextDecoder().decode(out.stdout).trim();
    return out.success && /^[0-9a-f]+$/.test(commit) ? commit : undefined;
  } catch {
    return undefined; // no git on this machine
  }
}
