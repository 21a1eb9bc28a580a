/**
 * Finding an agent's binary, asking its version, and proving that it takes an initial prompt: by
 * the real-agent record when the matrix verified that exact version (nothing runs), else from its
 * real `--help`; the answers cached in the journal per build of the binary (its path, size and
 * modification time), so a second `uuldana agents` runs nothing. I/O.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { type AgentConfig, agentConfig, type Config } from "../src/config/config.ts";
import type { BinaryStamp, CachedProbe, Journal } from "../src/journal/journal.ts";
import type { Adapter, Found, Proof, Road } from "./adapter.ts";
import { handoffInArgv } from "./argv_exposure.ts";
import { recordedProof, type TestedState, testedState } from "./tested.ts";
import { type PatientProbe, patientProbe, PROBE_OUTPUT_CAP, ProbeBudget } from "./probe.ts";

/**
 * How long a cached probe is trusted: a shim that runs another binary (asdf, volta) does not change
 * when what it runs does, so even an unchanged binary is probed again after a day.
 */
export const PROBE_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What `uuldana agents --json` prints for one agent. */
export interface AgentStatus {
  /** Adapter name. */
  name: string;
  /** Human name. */
  displayName: string;
  /** Whether the binary was found. */
  found: boolean;
  /** Absolute path of the binary, or null. */
  path: string | null;
  /** Version the binary reported, or null. */
  version: string | null;
  /** Why the version is not known, when `--version` did not answer in time (else null). */
  versionNote: string | null;
  /** Whether its `--help` proves an interactive initial prompt. */
  acceptsInitialPrompt: boolean;
  /** The proof (matching line, or why not); null when the binary was not found. */
  proof: Proof | null;
  /**
   * Whether version and proof came from the probe cache (nothing ran). False for a proof from the
   * real-agent record (`proof.recorded`): nothing ran for it either.
   */
  cached: boolean;
  /** How this version stands against the newest one the real-agent matrix passed with. */
  tested: TestedState;
  /** Roads the adapter supports, best first. */
  roads: Road[];
  /** The road automatic handoffs use: the config's `road`, else the adapter's default. */
  defaultRoad: Road;
  /**
   * Whether that road puts the handoff in the agent's process arguments, which every local user
   * can read while it runs (unless /proc is mounted with hidepid).
   */
  handoffInArgv: boolean;
  /** The config disables this agent. */
  disabled: boolean;
  /** How to install it. */
  installHint: string;
  /** What is wrong, when something is (configured bin missing, road unsupported). */
  problem: string | null;
}

/** An agent's binary located on this machine, not run yet. */
export interface Located {
  /** Absolute path of the binary. */
  path: string;
  /** The configured environment the agent runs with (its probes run with it too). */
  env: Record<string, string>;
}

/** How probes go: the cache they use, the budget they share, their time limits. */
export interface ProbeOptions {
  /** The journal whose probe cache is read and written; without one, everything is probed. */
  journal?: Journal;
  /** Probe again even when the cache knows the binary (`uuldana agents --refresh`). */
  refresh?: boolean;
  /** The time and slots shared with the other probes of the command (default: its own). */
  budget?: ProbeBudget;
  /** The first try's limit (default {@link PROBE_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** The second try's limit (default {@link PROBE_RETRY_TIMEOUT_MS}). */
  retryTimeoutMs?: number;
}

function _isExecutableFile(path: string): boolean {
  try {
    const st = Deno.statSync(path);
    return st.isFile && st.mode !== null && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH` (or `name` itself when it holds a slash), or null. */
export function whichBinary(name: string, pathEnv = Deno.env.get("PATH") ?? ""): string | null {
  if (name.includes("/")) {
    const abs = isAbsolute(name) ? name : resolve(name);
    return _isExecutableFile(abs) ? abs : null;
  }
  for (const dir of pathEnv.split(":")) {
    if (!dir) continue;
    const candidate = resolve(join(dir, name));
    if (_isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** A version number in `--version` output ("codex-cli 0.171.0" → "0.171.0"), else null. */
export function parseVersion(output: string): string | null {
  const m = /\b(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(output);
  return m ? m[1] : null;
}

/**
 * Locates the agent without running it: the config's `bin` (a path, or a name looked up on PATH;
 * `UULDANA_<AGENT>_BIN` is already folded in by `loadConfig`), else the adapter's names on PATH.
 * A configured `bin` that is missing gives null (never a silent fallback to another binary).
 */
export function locateAgent(
  adapter: Adapter,
  config: Config,
  conf: AgentConfig = agentConfig(config, adapter.name),
): Located | null {
  const { bin, env } = conf;
  let path: string | null = null;
  if (bin) path = whichBinary(bin);
  else {
    for (const name of adapter.binNames) {
      path = whichBinary(name);
      if (path) break;
    }
  }
  return path ? { path, env } : null;
}

/**
 * The probe cache's name for the build of the binary at `path` probed with `env`: where it
 * resolves to, its size and modification time; null when it cannot be read.
 */
export function binaryStamp(path: string, env: Record<string, string>): BinaryStamp | null {
  try {
    const realPath = Deno.realPathSync(path);
    const st = Deno.statSync(realPath);
    return {
      path,
      realPath,
      size: st.size,
      mtimeMs: st.mtime?.getTime() ?? 0,
      envKey: _envKey(env),
    };
  } catch {
    return null;
  }
}

// A digest, not the values: a configured env may hold an API key, and the journal is no place
// for it.
function _envKey(env: Record<string, string>): string {
  const entries = Object.keys(env).sort().map((k) => [k, env[k]]);
  return createHash("sha256").update(JSON.stringify(entries)).digest("hex").slice(0, 32);
}

/**
 * Locates the agent (see {@link locateAgent}) and asks its version: from the probe cache when it
 * knows this build of the binary, else from `--version`, with the same patience as `--help`.
 */
export async function findAgent(
  adapter: Adapter,
  config: Config,
  opts: ProbeOptions = {},
  conf?: AgentConfig,
): Promise<Found | null> {
  const located = locateAgent(adapter, config, conf);
  if (!located) return null;
  const probed = await _probe(adapter, located, { version: true, help: false }, opts);
  return { path: located.path, version: probed.version, env: located.env };
}

/**
 * How patient probes are that nobody waits for (a run proves the other agents of its chain in the
 * background while one works): at load, Kilo's and OpenCode's `--help` took 34–40 s of wall time
 * for 2.7 s of CPU, and a probe cut short proves nothing.
 */
export const BACKGROUND_PROBE_TIMEOUT_MS = 60_000;

/**
 * A located agent as {@link Found} without running it: the version is not asked yet (null; see
 * {@link versionOf}). A run looks up every agent of its chain this way and asks only the one it
 * starts.
 */
export function foundWithoutVersion(
  adapter: Adapter,
  config: Config,
  conf?: AgentConfig,
): Found | null {
  const located = locateAgent(adapter, config, conf);
  return located ? { path: located.path, version: null, env: located.env } : null;
}

/** What `found`'s `--version` says (null: it said none, or did not answer), cached like a proof. */
export async function versionOf(
  adapter: Adapter,
  found: Found,
  opts: ProbeOptions = {},
): Promise<string | null> {
  const located = { path: found.path, env: found.env ?? {} };
  return (await _probe(adapter, located, { version: true, help: false }, opts)).version;
}

/**
 * Proves from `BIN --help` (no terminal, stdin null) that the agent accepts an initial prompt, run
 * with the adapter's probe environment (e.g. Gemini CLI's `GEMINI_CLI_NO_RELAUNCH`, so it does not
 * start itself twice) and the agent's configured environment (it can change what the agent does).
 * A probe that has not answered in 3 s is given up to 15 s in all: a slow start is not a refusal,
 * and `note` says what happened. One that did not answer then is `inconclusive`.
 *
 * With a journal, the proof is cached per build of the binary (path, real path, size, modification
 * time, environment: {@link binaryStamp}), whether its version is known or not; a proof that timed
 * out or could not run is never stored (a slow first start must not refuse it for good). A version
 * known without running anything (its npm package, the cache) that the real-agent matrix's
 * receiver cell passed with is proven by that record instead (`proof.recorded`), unless `refresh`.
 * A proof the binary gave (cached) comes before the record.
 */
export async function proveAgent(
  adapter: Adapter,
  found: Found,
  journal?: Journal,
  opts: Omit<ProbeOptions, "journal"> = {},
): Promise<Proof> {
  const located = { path: found.path, env: found.env ?? {} };
  const probed = await _probe(adapter, located, { version: false, help: true }, {
    ...opts,
    journal,
  });
  return probed.proof!;
}

/** What the probes of one binary found. */
interface _Probed {
  version: string | null;
  /** Why the version is not known (it did not answer in time), else null. */
  versionNote: string | null;
  /** The proof, when asked for. */
  proof: Proof | null;
  /** Everything asked for came from the cache (or the package): nothing ran, no record used. */
  cached: boolean;
}

/** The version and/or the proof of a located binary: cached ones reused, the rest probed at once. */
async function _probe(
  adapter: Adapter,
  located: Located,
  want: { version: boolean; help: boolean },
  opts: ProbeOptions,
): Promise<_Probed> {
  const env = { ...adapter.probeEnv, ...located.env };
  const stamp = opts.journal ? binaryStamp(located.path, env) : null;
  // Read every time (it costs a few stats): npm gives the files it installs one fixed
  // modification time, so a launcher script may keep its size and time across versions; its
  // package's version does not.
  const pkgVersion = packageVersion(adapter, located.path);
  let cached = stamp && !opts.refresh ? _fresh(opts.journal!, stamp) : null;
  if (cached?.versionKnown && pkgVersion && cached.version !== pkgVersion) cached = null;
  // A version the real-agent matrix handed a handoff to needs no --help (a Node agent's costs
  // 1-3 s of CPU): the record proves it, for that exact version only. `--refresh` asks the binary.
  const known = pkgVersion ?? (cached?.versionKnown ? cached.version : null);
  const recorded = want.help && !opts.refresh && !cached?.proof
    ? recordedProof(adapter.name, known)
    : null;
  const budget = opts.budget ?? new ProbeBudget({ slots: 2 });
  const needVersion = want.version && !pkgVersion && !cached?.versionKnown;
  const needHelp = want.help && !cached?.proof && !recorded;
  const [version, proof] = await Promise.all([
    needVersion ? _askVersion(located.path, env, budget, opts) : null,
    needHelp ? _askHelp(adapter, located.path, env, budget, opts) : null,
  ]);
  const learnt = {
    version: pkgVersion ?? version?.version ?? null,
    versionKnown: pkgVersion !== null || version?.note === null,
    proof: proof && !proof.inconclusive ? { accepted: proof.accepted, line: proof.line } : null,
  };
  if (stamp && (version || proof) && (learnt.versionKnown || learnt.proof)) {
    try {
      opts.journal!.saveProbe(stamp, learnt);
    } catch {
      // The cache is an optimisation: a journal that cannot take the write costs a probe next time.
    }
  }
  return {
    version: pkgVersion ?? (version ? version.version : cached?.version ?? null),
    versionNote: version?.note ?? null,
    proof: proof ?? (want.help && cached?.proof ? _cachedProof(adapter, cached.proof) : null) ??
      (recorded ? { accepted: true, line: null, recorded } : null),
    cached: !version && !proof && !recorded,
  };
}

/** The cached probe of `stamp` when it is younger than {@link PROBE_CACHE_MAX_AGE_MS}. */
function _fresh(journal: Journal, stamp: BinaryStamp): CachedProbe | null {
  let cached: CachedProbe | null;
  try {
    cached = journal.cachedProbe(stamp);
  } catch {
    return null; // unreadable: probe
  }
  if (!cached) return null;
  const age = Date.now() - Date.parse(cached.checkedAt);
  return age >= 0 && age < PROBE_CACHE_MAX_AGE_MS ? cached : null;
}

function _cachedProof(adapter: Adapter, proof: { accepted: boolean; line: string | null }): Proof {
  if (proof.accepted) return { accepted: true, line: proof.line, cached: true };
  // Same refusal reason as a fresh probe would give.
  return { ...adapter.proveInitialPrompt(""), accepted: false, line: null, cached: true };
}

/**
 * The version of the npm package the binary at `path` belongs to, without running it: the
 * `package.json` nearest above where `path` resolves to (an npm bin link, a global install), when
 * it is the adapter's own package (the one its install hint names). Null for anything else (a
 * shim, a native installer, a Python program): then `--version` is asked. Starting a Node agent
 * costs 1–3 s of CPU on a small machine, and most of the cold `uuldana agents` was that.
 */
export function packageVersion(adapter: Pick<Adapter, "installHint">, path: string): string | null {
  const pkg = /\bnpm install -g (\S+)/.exec(adapter.installHint)?.[1];
  if (!pkg) return null;
  let dir: string;
  try {
    dir = dirname(Deno.realPathSync(path));
  } catch {
    return null;
  }
  for (let up = 0; up < 6; up++, dir = dirname(dir)) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(dir, "package.json"));
    } catch {
      if (dir === dirname(dir)) return null;
      continue;
    }
    try {
      const json = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (json.name !== pkg || typeof json.version !== "string") return null;
      return /^\d+\.\d+\.\d+\S*$/.test(json.version) ? json.version : null;
    } catch {
      return null; // the nearest package.json is not JSON: not ours to read
    }
  }
  return null;
}

/** `--version`, patiently; `note` (null when it answered) says why no version is known. */
async function _askVersion(
  path: string,
  env: Record<string, string>,
  budget: ProbeBudget,
  opts: ProbeOptions,
): Promise<{ version: string | null; note: string | null }> {
  const read = (stdout: string, stderr: string) => parseVersion(stdout) ?? parseVersion(stderr);
  try {
    const probe = await patientProbe(path, ["--version"], {
      env,
      budget,
      timeoutMs: opts.timeoutMs,
      retryTimeoutMs: opts.retryTimeoutMs,
      enough: (stdout, stderr) => read(stdout, stderr) !== null,
    });
    const version = read(probe.out.stdout, probe.out.stderr);
    if (version !== null || !probe.out.timedOut) return { version, note: null };
    const why = _unanswered(path, "--version", probe, budget);
    return { version: null, note: `${why}; asked again at the next \`uuldana agents\`` };
  } catch (e) {
    return { version: null, note: `cannot run '${path} --version': ${(e as Error).message}` };
  }
}

/** `--help`, patiently, and the adapter's proof from it. */
async function _askHelp(
  adapter: Adapter,
  path: string,
  env: Record<string, string>,
  budget: ProbeBudget,
  opts: ProbeOptions,
): Promise<Proof> {
  const prove = (stdout: string, stderr: string) =>
    adapter.proveInitialPrompt(`${stdout}\n${stderr}`);
  try {
    const probe = await patientProbe(path, ["--help"], {
      env,
      budget,
      timeoutMs: opts.timeoutMs,
      retryTimeoutMs: opts.retryTimeoutMs,
      enough: (stdout, stderr) => prove(stdout, stderr).accepted,
    });
    const { out } = probe;
    let proof = prove(out.stdout, out.stderr);
    if (out.timedOut && !proof.accepted) {
      return {
        ...proof,
        inconclusive: true,
        reason: `${_unanswered(path, "--help", probe, budget)}; not a refusal: ` +
          "asked again at the next `uuldana agents` or handoff",
      };
    }
    if (probe.slow && !out.timedOut) {
      const first = `'${basename(path)} --help' did not answer in ${_seconds(probe.limitsMs[0])}`;
      proof = { ...proof, note: `${first}; it did after ${_seconds(out.ms)}` };
    }
    if (out.truncated && !proof.accepted) {
      proof = {
        ...proof,
        reason:
          `${proof.reason}; its --help printed more than ${PROBE_OUTPUT_CAP} bytes, cut there`,
      };
    }
    return proof;
  } catch (e) {
    return {
      accepted: false,
      line: null,
      inconclusive: true,
      reason: `cannot run '${path} --help': ${(e as Error).message}`,
    };
  }
}

/** Why a probe that timed out gave nothing: its limits, and the shared budget when it cut them. */
function _unanswered(path: string, arg: string, probe: PatientProbe, budget: ProbeBudget): string {
  // The full path is on the agent's line already: its name is enough here.
  const cmd = `'${basename(path)} ${arg}'`;
  const shared = `the ${_seconds(budget.totalMs)} all probes share`;
  const [first, all] = probe.limitsMs;
  if (all <= 0) return `${cmd} was not run: ${shared} ran out`;
  return `${cmd} did not answer in ${_seconds(first)}` +
    (all > first ? `, nor in ${_seconds(all)} in all` : "") +
    (probe.outOfBudget ? ` (cut short: ${shared} ran out)` : "");
}

function _seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0).replace(/\.0$/, "")} s`;
}

/**
 * Everything `uuldana agents` shows about one agent: it is located, then its `--version` and
 * `--help` are probed at once (in `opts.budget`'s slots), or both answers come from the cache.
 */
export async function describeAgent(
  adapter: Adapter,
  config: Config,
  opts: ProbeOptions = {},
  conf: AgentConfig = agentConfig(config, adapter.name),
): Promise<AgentStatus> {
  const located = locateAgent(adapter, config, conf);
  const probed = located
    ? await _probe(adapter, located, { version: true, help: true }, opts)
    : null;
  const road = conf.road ?? adapter.defaultRoad;
  let problem: string | null = null;
  if (!located && conf.bin) problem = `configured bin '${conf.bin}' not found or not executable`;
  else if (!adapter.roads.includes(road)) {
    problem = `configured road '${road}' is not one of ${adapter.roads.join(", ")}`;
  }
  return {
    name: adapter.name,
    displayName: adapter.displayName,
    found: located !== null,
    path: located?.path ?? null,
    version: probed?.version ?? null,
    versionNote: probed?.versionNote ?? null,
    acceptsInitialPrompt: probed?.proof?.accepted ?? false,
    proof: probed?.proof ?? null,
    cached: probed?.cached ?? false,
    tested: testedState(adapter.name, probed?.version ?? null),
    roads: [...adapter.roads],
    defaultRoad: road,
    handoffInArgv: handoffInArgv(adapter, road),
    disabled: conf.disabled,
    installHint: adapter.installHint,
    problem,
  };
}

/**
 * {@link describeAgent} for every adapter, all at once in `opts.budget`'s slots, the agents of the
 * configured chain first (in chain order: they take the first slots, so the ones a run would use
 * are answered first when the budget is short), the statuses in `adapters`' order.
 */
export function describeAgents(
  adapters: readonly Adapter[],
  config: Config,
  opts: ProbeOptions = {},
): Promise<AgentStatus[]> {
  const rank = (a: Adapter) => {
    const i = config.chain.indexOf(a.name);
    return i < 0 ? config.chain.length : i;
  };
  const order = adapters.map((a, i) => ({ a, i })).sort((x, y) =>
    rank(x.a) - rank(y.a) || x.i - y.i
  );
  const started = new Map(order.map(({ a, i }) => [i, describeAgent(a, config, opts)] as const));
  return Promise.all(adapters.map((_, i) => started.get(i)!));
}
