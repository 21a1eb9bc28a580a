/**
 * A run's channel folder: made private (0700) inside the run's scratch directory (so it goes when
 * the agent is gone), and the relay its hooks run, kept once in the data directory so that a hook
 * an agent runs after its scratch is gone still finds it (and exits 0 quietly).
 *
 * @module
 */
import { chmodSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChannelRelay } from "../../adapters/channel.ts";
import { RELAY_FILE, relayAt, relayScript } from "../../adapters/channels/relay.ts";
import { ensurePrivateDir } from "../config/paths.ts";

/** The channel folder's name inside the scratch directory. */
export const CHANNEL_DIR = "channel";

/**
 * Makes the channel folder in `scratchDir` and makes sure the relay script is in `relayHome` (the
 * data directory; the scratch directory when that refuses it). Returns the relay. Throws when the
 * scratch directory refuses the folder.
 */
export function openChannelDir(scratchDir: string, relayHome: string = scratchDir): ChannelRelay {
  const dir = ensurePrivateDir(join(scratchDir, CHANNEL_DIR));
  let script: string;
  try {
    script = _installRelay(relayHome);
  } catch {
    script = _installRelay(scratchDir);
  }
  return relayAt(script, dir);
}

// Writes the relay unless it is there already with this content: to a new name first, then
// renamed, so a hook running it meanwhile never reads half a script.
function _installRelay(home: string): string {
  const path = join(home, RELAY_FILE);
  const text = relayScript();
  try {
    if (readFileSync(path, "utf8") === text) return path;
  } catch { /* not there yet */ }
  const tmp = `${path}.${Deno.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o700 });
  chmodSync(tmp, 0o700);
  renameSync(tmp, path);
  return path;
}
