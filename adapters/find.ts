/**
 * Finding an agent's binary, asking its version, and proving from its real `--help` that it takes
 * an initial prompt (cached in the journal per binary path and version). I/O.
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";
import { agentConfig, type Config } from "../src/config/config.ts";
import type { Journal } from "../src/journal/journal.ts";
import type { Adapter, Found, Proof, Road } from "./adapter.ts";
import { handoffInArgv } from "./argv_exposure.ts";

/** How long `--version` and `--help` may take at first. */
export const PROBE_TIMEOUT_MS = 3000;

/**
 * How long the second `--help` may take after the first timed out: a slow start (Gemini CLI
 * relaunching itself, a first run unpacking) is not a refusal.
 */
export const PROBE_RETRY_TIMEOUT_MS = 15_000;

/** The most a probe reads from each of stdout and stderr; past it the program is killed. */
export const PROBE_OUTPUT_CAP = 1024 * 1024;

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
  /** Whether its `--help` proves an interactive initial prompt. */
  acceptsInitialPrompt: boolean;
  /** The proof (matching line, or why not); null when the binary was not found. */
  proof: Proof | null;
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

/** The output of a short probe run. */
export interface ProbeOutput {
  /** Exit code, or null when it was killed on timeout. */
  code: number | null;
  /** stdout and stderr, decoded. */
  stdout: string;
  stderr: string;
  /** It did not finish in time and was killed. */
  timedOut: boolean;
  /** It printed more than the cap: the output is cut there and the program was killed. */
  truncated: boolean;
  /** How long it ran, in milliseconds. */
  ms: number;
}

/**
 * Runs `path args` without a terminal (stdin null), collecting output, killed after `timeoutMs`
 * or once it printed more than `maxBytes` on one stream (memory stays bounded whatever it prints).
 * Grandchildren that keep the pipes open do not make it hang.
 */
export async function runProbe(
  path: string,
  args: string[],
  opts: { timeoutMs?: number; cwd?: string; env?: Record<string, string>; maxBytes?: number } = {},
): Promise<ProbeOutput> {
  const started = performance.now();
  const cap = opts.maxBytes ?? PROBE_OUTPUT_CAP;
  let truncated = false;
  let overflow: () => void = () => {};
  const overflowed = new Promise<"overflow">((r) => overflow = () => r("overflow"));
  const child = new Deno.Command(path, {
    args,
    cwd: opts.cwd,
    env: { NO_COLOR: "1", ...opts.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const chunks = { stdout: [] as Uint8Array[], stderr: [] as Uint8Array[] };
  const readers = [
    child.stdout.getReader(),
    child.stderr.getReader(),
  ] as const;
  const drain = async (r: ReadableStreamDefaultReader<Uint8Array>, into: Uint8Array[]) => {
    let kept = 0;
    try {
      for (;;) {
        const { done, value } = await r.read();
        if (done) return;
        if (kept + value.length > cap) {
          into.push(value.subarray(0, cap - kept));
          truncated = true;
          overflow();
          return;
        }
        into.push(value);
        kept += value.length;
      }
    } catch {
      // cancelled on timeout
    }
  };
  const drained = Promise.all([
    drain(readers[0], chunks.stdout),
    drain(readers[1], chunks.stderr),
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((r) => {
    timer = setTimeout(() => r("timeout"), opts.timeoutMs ?? PROBE_TIMEOUT_MS);
  });
  const outcome = await Promise.race([child.status.then((s) => s), timeout, overflowed]);
  let code: number | null = null;
  let timedOut = false;
  if (outcome === "timeout" || outcome === "overflow") {
    timedOut = outcome === "timeout";
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  } else {
    code = outcome.code;
  }
  // Output still held open by a grandchild gets a short grace period, then is cut.
  const grace = new Promise<void>((r) => setTimeout(r, timedOut || truncated ? 0 : 200));
  await Promise.race([drained, grace]);
  clearTimeout(timer);
  for (const r of readers) r.cancel().catch(() => {});
  await drained;
  const dec = (parts: Uint8Array[]) => new TextDecoder().decode(_concat(parts));
  return {
    code,
    stdout: dec(chunks.stdout),
    stderr: dec(chunks.stderr),
    timedOut,
    truncated,
    ms: Math.round(performance.now() - started),
  };
}

function _concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
 * Locates the agent: the config's `bin` (a path, or a name looked up on PATH;
 * `UULDANA_<AGENT>_BIN` is already folded in by `loadConfig`), else the adapter's names on PATH.
 * A configured `bin` that is missing gives null (never a silent fallback to another binary).
 */
export async function findAgent(adapter: Adapter, config: Config): Promise<Found | null> {
  const { bin, env } = agentConfig(config, adapter.name);
  let path: string | null = null;
  if (bin) path = whichBinary(bin);
  else {
    for (const name of adapter.binNames) {
      path = whichBinary(name);
      if (path) break;
    }
  }
  if (!path) return null;
  let version: string | null = null;
  try {
    const out = await runProbe(path, ["--version"], { env: { ...adapter.probeEnv, ...env } });
    if (!out.timedOut) version = parseVersion(out.stdout) ?? parseVersion(out.stderr);
  } catch {
    version = null;
  }
  return { path, version, env };
}

/** The environment a probe of `adapter` runs with: its probe settings, then the configured env. */
function _probeEnv(adapter: Adapter, found: Found): Record<string, string> {
  return { ...adapter.probeEnv, ...found.env };
}

/**
 * Proves from `BIN --help` (no terminal, stdin null) that the agent accepts an initial prompt, run
 * with the adapter's probe environment (e.g. Gemini CLI's `GEMINI_CLI_NO_RELAUNCH`, so it does not
 * start itself twice) and the agent's configured environment (it can change what the agent does).
 * A first probe that times out (3 s) is tried again with a longer limit (15 s): a slow start is not
 * a refusal, and `note` says what happened. One that timed out twice is `inconclusive`.
 *
 * With a journal, a result for the same binary path and version is reused and a new one stored; a
 * binary without a version, or with a configured environment, is probed every time, and a probe
 * that timed out or could not run is never stored (a slow first start must not refuse it for good).
 */
export async function proveAgent(
  adapter: Adapter,
  found: Found,
  journal?: Journal,
  opts: { timeoutMs?: number; retryTimeoutMs?: number } = {},
): Promise<Proof> {
  const cacheable = journal !== undefined && found.version !== null &&
    Object.keys(found.env ?? {}).length === 0;
  if (cacheable) {
    const cached = journal!.cachedProof(found.path, found.version!);
    if (cached) {
      if (cached.accepted) return { accepted: true, line: cached.line, cached: true };
      // Same refusal reason as a fresh probe would give.
      return { ...adapter.proveInitialPrompt(""), accepted: false, line: null, cached: true };
    }
  }
  const limits = [
    opts.timeoutMs ?? PROBE_TIMEOUT_MS,
    opts.retryTimeoutMs ?? PROBE_RETRY_TIMEOUT_MS,
  ];
  const env = _probeEnv(adapter, found);
  let proof: Proof;
  try {
    let out = await runProbe(found.path, ["--help"], { env, timeoutMs: limits[0] });
    let retried = false;
    if (out.timedOut && !adapter.proveInitialPrompt(`${out.stdout}\n${out.stderr}`).accepted) {
      retried = true;
      out = await runProbe(found.path, ["--help"], { env, timeoutMs: limits[1] });
    }
    proof = adapter.proveInitialPrompt(`${out.stdout}\n${out.stderr}`);
    const first = `'${found.path} --help' did not finish in ${_seconds(limits[0])}`;
    if (out.timedOut && !proof.accepted) {
      proof = {
        ...proof,
        inconclusive: true,
        reason: `${first}, nor in ${_seconds(limits[1])} on a second try; not a refusal, ` +
          "it is probed again at the next handoff",
      };
    } else if (retried) {
      proof = { ...proof, note: `${first}; the second try took ${_seconds(out.ms)}` };
    }
    if (out.truncated && !proof.accepted) {
      proof = {
        ...proof,
        reason:
          `${proof.reason}; its --help printed more than ${PROBE_OUTPUT_CAP} bytes, cut there`,
      };
    }
  } catch (e) {
    proof = {
      accepted: false,
      line: null,
      inconclusive: true,
      reason: `cannot run '${found.path} --help': ${(e as Error).message}`,
    };
  }
  if (cacheable && !proof.inconclusive) {
    journal!.saveProof(found.path, found.version!, { accepted: proof.accepted, line: proof.line });
  }
  return proof;
}

function _seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0).replace(/\.0$/, "")} s`;
}

/** Everything `uuldana agents` shows about one agent (finds and proves it). */
export async function describeAgent(
  adapter: Adapter,
  config: Config,
  journal?: Journal,
): Promise<AgentStatus> {
  const conf = agentConfig(config, adapter.name);
  const found = await findAgent(adapter, config);
  const proof = found ? await proveAgent(adapter, found, journal) : null;
  const road = conf.road ?? adapter.defaultRoad;
  let problem: string | null = null;
  if (!found && conf.bin) problem = `configured bin '${conf.bin}' not found or not executable`;
  else if (!adapter.roads.includes(road)) {
    problem = `configured road '${road}' is not one of ${adapter.roads.join(", ")}`;
  }
  return {
    name: adapter.name,
    displayName: adapter.displayName,
    found: found !== null,
    path: found?.path ?? null,
    version: found?.version ?? null,
    acceptsInitialPrompt: proof?.accepted ?? false,
    proof,
    roads: [...adapter.roads],
    defaultRoad: road,
    handoffInArgv: handoffInArgv(adapter, road),
    disabled: conf.disabled,
    installHint: adapter.installHint,
    problem,
  };
}
