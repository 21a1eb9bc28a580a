/**
 * What most commands need: the configuration, the private data directory and the open journal.
 *
 * @module
 */
import { type Config, loadConfig } from "./config/config.ts";
import { dataDir, ensurePrivateDir } from "./config/paths.ts";
import { Journal } from "./journal/journal.ts";

/** Configuration, data directory and journal for one command. */
export interface Context {
  config: Config;
  dataDir: string;
  journal: Journal;
}

/** Loads the config, creates the data directory (0700) and opens the journal. */
export function openContext(): Context {
  const config = loadConfig();
  const dir = ensurePrivateDir(dataDir());
  const journal = Journal.open(dir);
  return { config, dataDir: dir, journal };
}
