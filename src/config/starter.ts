/**
 * The starter config `uuldana config init` writes: the chain of agents found on this machine,
 * every other default spelled out so it can be edited, and a pointer to the schema for editors.
 *
 * @module
 */
import { DEFAULT_CHAIN, parseConfig } from "./config.ts";

/** The name of the schema file written beside the config. */
export const SCHEMA_FILE = "config.schema.json";

/** The starter config's text for the agents `found` (chain order); none found: the default chain. */
export function starterConfig(found: readonly string[]): string {
  const { path: _path, exists: _exists, ...defaults } = parseConfig({}, "", () => undefined);
  return JSON.stringify(
    {
      $schema: `./${SCHEMA_FILE}`,
      ...defaults,
      chain: found.length ? [...found] : [...DEFAULT_CHAIN],
    },
    // A key with no default (notify.command) is left out: the file must validate as written.
    (_key, value) => value === null ? undefined : value,
    2,
  ) + "\n";
}
