/**
 * One chain's state in the shell: the options it was started with, its members, what the pure
 * core (`src/chain/decide.ts`) reads to decide (the shared ledger, this run's stalls, the agents
 * refused), the members' proofs, and the one place a handoff's status changes.
 *
 * @module
 */
import type { Road } from "../../config/config.ts";
import type { Context } from "../../context.ts";
import type { TranscriptEntry } from "../../handoff/package.ts";
import type { PreparedHandoff } from "../../handoff/prepare.ts";
import type { AgentRun, UserTerminal } from "../agent_run.ts";
import type { Keyboard } from "../keyboard.ts";
import type { Member } from "../../chain/member.ts";
import type { ChainState } from "../../chain/decide.ts";
import { type HandoffEvent, settleHandoff } from "../../chain/handoff_status.ts";
import { limitSeen, type WorkStop } from "../../chain/reason.ts";
import { type LimitEntry, newLimitEntry, newNearEntry } from "../../chain/limits.ts";
import type { LimitWarning } from "../../../adapters/adapter.ts";
import type { NotifyEvent } from "../../notify/event.ts";
import { Proofs } from "./proofs.ts";

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
export interface Start {
  member: Member;
  handoff: PreparedHandoff | null;
  /** `prompt`-like roads deliver at launch; `paste` after start. */
  road: Road | null;
  extraArgs: string[];
  /** For an automatic handoff: where it came from, to move on if this agent cannot take it. */
  origin?: { from: Member; fromRun: number; stop: WorkStop };
}

/** One chain's state in the shell: what the pure core reads, and what is running. */
export class Chain {
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
  /** The `--help` proofs of the members, each made once. */
  readonly proofs: Proofs;

  constructor(opts: ChainOptions, members: Member[]) {
    this.opts = opts;
    this.members = members;
    this.proofs = new Proofs(opts.ctx.journal);
  }

  get ctx(): Context {
    return this.opts.ctx;
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

  /**
   * Records `member`'s usage warning in run `runId` as near its limit in the ledger; false when
   * nothing new was kept (the same warning again, or a real limit that still holds).
   */
  noteWarning(member: Member, runId: number, warning: LimitWarning): boolean {
    const previous = this.state().limits.get(member.name) ?? null;
    const entry = newNearEntry(warning, {
      agent: member.name,
      runId,
      now: this.now(),
      previous,
    });
    if (!entry) return false;
    this.#seen.set(member.name, entry);
    try {
      this.ctx.journal.addLimit(entry);
    } catch {
      this.#local.set(member.name, entry); // not shared with other runs; this one still knows
    }
    return true;
  }

  /** Records that `member` stopped working in run `runId`: in the ledger, or for a stall here. */
  noteStop(member: Member, runId: number, stop: Exclude<WorkStop, { kind: "warning" }>): void {
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

  /** Tells the user (a notification never stops the chain). */
  notify(event: NotifyEvent): void {
    try {
      this.opts.notify?.(event);
    } catch {
      // a notification never stops the chain
    }
  }

  /**
   * Tells the user that what uuldana had to give running agent `agent` did not reach it (`why`,
   * naming it) and what to do: now as a notification (the agent owns the screen: nothing is
   * written into it) and on the status line, which says it once the agent is gone.
   */
  undelivered(agent: string, why: string, todo: string): void {
    this.notify({ kind: "undelivered", agent, why, todo });
    this.opts.status(`${why}; ${todo}`);
  }

  /** Milliseconds to wait for a pasteable prompt (a paste, a kickoff) before giving up. */
  pasteTimeoutMs(): number {
    return this.opts.pasteTimeoutMs ?? this.ctx.config.pasteTimeoutSeconds * 1000;
  }
}
