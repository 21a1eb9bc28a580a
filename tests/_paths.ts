/**
 * Paths for integration tests: the repository, the test data inside it, and how to start uuldana
 * from source. Tests, benchmarks and tools reach recordings and reference texts only through
 * these constants, so nothing reads outside the checkout.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** The recordings, expected states and reference texts the tests use (`testdata/README.md`). */
export const TESTDATA_DIR: string = join(REPO_DIR, "testdata");

/** Terminal recordings of ordinary programs, with their expected states. */
export const VT_CORPUS_DIR: string = join(TESTDATA_DIR, "corpus", "vt");

/** Terminal recordings of coding agents, with their expected states and limit texts. */
export const AGENT_CORPUS_DIR: string = join(TESTDATA_DIR, "corpus", "agents");

/** JSON-lines output of the agents' headless modes. */
export const HEADLESS_CORPUS_DIR: string = join(TESTDATA_DIR, "corpus", "headless");

/** What real agents sent their structured channels (hook stdin JSON), one folder per version. */
export const CHANNELS_DIR: string = join(TESTDATA_DIR, "channels");

/** The real `NAME --help` outputs, one `NAME.txt` each. */
export const HELP_TEXTS_DIR: string = join(TESTDATA_DIR, "reference", "help");

/**
 * Key streams and what the key tracker did with them before its line became bounded pieces (one
 * JSON object a line, gzipped): the data `src/session/input_test.ts` holds today's tracker to.
 */
export const KEY_STREAMS_FILE: string = join(TESTDATA_DIR, "keys", "tracker_before.jsonl.gz");

/** xterm.js' Unicode 11 width of every code point, as ranges. */
export const WIDTH_TABLE_FILE: string = join(TESTDATA_DIR, "xterm-wcwidth-v11.json");

/**
 * The old name of {@link TESTDATA_DIR}, kept so code written against it still finds
 * `corpus/…` and `reference/help/` (same layout). Prefer the constants above.
 */
export const SHARED_DIR: string = TESTDATA_DIR;

/** Deno's own cache (and certificate settings), to keep when a test gives uuldana another HOME. */
export const DENO_DIR: string = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/", ".cache"), "deno");

/**
 * The V8 flags uuldana ships with, taken from `deno task start` (compile.sh embeds the same), so
 * tests and benchmarks run the program users get.
 */
export const V8_FLAGS: string = (() => {
  const config = JSON.parse(Deno.readTextFileSync(join(REPO_DIR, "deno.json")));
  const flag = /--v8-flags=\S+/.exec(config.tasks.start);
  if (!flag) throw new Error("deno.json: the start task names no --v8-flags");
  return flag[0];
})();

/** argv that starts uuldana from source with the running Deno, from any working directory. */
export const UULDANA: readonly string[] = [
  Deno.execPath(),
  "run",
  "-A",
  "--quiet",
  V8_FLAGS,
  "--config",
  join(REPO_DIR, "deno.json"),
  join(REPO_DIR, "mod.ts"),
];
