/**
 * Where uuldana keeps its configuration and its data, following XDG (and macOS conventions).
 *
 * @module
 */
import { join } from "node:path";
import { chmodSync, mkdirSync } from "node:fs";
import { UuldanaError } from "../errors.ts";

/** Environment lookups, injectable so tests do not touch the real process environment. */
export type Env = (name: string) => string | undefined;

/** Reads the process environment. */
export const processEnv: Env = (name) => Deno.env.get(name);

function _home(env: Env): string {
  const home = env("HOME");
  if (!home) {
    throw new UuldanaError(
      "HOME is not set, so uuldana cannot find its config and data",
      1,
      "set HOME, or UULDANA_HOME and UULDANA_CONFIG",
    );
  }
  return home;
}

/** Path of the configuration file: $UULDANA_CONFIG, else $XDG_CONFIG_HOME/uuldana/config.json. */
export function configPath(env: Env = processEnv): string {
  const explicit = env("UULDANA_CONFIG");
  if (explicit) return explicit;
  const xdg = env("XDG_CONFIG_HOME");
  return join(xdg || join(_home(env), ".config"), "uuldana", "config.json");
}

/**
 * The data directory: $UULDANA_HOME, else $XDG_DATA_HOME/uuldana, else ~/.local/share/uuldana
 * (~/Library/Application Support/uuldana on macOS).
 */
export function dataDir(env: Env = processEnv, os: string = Deno.build.os): string {
  const explicit = env("UULDANA_HOME");
  if (explicit) return explicit;
  const xdg = env("XDG_DATA_HOME");
  if (xdg) return join(xdg, "uuldana");
  if (os === "darwin") return join(_home(env), "Library", "Application Support", "uuldana");
  return join(_home(env), ".local", "share", "uuldana");
}

/** Creates `dir` (and parents) if needed and makes it private to the user (0700). */
export function ensurePrivateDir(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  } catch (e) {
    throw new UuldanaError(
      `cannot make the private directory ${dir}: ${(e as Error).message}`,
      1,
      "check its permissions, or set UULDANA_HOME to a directory you can write",
    );
  }
  return dir;
}
