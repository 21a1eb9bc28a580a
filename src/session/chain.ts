/**
 * A chain of agent runs in the user's terminal: the first agent runs untouched; on a usage limit
 * (or a stall) the conversation is handed to the next available agent through its road and it
 * starts on it at once; on `/agent NAME` the next agent starts clean and the handoff is pasted into
 * its input box, not sent. Every decision (who starts, who is next, when to wait, when the work may
 * go back, a handoff's status) is made by the pure core in `src/chain/`; this file carries the
 * steps out: launches, pastes, proofs, the journal and the ledger, the user's status lines.
 *
 * @module
 */
import { join } from "node:path";
import { copyFileSync } from "node:fs";
import type { Launch, Proof } from "../../adapters/adapter.ts";
import { materializeLaunch } from "../../adapters/launch_io.ts";
import { RoadError } from "../../adapters/launch_rules.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { findAgent, proveAgent, whichBinary } from "../../adapters/find.ts";
import { shouldHandOff } from "../../adapters/policy.ts";
import { agentConfig, type Road } from "../config/config.ts";
import type { Context } from "../context.ts";
import { ExitCode, NotFoundError } from "../errors.ts";
import type { HandoffReason, TranscriptEntry } from "../handoff/package.ts";
import { AgentRun, type RunOutcome, type UserTerminal } from "./agent_run.ts";
import type { Keyboard } from "./keyboard.ts";
import { type PreparedHandoff, prepareHandoff, runConversation } from "../handoff/prepare.ts";
import { pasteUntilVisible } from "./paste.ts";
import { closingLine, CONTINUE_REQUEST, openingLine } from "../handoff/frame.ts";
import { waitForReset } from "./reset_wait.ts";
import { signalExitCode } from "../pty/signals.ts";
import {
  chainAdapters,
  chainNames,
  type Member,
  roadOf,
  unknownAgentError,
  usable,
} from "../chain/member.ts";
import {
  availableAgainLine,
  type ChainState,
  firstStep,
  nextStep,
  returnCheck,
} from "../chain/decide.ts";
import { type HandoffEvent, settleHandoff } from "../chain/handoff_status.ts";
import { handoffReason, limitSeen, stopMessage, type WorkStop } from "../chain/reason.ts";
import { availableAt, clock, isLimited, type LimitEntry, newLimitEntry } from "../chain/limits.ts";
import type { NotifyEvent } from "../notify/event.ts";
import { newScratchDir, removeScratchDir } from "./scratch.ts";

/** What a chain needs from the outside world. */
export interface ChainOptions {
  ctx: Context;
  /** The agent to start with (null: the first available agent of the chain). */
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
  /** Tells the user about a switch, a wait or a return while they may not be looking. */
  notify?(event: NotifyEvent): void;
  /** Called with each run once it started (SIGWINCH and signal handling, the demo). */
  onRun?(run: AgentRun | null): void;
  /** Milliseconds to wait for a pasteable prompt before saving the handoff instead. */
  pasteTimeoutMs?: number;
  /** Stops the chain while it waits for a reset (Ctrl-C). */
  abort?: AbortSignal;
  /** Start the first agent on this saved handoff (`uuldana handoff`), with its conversation. */
  initial?: { handoff: PreparedHandoff; road: Road; conversation: TranscriptEntry[] };
}

/** What the next run starts with. */
interface _Start {
  member: Member;
  handoff: PreparedHandoff | null;
  /** `prompt`-like roads deliver at launch; `paste` after start. */
  road: Road | null;
  extraArgs: string[];
  /** For an automatic handoff: where it came from, to move on if this agent cannot take it. */
  origin?: { from: Member; fromRun: number; stop: WorkStop };
}

/** One chain's state in the shell: what the pure core reads, and what is running. */
class _Chain {
  readonly opts: ChainOptions;
  readonly members: Member[];
  /** Agents whose road or proof could not carry a handoff in this run. */
  readonly refused = new Set<string>();
  /** This run's stalls, and limits the ledger could not take: kept here, for this run. */
  readonly #local = new Map<string, LimitEntry>();
  /** Every limit this run saw: what it decides on if the shared ledger cannot be read. */
  readonly #seen = new Map<string, LimitEntry>();
  /** Processes and deliveries to wait for before the chain returns. */
  readonly stopping: Promise<unknown>[] = [];
  /** The `--help` proofs, started in the background so a switch does not wait for them. */
  readonly #proofs = new Map<string, Promise<Proof>>();

  constructor(opts: ChainOptions, members: Member[]) {
    this.opts = opts;
    this.members = members;
  }

  get ctx(): Context {
    return this.opts.ctx;
  }

  async proof(member: Member): Promise<Proof> {
    let p = this.#proofs.get(member.name);
    if (!p) {
      p = proveAgent(member.adapter, member.found!, this.ctx.journal);
      this.#proofs.set(member.name, p);
    }
    const proof = await p;
    if (!proof.inconclusive) return proof;
    // A probe that timed out proved nothing either way (a slow start): it is not kept, probe again.
    p = proveAgent(member.adapter, member.found!, this.ctx.journal);
    this.#proofs.set(member.name, p);
    return p;
  }

  /** The time now (Date.now, which tests may move). */
  now(): Date {
    return new Date(Date.now());
  }

  /** What the core decides on: the ledger as every uuldana sees it now, this run's stalls. */
  state(): ChainState {
    let limits: Map<string, LimitEntry>;
    try {
      limits = this.ctx.journal.latestLimits();
    } catch {
      // Unreadable: this run still knows what it saw itself (no restart loop on a limited agent).
      limits = new Map(this.#seen);
    }
    for (const [name, own] of this.#local) {
      const shared = limits.get(name);
      if (!shared || Date.parse(shared.seenAt) < Date.parse(own.seenAt)) limits.set(name, own);
    }
    return { members: this.members, limits, refused: this.refused, now: this.now() };
  }

  /** Records that `member` stopped working in run `runId`: in the ledger, or for a stall here. */
  noteStop(member: Member, runId: number, stop: WorkStop): void {
    const previous = this.state().limits.get(member.name) ?? null;
    const entry = newLimitEntry(limitSeen(stop), {
      agent: member.name,
      runId,
      now: this.now(),
      previous,
    });
    // A stall is this run's business, not the account's: never in the shared ledger.
    if (stop.kind === "stall") return void this.#local.set(member.name, entry);
    this.#seen.set(member.name, entry);
    try {
      this.ctx.journal.addLimit(entry);
    } catch {
      this.#local.set(member.name, entry); // not shared with other runs; this one still knows
    }
  }

  /** The one place a handoff's status changes. */
  settle(handoff: PreparedHandoff, event: HandoffEvent): void {
    const current = this.ctx.journal.handoff(handoff.id)?.status ?? "pending";
    const change = settleHandoff(current, event);
    if (change) this.ctx.journal.updateHandoff(handoff.id, change);
  }

  notify(event: NotifyEvent): void {
    try {
      this.opts.notify?.(event);
    } catch {
      // a notification never stops the chain
    }
  }
}

/**
 * Runs the chain until an agent exits by itself or nothing can continue; returns the exit code.
 * Returns only when every agent it started is gone and journaled, and every delivery settled.
 */
export async function runChain(opts: ChainOptions): Promise<number> {
  const chain = new _Chain(opts, await _resolveMembers(opts));
  try {
    return await _runChain(chain);
  } finally {
    await Promise.allSettled(chain.stopping);
  }
}

async function _runChain(chain: _Chain): Promise<number> {
  const { opts, ctx } = chain;
  let conversation: TranscriptEntry[] = opts.initial?.conversation ?? [];
  const first = await _firstStart(chain);
  if (typeof first === "number") return first;
  // `uuldana handoff`: the named agent starts on the saved handoff.
  const initial = opts.initial ? { handoff: opts.initial.handoff, road: opts.initial.road } : {};
  let start: _Start = { ...first, ...initial, extraArgs: opts.extraArgs };

  for (;;) {
    const { member } = start;
    // A signal that came while no agent ran (a switch, a wait) had no run to stop: start no other.
    if (opts.abort?.aborted) {
      if (start.handoff) chain.settle(start.handoff, { kind: "interrupted" });
      return signalExitCode(String(opts.abort.reason));
    }
    let launched: { run: AgentRun; delivery: Promise<void> };
    try {
      launched = await _launch(chain, start);
    } catch (e) {
      if (!start.handoff) throw e;
      if (!(e instanceof RoadError)) {
        chain.settle(start.handoff, {
          kind: "start-failed",
          agent: member.name,
          reason: (e as Error)?.message ?? String(e),
        });
        throw e;
      }
      // The road cannot carry this handoff (too long for argv, a failed import…): never guess.
      chain.settle(start.handoff, {
        kind: "road-refused",
        reason: `${e.message}${e.hint ? ` (${e.hint})` : ""}`,
      });
      opts.status(
        `${member.name} cannot take this handoff: ${e.message}. Saved: ${start.handoff.file}`,
      );
      chain.refused.add(member.name);
      const origin = start.origin;
      if (!origin) throw e;
      const next = await _afterStop(chain, origin.from, origin.fromRun, origin.stop, conversation);
      if (typeof next === "number") return next;
      start = next;
      continue;
    }
    const { run } = launched;
    chain.stopping.push(run.ended, launched.delivery);
    opts.onRun?.(run);
    // A signal or a resize while the agent was being started reached no run.
    if (opts.abort?.aborted) run.stop(String(opts.abort.reason));
    else _followSize(opts, run);
    // While the agent works, prove the others take an opening prompt: a switch then waits for none.
    for (const m of chain.members) {
      if (usable(m) && m !== member) chain.proof(m).catch(() => {});
    }
    const stopWatching = _watchForReturn(chain, run, member);
    const outcome = await run.outcome;
    stopWatching();
    opts.onRun?.(null);
    // The journal has the limit only once the run has ended; the screen is cut at it now.
    const limitMessage = outcome.reason === "limit" ? outcome.limit.message : undefined;
    conversation = [...conversation, ...runConversation(ctx.journal, run.runId, limitMessage)];

    const next = await _afterRun(chain, member, run.runId, outcome, conversation);
    if (typeof next === "number") return next;
    start = next;
  }
}

/** What follows a run's outcome: an exit code, or the next start. */
function _afterRun(
  chain: _Chain,
  member: Member,
  runId: number,
  outcome: RunOutcome,
  conversation: TranscriptEntry[],
): Promise<_Start | number> | number {
  switch (outcome.reason) {
    case "exit":
      return outcome.exitCode;
    case "stopped":
      return signalExitCode(outcome.signal);
    case "switch":
      return _manualSwitch(chain, member, runId, outcome.to, conversation);
    case "return":
      return _handBack(chain, member, runId, outcome.to, conversation);
    case "limit":
    case "stall": {
      const stop: WorkStop = outcome.reason === "limit"
        ? { kind: "limit", limit: outcome.limit }
        : { kind: "stall", message: outcome.message };
      chain.noteStop(member, runId, stop);
      return _afterStop(chain, member, runId, stop, conversation);
    }
  }
}

/** Gives a new run the terminal's size now: a resize while it was starting reached no pty. */
function _followSize(opts: ChainOptions, run: AgentRun): void {
  const { cols, rows } = opts.size();
  if (cols !== run.vt.cols || rows !== run.vt.rows) run.resize(cols, rows);
}

async function _resolveMembers(opts: ChainOptions): Promise<Member[]> {
  const { config } = opts.ctx;
  const adapters = chainAdapters(chainNames(config.chain, opts.first, opts.then), adapterByName);
  // Each lookup asks the binary for its version: all at once, so the first agent starts sooner.
  return await Promise.all(adapters.map(async (adapter) => ({
    name: adapter.name,
    adapter,
    found: await findAgent(adapter, config),
    config: agentConfig(config, adapter.name),
  })));
}

/** The first agent to start: the core's choice, said in one line when it passed agents over. */
async function _firstStart(
  chain: _Chain,
): Promise<Omit<_Start, "extraArgs"> | number> {
  const { opts, members } = chain;
  for (;;) {
    const step = firstStep(chain.state(), opts.first !== null);
    if (step.kind === "none") {
      const m = members[0];
      if (opts.first) {
        throw new NotFoundError(
          `${m.adapter.displayName} (${m.name}) is not installed`,
          m.adapter.installHint,
        );
      }
      const hints = members.map((x) => `  ${x.name}: ${x.adapter.installHint}`).join("\n");
      throw new NotFoundError(
        `no agent of your chain is installed (${members.map((x) => x.name).join(", ")})`,
        `install one:\n${hints}`,
      );
    }
    if (step.kind === "start") {
      if (step.notes.length) {
        opts.status(
          opts.first
            ? step.notes.join("; ")
            : `${step.notes.join("; ")}; starting ${step.member.name}`,
        );
      }
      return { member: step.member, handoff: null, road: null };
    }
    const waited = await _wait(chain, step.member, step.at, step.notes, "");
    if (typeof waited === "number") return waited;
  }
}

/**
 * Waits for `member`'s reset at `at` (or, with `--no-wait`, exits 3); null when the reset came.
 */
async function _wait(
  chain: _Chain,
  member: Member,
  at: Date,
  notes: string[],
  where: string,
): Promise<number | null> {
  const { opts } = chain;
  const why = notes.length ? ` (${notes.join("; ")})` : "";
  if (opts.noWait) {
    opts.status(`every agent of the chain is limited or unavailable${why}.${where}`);
    return ExitCode.allLimited;
  }
  opts.status(
    `every agent is limited; waiting for ${member.name} to reset at ${
      clock(at, chain.now())
    } (${at.toISOString()}; Ctrl-C to stop).${where}`,
  );
  chain.notify({ kind: "wait", agent: member.name, until: at.toISOString() });
  const waited = await waitForReset(at, {
    keyboard: opts.keyboard,
    status: opts.status,
    abort: opts.abort,
  });
  if (waited === "stopped") {
    return signalExitCode(opts.abort?.aborted ? String(opts.abort.reason) : "SIGINT");
  }
  return null;
}

/** Starts the run and, in the background, what it still has to receive (a paste, a kickoff). */
async function _launch(
  chain: _Chain,
  start: _Start,
): Promise<{ run: AgentRun; delivery: Promise<void> }> {
  const { opts, ctx } = chain;
  const { adapter, found, config: cfg } = start.member;
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
      env: cfg.env,
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
      checkSwitch: (name) => _switchProblem(chain, adapter.name, name),
      listAgents: () => _agentList(chain, adapter.name),
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
    chain.settle(start.handoff, { kind: "awaiting-paste", toRun: run.runId });
    delivery = _pasteWhenReady(chain, run, start.handoff);
  } else if (start.handoff) {
    chain.settle(start.handoff, { kind: "launched", toRun: run.runId });
    if (launch.kickoff) delivery = _submitKickoff(chain, run, launch.kickoff, adapter.submitKey);
  }
  return { run, delivery };
}

function _pasteTimeoutMs(opts: ChainOptions): number {
  return opts.pasteTimeoutMs ?? opts.ctx.config.pasteTimeoutSeconds * 1000;
}

// Roads whose argv cannot start the turn (OpenCode's store road) get a one-line kickoff typed in.
async function _submitKickoff(
  chain: _Chain,
  run: AgentRun,
  kickoff: string,
  submitKey: string,
): Promise<void> {
  let problem: string | null = null;
  try {
    // A TUI still loading can drop a paste (OpenCode while it opens the imported session): the
    // kickoff is sent only once it is visible in the input box.
    const result = await pasteUntilVisible(run, kickoff, {
      timeoutMs: _pasteTimeoutMs(chain.opts),
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
    chain.opts.status(
      `could not start ${run.adapterName}'s turn (${problem}); type "continue" to start it`,
    );
  }
}

async function _pasteWhenReady(
  chain: _Chain,
  run: AgentRun,
  handoff: PreparedHandoff,
): Promise<void> {
  const { dataDir } = chain.ctx;
  let reason: string;
  try {
    const { nonce } = handoff.composed;
    // A TUI still loading drops a paste: it is pasted again until it shows (paste.ts).
    const result = await pasteUntilVisible(run, handoff.composed.text, {
      timeoutMs: _pasteTimeoutMs(chain.opts),
      probes: [openingLine(nonce), closingLine(nonce)],
    });
    if (result.pasted && result.visible) {
      chain.settle(handoff, { kind: "pasted", receipt: result.receipt });
      return;
    }
    if (result.pasted) {
      // Written but never seen: the journal and the user are told so, never "pasted".
      chain.settle(handoff, {
        kind: "not-seen",
        receipt: result.receipt,
        reason: `the paste never showed in ${run.adapterName}'s input box`,
      });
      if (run.finished) return;
      chain.opts.status(
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
  chain.settle(handoff, { kind: "not-pasted", reason });
  if (run.finished) return; // the agent is gone; the handoff file is in the journal
  chain.opts.status(
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

function _switchProblem(chain: _Chain, current: string, name: string): string | null {
  const m = chain.members.find((x) => x.name === name);
  const adapter = m?.adapter ?? adapterByName(name);
  if (!adapter) return `uuldana: ${unknownAgentError(name).message}; type /agent to list them`;
  if (name === current) return `uuldana: ${name} is already running`;
  const cfg = m?.config ?? agentConfig(chain.ctx.config, name);
  // Outside the chain nothing was looked up yet: a quick PATH check, like findAgent's.
  const installed = m
    ? m.found !== null
    : (cfg.bin ? [cfg.bin] : adapter.binNames).some((b) => whichBinary(b) !== null);
  if (!installed) {
    return `uuldana: ${adapter.displayName} is not installed (${adapter.installHint})`;
  }
  if (cfg.disabled) return `uuldana: ${name} is disabled in your config`;
  return null;
}

function _agentList(chain: _Chain, current: string): string {
  const { limits, now } = chain.state();
  const lines = chain.members.map((m) => {
    const limit = limits.get(m.name);
    const state = m.name === current
      ? "running"
      : m.config.disabled
      ? "disabled"
      : !m.found
      ? "not installed"
      : isLimited(limit, now)
      ? `limited until ${clock(availableAt(limit!), now)}`
      : "ready";
    return `  ${m.name.padEnd(9)} ${state.padEnd(21)} roads: ${m.adapter.roads.join(", ")}`;
  });
  return `uuldana agents (switch with /agent NAME; the handoff is pasted, you press Enter):\n${
    lines.join("\n")
  }`;
}

async function _manualSwitch(
  chain: _Chain,
  from: Member,
  fromRun: number,
  to: string,
  conversation: TranscriptEntry[],
): Promise<_Start> {
  const { opts, ctx } = chain;
  let target = chain.members.find((m) => m.name === to);
  if (!target) {
    const adapter = adapterByName(to)!;
    target = {
      name: adapter.name,
      adapter,
      found: await findAgent(adapter, ctx.config),
      config: agentConfig(ctx.config, adapter.name),
    };
    if (!target.found) {
      throw new NotFoundError(
        `${adapter.displayName} (${adapter.name}) is not installed`,
        adapter.installHint,
      );
    }
    chain.members.push(target);
  }
  const handoff = await prepareHandoff({
    journal: ctx.journal,
    dataDir: ctx.dataDir,
    fromRun,
    from: from.name,
    to,
    road: "paste",
    mode: "manual",
    reason: { kind: "manual" },
    workspace: opts.workspace,
    entries: conversation,
  });
  opts.status(
    handoff
      ? `switching ${from.name} → ${to} (manual); the handoff will be pasted into ${to}'s input for you to send. Full file: ${handoff.file}`
      : `switching ${from.name} → ${to} (manual); nobody spoke to ${from.name}, so ${to} starts clean`,
  );
  return { member: target, handoff, road: handoff ? "paste" : null, extraArgs: [] };
}

/** Saves an automatic handoff to `to` on its road (or refused with `refused`). */
function _prepareAuto(
  chain: _Chain,
  from: Member,
  fromRun: number,
  reason: HandoffReason,
  conversation: TranscriptEntry[],
  to: { name: string; road: Road; cap?: number; refused?: string },
): Promise<PreparedHandoff | null> {
  return prepareHandoff({
    journal: chain.ctx.journal,
    dataDir: chain.ctx.dataDir,
    fromRun,
    from: from.name,
    to: to.name,
    road: to.road,
    mode: "auto",
    reason,
    workspace: chain.opts.workspace,
    entries: conversation,
    ...(to.refused ? { refused: to.refused } : { cap: to.cap, followUp: CONTINUE_REQUEST }),
  });
}

/**
 * Whether `member` proves it takes an opening prompt; when not, the handoff is saved as refused,
 * the user told, and the member refused for the rest of the run.
 */
async function _proven(
  chain: _Chain,
  member: Member,
  saveRefused: (why: string) => Promise<PreparedHandoff | null>,
): Promise<boolean> {
  const proof = await chain.proof(member);
  if (proof.accepted) return true;
  const saved = await saveRefused(
    `no initial-prompt proof: ${proof.reason ?? "help text did not show it"}`,
  );
  chain.opts.status(
    `${member.name} cannot be shown to take an opening prompt (${
      proof.reason ?? "unknown"
    }); not guessing.` + (saved ? ` Handoff saved: ${saved.file}` : ""),
  );
  chain.refused.add(member.name);
  return false;
}

/**
 * After `from` stopped working (a limit, a stall, a refused road): the next agent the core names,
 * proven to take an opening prompt; when every agent is limited, the handoff is saved and uuldana
 * waits for the earliest reset (then decides again) or gives up with an exit code.
 */
async function _afterStop(
  chain: _Chain,
  from: Member,
  fromRun: number,
  stop: WorkStop,
  conversation: TranscriptEntry[],
): Promise<_Start | number> {
  const { opts } = chain;
  const reason = handoffReason(stop);
  const prepare = (to: Parameters<typeof _prepareAuto>[5]) =>
    _prepareAuto(chain, from, fromRun, reason, conversation, to);
  for (;;) {
    const step = nextStep(chain.state(), from, "wrap");
    if (step.kind === "start") {
      const { member, road } = step;
      // An agent that was waited for is proven like any other: a reset does not make it take a prompt.
      if (
        !await _proven(chain, member, (refused) => prepare({ name: member.name, road, refused }))
      ) {
        continue;
      }
      const handoff = await prepare({
        name: member.name,
        road,
        cap: member.adapter.roadCap(road) ?? undefined,
      });
      opts.status(
        `${from.name} → ${member.name}: "${stopMessage(stop)}". ` +
          (handoff
            ? `Handoff via ${road}: ${handoff.file}`
            : `Nobody spoke to ${from.name}; ${member.name} starts clean.`),
      );
      chain.notify({ kind: "switch", from: from.name, to: member.name, why: stopMessage(stop) });
      return {
        member,
        handoff,
        road: handoff ? road : null,
        extraArgs: [],
        origin: { from, fromRun, stop },
      };
    }
    // Nothing left to hand to: save the handoff so nothing is lost, then wait or stop.
    const saved = await prepare({
      name: "(none)",
      road: "paste",
      refused: "every agent of the chain is limited, missing or refused",
    });
    const where = saved ? ` The handoff is saved in ${saved.file}` : "";
    if (step.kind === "none") {
      opts.status(
        `every agent of the chain is limited or unavailable and no reset time is known.${where}`,
      );
      return ExitCode.allLimited;
    }
    const waited = await _wait(chain, step.member, step.at, [], where);
    if (waited !== null) return waited;
  }
}

/**
 * While a later agent works and the chain's first agent is limited: once the ledger shows the
 * first one available again, tell the user; with `returnToFirst`, hand the work back at the next
 * moment the working agent is quiet and its input box empty. Returns a function that stops it.
 */
function _watchForReturn(chain: _Chain, run: AgentRun, current: Member): () => void {
  const initial = returnCheck(chain.state(), current);
  if (initial.kind !== "later") return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const look = () => {
    if (stopped || run.finished) return;
    const check = returnCheck(chain.state(), current);
    if (check.kind === "no") return;
    if (check.kind === "later") {
      // Looked at again at its reset, and every few seconds (another uuldana may clear it): one
      // small read of the ledger.
      const wait = Math.min(Math.max(check.at.getTime() - Date.now(), 200), 5_000);
      timer = setTimeout(look, wait);
      return;
    }
    const back = chain.ctx.config.returnToFirst;
    chain.opts.status(availableAgainLine(check.to, back));
    chain.notify({ kind: "available", agent: check.to.name });
    if (back) _returnWhenIdle(chain, run, check.to).catch(() => {});
  };
  timer = setTimeout(look, 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Hands the work back to `to` once the run is quiet with an empty input box (and `to` proven). */
async function _returnWhenIdle(chain: _Chain, run: AgentRun, to: Member): Promise<void> {
  if (!(await chain.proof(to)).accepted) return;
  while (!run.finished) {
    if (await run.waitUntil(() => run.isQuiet() && run.inputEmpty, 60_000)) {
      run.returnTo(to.name);
      return;
    }
  }
}

/** The work goes back to `to`, available again: an automatic handoff on its road and frame. */
async function _handBack(
  chain: _Chain,
  from: Member,
  fromRun: number,
  to: string,
  conversation: TranscriptEntry[],
): Promise<_Start | number> {
  const member = chain.members.find((m) => m.name === to)!;
  const road = roadOf(member);
  const handoff = await _prepareAuto(chain, from, fromRun, { kind: "return" }, conversation, {
    name: to,
    road,
    cap: member.adapter.roadCap(road) ?? undefined,
  });
  chain.opts.status(
    `${from.name} → ${to}: ${to} is available again. ` +
      (handoff ? `Handoff via ${road}: ${handoff.file}` : `Nobody spoke to ${from.name}.`),
  );
  chain.notify({ kind: "return", from: from.name, to });
  return { member, handoff, road: handoff ? road : null, extraArgs: [] };
}

export type { RunOutcome };
