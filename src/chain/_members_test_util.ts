/**
 * Chain members for the core's unit tests: the real adapters, as if installed (or not).
 *
 * @module
 */
import { adapterByName } from "../../adapters/registry.ts";
import type { AgentConfig } from "../config/config.ts";
import type { Member } from "./member.ts";

/** A member for `name`; `installed: false` makes it missing. */
export function member(
  name: string,
  opts: { installed?: boolean; config?: Partial<AgentConfig> } = {},
): Member {
  const adapter = adapterByName(name)!;
  return {
    name,
    adapter,
    found: opts.installed === false ? null : { path: `/usr/bin/${name}`, version: "1.0" },
    config: { args: [], env: {}, disabled: false, ...opts.config },
  };
}
