/**
 * What most commands need: the configuration, the private data directory and the open journal.
 *
 * @module
 */
import { adapterByName } from "../adapters/registry.ts";
import { checkProfiles } from "./chain/profile.ts";
import { type Config, loadConfig } from "./config/config.ts";
import { dataDir, ensurePrivateDir } from "./config/paths.ts";
import { Journal } from "./journal/journal.ts";
import { ResilientJournal } from "./journal/resilient_journal.ts";
import { sweepScratch } from "./session/scratch.ts";

/**
 * The configuration from `loadConfig`, its profiles checked against the agents uuldana knows:
 * an invalid one is a `UsageError` naming it (exit 2).
 */
export function loadCheckedConfig(): Config {
  const config = loadConfig();
  checkProfiles(config, adapterByName);
  return config;
}

/** Configuration, data directory and journal for one command. */
export interface Context {
  config: Config;
  dataDir: string;
  journal: Journal;
}

/**
 * Loads the config, creates the data directory (0700), removes the scratch files of uuldanas that
 * were killed, and opens the journal (which marks their runs and handoffs interrupted). With `live` (a run
 * the user works in) the journal's writes never throw: what the file cannot take is kept in
 * memory, retried, and told to `report` once.
 */
export function openContext(
  opts: { live?: { report: (line: string) => void } } = {},
): Context {
  const config = loadCheckedConfig();
  const dir = ensurePrivateDir(dataDir());
  // What a uuldana killed mid-switch left: scratch files that hold handoff text.
  sweepScratch(dir);
  if (!opts.live) return { config, dataDir: dir, journal: Journal.open(dir) };
  const journal = ResilientJournal.openLive(dir);
  journal.reportTo(opts.live.report);
  return { config, dataDir: dir, journal };
}
