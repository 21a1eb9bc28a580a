/**
 * Kilo Code CLI (`kilo`): an OpenCode fork with the same CLI, import format and footer.
 *
 * @module
 */
import type { Adapter } from "./adapter.ts";
import { openCodeAdapter } from "./opencode.ts";

/** The Kilo Code CLI adapter. */
export const kilo: Adapter = openCodeAdapter({
  name: "kilo",
  displayName: "Kilo Code CLI",
  installHint: "npm install -g @kilocode/cli",
  fallbackVersion: "7.7.7",
  configVar: "KILO_CONFIG_CONTENT",
});
