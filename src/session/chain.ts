/**
 * A chain of agent runs: the first agent runs untouched; on a usage limit the conversation is
 * handed to the next available agent through its road and it starts on it at once; on `/agent
 * NAME` the next agent starts clean and the handoff is pasted into its input box, not sent.
 *
 * @module
 */
import { join } from "node:path";
import { copyFileSync } from "node:fs";
import type { Adapter, Found, Launch, LimitHit, Proof } from "../../adapters/adapter.ts";
import { materializeLaunch } from "../../adapters/launch_io.ts";
import { RoadError } from "../../adapters/launch_rules.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { findAgent, proveAgent, whichBinary } from "../../adapters/find.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { agentConfig, type Road } from "../config/config.ts";
import type { Context } from "../cli/context.ts";
import { ExitCode, NotFoundError, UsageError } from "../errors.ts";
import type { TranscriptEntry } from "../handoff/package.ts";
import { AgentRun, type RunOutcome, type UserTerminal } from "./agent_run.ts";
import type { Keyboard } from "./keyboard.ts";
import { type PreparedHandoff, prepareHandoff, runConversation } from "../handoff/prepare.ts";
import { pasteUntilVisible } from "./paste.ts";
import { closingLine, CONTINUE_REQUEST, openingLine } from "../handoff/frame.ts";
import { waitForReset } from "./reset_wait.ts";
import { newScratchDir, removeScratchDir } from "./scratch.ts";

/** What a chain needs from the outside world. */
export interface ChainOptions {
  ctx: Context;
  /** The agent to start with (null: the first installed agent of the chain). */
  first: string | null;
  /** The agents to hand off to, in order (null: the rest of the configured chain). */
  then: string[] | null;
  /** Extra arguments for the first agent. */
  extraArgs: string[];
  /** Never wait for a reset when every agent is limited. */
  noWait: boolean;
  workspace: string;
  user: UserTerminal;
  keyboard: Keyboard;
  size(): { cols: number; rows: number };
  /** One status line for the user (stderr). */
  status(line: string): void;
  /** Called with each run once it started (SIGWINCH and signal handling, the demo). */
  onRun?(run: AgentRun | null): void;
  /** Milliseconds to wait for a pasteable prompt before saving the handoff instead. */
  pasteTimeoutMs?: number;
  /** Stops the chain while it waits for a reset (Ctrl-C). */
  abort?: AbortSignal;
  /** Start the first agent on this saved handoff (`uuldana handoff`), with its conversation. */
  initial?: { handoff: PreparedHandoff; road: Road; conversation: TranscriptEntry[] };
}

interface _Member {
  adapter: Adapter;
  found: Found | null;
  disabled: boolean;
  /** The `--help` proof, started in the background so a switch does not wait for it. */
  proof?: Promise<Proof>;
}

async function _proof(member: _Member, journal: Context["journal"]): Promise<Proof> {
  member.proof ??= proveAgent(member.adapter, member.found!, journal);
  const proof = await member.proof;
  if (!proof.inconclusive) return proof;
  // A probe that timed out proved nothing either way (a slow start): it is not kept, probe again.
  member.proof = proveAgent(member.adapter, member.found!, journal);
  return member.proof;
}

/** What the next run starts with. */
interface _Start {
  member: _Member;
  handoff: PreparedHandoff | null;
  /** `prompt`-like roads deliver at launch; `paste` after start. */
  road: Road | null;
  extraArgs: string[];
  /** For an automatic handoff: where it came from, to move on if this agent cannot take it. */
  origin?: { from: _Member; fromRun: number; limit: LimitHit };
}

/**
 * Runs the chain until an agent exits by itself or nothing can continue; returns the exit code.
 * Returns only when every agent it started is gone and journaled, and every delivery settled.
 */
export async function runChain(opts: ChainOptions): Promise<number> {
  const stopping: Promise<unknown>[] = [];
  try {
    return await _runChain(opts, stopping);
  } finally {
    await Promise.allSettled(stopping);
  }
}

async function _runChain(opts: ChainOptions, stopping: Promise<unknown>[]): Promise<number> {
  const { ctx } = opts;
  const members = await _resolveMembers(opts);
  const limited = new Map<string, string | null>(); // agent → resetsAt
  const refused = new Set<string>(); // agents whose road could not carry the handoff
  let conversation: TranscriptEntry[] = opts.initial?.conversation ?? [];
  let start: _Start = {
    member: _firstMember(members, opts.first),
    handoff: opts.initial?.handoff ?? null,
    road: opts.initial?.road ?? null,
    extraArgs: opts.extraArgs,
  };

  for (;;) {
    const { member } = start;
    // A signal that came while no agent ran (a switch, a wait) had no run to stop: start no other.
    if (opts.abort?.aborted) {
      if (start.handoff) {
        ctx.journal.updateHandoff(start.handoff.id, {
          status: "saved",
          error: "uuldana was stopped before it could deliver the handoff",
        });
      }
      return _signalCode(String(opts.abort.reason));
    }
    let launched: { run: AgentRun; delivery: Promise<void> };
    try {
      launched = await _launch(opts, start, members);
    } catch (e) {
      if (!start.handoff) throw e;
      if (!(e instanceof RoadError)) {
        ctx.journal.updateHandoff(start.handoff.id, {
          status: "saved",
          error: `${member.adapter.name} could not be started: ${(e as Error)?.message ?? e}`,
        });
        throw e;
      }
      // The road cannot carry this handoff (too long for argv, a failed import…): never guess.
      ctx.journal.updateHandoff(start.handoff.id, {
        status: "refused",
        error: `${e.message}${e.hint ? ` (${e.hint})` : ""}`,
      });
      opts.status(
        `${member.adapter.name} cannot take this handoff: ${e.message}. Saved: ${start.handoff.file}`,
      );
      refused.add(member.adapter.name);
      const origin = start.origin;
      if (!origin) throw e;
      const next = await _autoHandoff(
        opts,
        members,
        origin.from,
        origin.fromRun,
        origin.limit,
        conversation,
        limited,
        refused,
      );
      if (typeof next === "number") return next;
      start = next;
      continue;
    }
    const { run } = launched;
    stopping.push(run.ended, launched.delivery);
    opts.onRun?.(run);
    // A signal or a resize while the agent was being started reached no run.
    if (opts.abort?.aborted) run.stop(String(opts.abort.reason));
    else _followSize(opts, run);
    // While the agent works, prove the others take an opening prompt: a switch then waits for none.
    for (const m of members) {
      if (m.found && !m.disabled && m !== member) _proof(m, ctx.journal).catch(() => {});
    }
    const outcome = await run.outcome;
    opts.onRun?.(null);
    // The journal has the limit only once the run has ended; the screen is cut at it now.
    const limitMessage = outcome.reason === "limit" ? outcome.limit.message : undefined;
    conversation = [...conversation, ...runConversation(ctx.journal, run.runId, limitMessage)];

    if (outcome.reason === "exit") return outcome.exitCode;
    if (outcome.reason === "stopped") return _signalCode(outcome.signal);

    if (outcome.reason === "switch") {
      start = await _manualSwitch(opts, members, member, run.runId, outcome.to, conversation);
      continue;
    }

    // A limit: hand the conversation to the next available agent.
    const { limit } = outcome;
    limited.set(member.adapter.name, limit.resetsAt);
    const next = await _autoHandoff(
      opts,
      members,
      member,
      run.runId,
      limit,
      conversation,
      limited,
      refused,
    );
    if (typeof next === "number") return next;
    start = next;
  }
}

/** Gives a new run the terminal's size now: a resize while it was starting reached no pty. */
function _followSize(opts: ChainOptions, run: AgentRun): void {
  const { cols, rows } = opts.size();
  if (cols !== run.vt.cols || rows !== run.vt.rows) run.resize(cols, rows);
}

/** 128 + the signal number, as a shell reports a process ended by that signal. */
function _signalCode(signal: string): number {
  return 128 + (signal === "SIGHUP" ? 1 : signal === "SIGINT" ? 2 : 15);
}

async function _resolveMembers(opts: ChainOptions): Promise<_Member[]> {
  const { config } = opts.ctx;
  const names = opts.first
    ? [opts.first, ...(opts.then ?? config.chain.filter((n) => n !== opts.first))]
    : config.chain;
  const adapters = [...new Set(names)].map((name) => {
    const adapter = adapterByName(name);
    if (!adapter) {
      throw new UsageError(
        `unknown agent "${name}"`,
        "see `uuldana agents` for the agents uuldana knows",
      );
    }
    return adapter;
  });
  // Each lookup asks the binary for its version: all at once, so the first agent starts sooner.
  return await Promise.all(adapters.map(async (adapter) => ({
    adapter,
    found: await findAgent(adapter, config),
    disabled: agentConfig(config, adapter.name).disabled,
  })));
}

function _firstMember(members: _Member[], wanted: string | null): _Member {
  if (wanted) {
    const m = members[0];
    if (!m.found) {
      throw new NotFoundError(
        `${m.adapter.displayName} (${m.adapter.name}) is not installed`,
        m.adapter.installHint,
      );
    }
    return m;
  }
  const m = members.find((x) => x.found && !x.disabled);
  if (!m) {
    const hints = members.map((x) => `  ${x.adapter.name}: ${x.adapter.installHint}`).join("\n");
    throw new NotFoundError(
      `no agent of your chain is installed (${members.map((x) => x.adapter.name).join(", ")})`,
      `install one:\n${hints}`,
    );
  }
  return m;
}

/** Starts the run and, in the background, what it still has to receive (a paste, a kickoff). */
async function _launch(
  opts: ChainOptions,
  start: _Start,
  members: _Member[],
): Promise<{ run: AgentRun; delivery: Promise<void> }> {
  const { ctx } = opts;
  const { adapter, found } = start.member;
  const cfg = agentConfig(ctx.config, adapter.name);
  const scratch = newScratchDir(ctx.dataDir, adapter.name);
  const removeScratch = () => removeScratchDir(scratch);
  const atLaunch = start.handoff && start.road !== "paste" ? start.handoff : null;
  let launch: Launch;
  let run: AgentRun;
  try {
    launch = adapter.launch({
      bin: found!.path,
      version: found!.version,
      road: start.road ?? adapter.defaultRoad,
      handoff: atLaunch?.composed.text ?? null,
      handoffFile: atLaunch?.file,
      extraArgs: [...cfg.args, ...start.extraArgs],
      workspace: opts.workspace,
      scratchDir: scratch,
    });
    const argv = await materializeLaunch(launch, opts.workspace, { env: cfg.env });
    const size = opts.size();
    run = await AgentRun.start({
      adapter,
      argv,
      env: { ...cfg.env, ...launch.env },
      workspace: opts.workspace,
      cols: size.cols,
      rows: size.rows,
      journal: ctx.journal,
      keyboard: opts.keyboard,
      user: opts.user,
      // What uuldana itself puts on the screen never counts as the agent's limit message.
      delivered: [start.handoff?.composed.text, launch.kickoff].filter((x): x is string => !!x),
      quietMs: ctx.config.quietSeconds * 1000,
      shouldHandOff: (hit) => shouldHandOff(hit),
      checkSwitch: (name) => _switchProblem(ctx, members, adapter.name, name),
      listAgents: () => _agentList(members, adapter.name),
      stallSeconds: cfg.stallSeconds,
    });
  } catch (e) {
    removeScratch();
    throw e;
  }
  // Removed once the agent is gone: it may read its files until it quits.
  run.ended.then(removeScratch, removeScratch);
  let delivery = Promise.resolve();
  if (start.handoff && start.road === "paste") {
    delivery = _pasteWhenReady(opts, run, start.handoff);
  } else if (start.handoff) {
    ctx.journal.updateHandoff(start.handoff.id, { status: "delivered", toRun: run.runId });
    if (launch.kickoff) delivery = _submitKickoff(opts, run, launch.kickoff, adapter.submitKey);
  }
  return { run, delivery };
}

function _pasteTimeoutMs(opts: ChainOptions): number {
  return opts.pasteTimeoutMs ?? opts.ctx.config.pasteTimeoutSeconds * 1000;
}

// Roads whose argv cannot start the turn (OpenCode's store road) get a one-line kickoff typed in.
async function _submitKickoff(
  opts: ChainOptions,
  run: AgentRun,
  kickoff: string,
  submitKey: string,
): Promise<void> {
  let problem: string | null = null;
  try {
    // A TUI still loading can drop a paste (OpenCode while it opens the imported session): the
    // kickoff is sent only once it is visible in the input box.
    const result = await pasteUntilVisible(run, kickoff, {
      timeoutMs: _pasteTimeoutMs(opts),
      probes: [kickoff.slice(0, 40)],
    });
    if (!result.pasted) problem = result.reason;
    else if (!result.visible) problem = "the pasted kickoff never showed in its input box";
    else {
      await run.write(submitKey);
      run.noteInputSubmitted();
    }
  } catch (e) {
    problem = (e as Error)?.message ?? String(e);
  }
  // Once the agent is gone there is no turn to start and nobody to tell.
  if (problem !== null && !run.finished) {
    opts.status(
      `could not start ${run.adapterName}'s turn (${problem}); type "continue" to start it`,
    );
  }
}

async function _pasteWhenReady(
  opts: ChainOptions,
  run: AgentRun,
  handoff: PreparedHandoff,
): Promise<void> {
  const { journal, dataDir } = opts.ctx;
  journal.updateHandoff(handoff.id, { toRun: run.runId });
  let reason: string;
  try {
    const { nonce } = handoff.composed;
    // A TUI still loading drops a paste: it is pasted again until it shows (paste.ts).
    const result = await pasteUntilVisible(run, handoff.composed.text, {
      timeoutMs: _pasteTimeoutMs(opts),
      probes: [openingLine(nonce), closingLine(nonce)],
    });
    if (result.pasted && result.visible) {
      journal.updateHandoff(handoff.id, { status: "pasted", receipt: result.receipt });
      return;
    }
    if (result.pasted) {
      // Written but never seen: the journal and the user are told so, never "pasted".
      journal.updateHandoff(handoff.id, {
        status: "saved",
        receipt: result.receipt,
        error: `the paste never showed in ${run.adapterName}'s input box`,
      });
      if (run.finished) return;
      opts.status(
        `the handoff was pasted ${result.attempts} times but never showed in ${run.adapterName}'s ` +
          `input box; look before you send anything. It is saved in ${
            _saveHandoffMd(dataDir, handoff)
          }`,
      );
      return;
    }
    reason = result.reason;
  } catch (e) {
    reason = `the paste failed: ${(e as Error)?.message ?? e}`;
  }
  journal.updateHandoff(handoff.id, { status: "saved", error: reason });
  if (run.finished) return; // the agent is gone; the handoff file is in the journal
  opts.status(
    `${reason}; nothing was pasted. The handoff is saved in ${_saveHandoffMd(dataDir, handoff)}`,
  );
}

// A copy of the handoff where the user finds it: `handoff.md` in the data directory; when that
// cannot be written yet (a full disk), the handoff's own file, written there when it can be.
function _saveHandoffMd(dataDir: string, handoff: PreparedHandoff): string {
  const saved = join(dataDir, "handoff.md");
  try {
    copyFileSync(handoff.file, saved);
    return saved;
  } catch {
    return handoff.file;
  }
}

function _switchProblem(
  ctx: Context,
  members: _Member[],
  current: string,
  name: string,
): string | null {
  const m = members.find((x) => x.adapter.name === name);
  const adapter = m?.adapter ?? adapterByName(name);
  if (!adapter) return `uuldana: no agent named "${name}"; type /agent to list them`;
  if (name === current) return `uuldana: ${name} is already running`;
  const cfg = agentConfig(ctx.config, name);
  // Outside the chain nothing was looked up yet: a quick PATH check, like findAgent's.
  const installed = m
    ? m.found !== null
    : (cfg.bin ? [cfg.bin] : adapter.binNames).some((b) => whichBinary(b) !== null);
  if (!installed) {
    return `uuldana: ${adapter.displayName} is not installed (${adapter.installHint})`;
  }
  if (m?.disabled ?? cfg.disabled) return `uuldana: ${name} is disabled in your config`;
  return null;
}

function _agentList(members: _Member[], current: string): string {
  const lines = members.map((m) => {
    const state = m.adapter.name === current
      ? "running"
      : m.disabled
      ? "disabled"
      : m.found
      ? "ready"
      : "not installed";
    return `  ${m.adapter.name.padEnd(9)} ${state.padEnd(13)} roads: ${m.adapter.roads.join(", ")}`;
  });
  return `uuldana agents (switch with /agent NAME; the handoff is pasted, you press Enter):\n${
    lines.join("\n")
  }`;
}

async function _manualSwitch(
  opts: ChainOptions,
  members: _Member[],
  from: _Member,
  fromRun: number,
  to: string,
  conversation: TranscriptEntry[],
): Promise<_Start> {
  let target = members.find((m) => m.adapter.name === to);
  if (!target) {
    const adapter = adapterByName(to)!;
    target = { adapter, found: await findAgent(adapter, opts.ctx.config), disabled: false };
    if (!target.found) {
      throw new NotFoundError(
        `${adapter.displayName} (${adapter.name}) is not installed`,
        adapter.installHint,
      );
    }
    members.push(target);
  }
  const handoff = await prepareHandoff({
    journal: opts.ctx.journal,
    dataDir: opts.ctx.dataDir,
    fromRun,
    from: from.adapter.name,
    to,
    road: "paste",
    mode: "manual",
    reason: { kind: "manual" },
    workspace: opts.workspace,
    entries: conversation,
  });
  opts.status(
    handoff
      ? `switching ${from.adapter.name} → ${to} (manual); the handoff will be pasted into ${to}'s input for you to send. Full file: ${handoff.file}`
      : `switching ${from.adapter.name} → ${to} (manual); nobody spoke to ${from.adapter.name}, so ${to} starts clean`,
  );
  return { member: target, handoff, road: handoff ? "paste" : null, extraArgs: [] };
}

/**
 * The next agent to hand a limited run's conversation to, proven to take an opening prompt; when
 * none is left, saves the handoff and waits for the earliest reset (then looks again) or gives up
 * with an exit code.
 */
async function _autoHandoff(
  opts: ChainOptions,
  members: _Member[],
  from: _Member,
  fromRun: number,
  limit: LimitHit,
  conversation: TranscriptEntry[],
  limited: Map<string, string | null>,
  refused: Set<string>,
): Promise<_Start | number> {
  const { ctx } = opts;
  const reason = { kind: "limit" as const, message: limit.message, resetsAt: limit.resetsAt };
  const common = {
    journal: ctx.journal,
    dataDir: ctx.dataDir,
    fromRun,
    from: from.adapter.name,
    mode: "auto" as const,
    reason,
    workspace: opts.workspace,
    entries: conversation,
  };
  for (;;) {
    // An agent that was waited for is proven like any other: a reset does not make it take a prompt.
    for (const member of _rotation(members, from)) {
      const name = member.adapter.name;
      if (member.disabled || !member.found || limited.has(name) || refused.has(name)) continue;
      const road = agentConfig(ctx.config, name).road ?? member.adapter.defaultRoad;
      const proof = await _proof(member, ctx.journal);
      if (!proof.accepted) {
        const saved = await prepareHandoff({
          ...common,
          to: name,
          road,
          refused: `no initial-prompt proof: ${proof.reason ?? "help text did not show it"}`,
        });
        opts.status(
          `${name} cannot be shown to take an opening prompt (${
            proof.reason ?? "unknown"
          }); not guessing.` +
            (saved ? ` Handoff saved: ${saved.file}` : ""),
        );
        refused.add(name);
        continue;
      }
      const handoff = await prepareHandoff({
        ...common,
        to: name,
        road,
        cap: member.adapter.roadCap(road) ?? undefined,
        followUp: CONTINUE_REQUEST,
      });
      opts.status(
        `${from.adapter.name} → ${name}: "${limit.message}". ` +
          (handoff
            ? `Handoff via ${road}: ${handoff.file}`
            : `Nobody spoke to ${from.adapter.name}; ${name} starts clean.`),
      );
      return {
        member,
        handoff,
        road: handoff ? road : null,
        extraArgs: [],
        origin: { from, fromRun, limit },
      };
    }

    // Nothing left to hand to: save the handoff so nothing is lost, then wait or stop.
    const saved = await prepareHandoff({
      ...common,
      to: "(none)",
      road: "paste",
      refused: "every agent of the chain is limited, missing or refused",
    });
    const where = saved ? ` The handoff is saved in ${saved.file}` : "";
    const resets = [...limited.entries()].filter(([, at]) => at).map(([n, at]) =>
      [n, Date.parse(at!)] as const
    )
      .sort((a, b) => a[1] - b[1]);
    if (opts.noWait || resets.length === 0) {
      opts.status(
        `every agent of the chain is limited or unavailable${
          resets.length ? "" : " and no reset time is known"
        }.${where}`,
      );
      return ExitCode.allLimited;
    }
    const [name, at] = resets[0];
    opts.status(
      `every agent is limited; waiting for ${name} to reset at ${
        new Date(at).toISOString()
      } (Ctrl-C to stop).${where}`,
    );
    const waited = await waitForReset(new Date(at), {
      keyboard: opts.keyboard,
      status: opts.status,
      abort: opts.abort,
    });
    if (waited === "stopped") {
      return _signalCode(opts.abort?.aborted ? String(opts.abort.reason) : "SIGINT");
    }
    limited.delete(name);
  }
}

/** The members after `from`, wrapping around, `from` last. */
function _rotation(members: _Member[], from: _Member): _Member[] {
  const i = members.indexOf(from);
  return [...members.slice(i + 1), ...members.slice(0, i + 1)];
}

export type { RunOutcome };
