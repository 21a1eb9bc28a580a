/**
 * The headless chain behind `uuldana exec`: run the task on the first available agent through its
 * structured mode, record its messages in the journal as they arrive, and on a usage limit (or a
 * stall, when asked) hand the conversation to the next agent through the same composer as the
 * terminal transport — saved (file + journal row) before the next agent starts.
 *
 * @module
 */
import type { Found } from "../../adapters/adapter.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { findAgent } from "../../adapters/find.ts";
import type { HeadlessAdapter, HeadlessEvent } from "../../adapters/headless/event.ts";
import { launchFits, MAX_ARG_BYTES } from "../../adapters/headless/event.ts";
import { headlessAdapter } from "../../adapters/headless/registry.ts";
import { headlessHandoffInArgv } from "../../adapters/argv_exposure.ts";
import { resumeFlagIn } from "../../adapters/launch_rules.ts";
import type { Context } from "../context.ts";
import { ExitCode, NotFoundError, UsageError } from "../errors.ts";
import type { TranscriptEntry } from "../handoff/package.ts";
import type { EndReason } from "../journal/journal.ts";
import { prepareHandoff } from "../handoff/prepare.ts";
import { headCommit } from "../handoff/workspace.ts";
import { RUN_ACTIONS_MAX } from "../session/run_channel.ts";
import { CONTINUE_HEADLESS } from "../handoff/frame.ts";
import { formatDuration } from "./duration.ts";
import { type HeadlessRunOutcome, runAgent } from "./run_agent.ts";
import { openExecChannel } from "./exec_channel.ts";
import type { ExecRunSummary, ExecStatus, ExecSummary } from "./summary.ts";
import { chainNames, chainProfiles, type Member } from "../chain/member.ts";
import { profileByName } from "../chain/profile.ts";
import { checkLaunchable, launchEnv, locateConfig } from "../config/profile_check.ts";
import { rotation } from "../chain/rotation.ts";
import { isLimited, limitedReason, type LimitEntry, newLimitEntry } from "../chain/limits.ts";
import { handoffReason, limitSeen, stopMessage, type WorkStop } from "../chain/reason.ts";
import { settleHandoff } from "../chain/handoff_status.ts";
import { signalExitCode } from "../pty/signals.ts";
import type { NotifyEvent } from "../notify/event.ts";

/** Input to `execTask`. */
export interface ExecOptions {
  ctx: Context;
  /** The task: the first agent's prompt and the objective of every handoff. */
  task: string;
  /** The agents to try, in order; null: the configured chain. */
  agents: string[] | null;
  /** Most handoffs allowed (default: unbounded, each agent runs at most once). */
  maxHandoffs: number;
  /** The whole task's time budget in ms, or null. */
  timeoutMs: number | null;
  /** An agent silent this long (ms) is stopped as stalled; null: never. */
  stallMs: number | null;
  /** Hand a stalled agent's work to the next agent instead of failing. */
  handoffOnStall: boolean;
  /** The workspace the agents run in. */
  cwd: string;
  /** One progress line (stderr). */
  progress(line: string): void;
  /** Aborting stops the running agent and the chain (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** Tells the user about each automatic handoff (the configured `notify` command). */
  notify?(event: NotifyEvent): void;
}

/** A chain member that can run headless: installed, with a structured (JSON) mode. */
interface _Member extends Member {
  headless: HeadlessAdapter;
  found: Found;
}

/** Runs the task along the chain and returns the summary (never throws for agent failures). */
export async function execTask(opts: ExecOptions): Promise<ExecSummary> {
  const { ctx } = opts;
  const summary: ExecSummary = {
    status: "failed",
    exitCode: ExitCode.failure,
    agent: null,
    finalText: "",
    runs: [],
    handoffs: [],
    skipped: [],
  };
  // Each agent of the chain at most once, in order.
  const names = rotation(_chainNames(opts), null, "once");
  const deadline = opts.timeoutMs === null ? null : Date.now() + opts.timeoutMs;
  const conversation: TranscriptEntry[] = [
    { role: "user", text: opts.task, fidelity: "event", at: new Date().toISOString() },
  ];
  let cursor = 0;
  let limitedAtStart = 0;
  const nextMember = async (prompt: string): Promise<_Member | null> => {
    while (cursor < names.length) {
      const name = names[cursor++];
      const member = await _member(opts, name, prompt, summary);
      if (member === "limited") {
        limitedAtStart++;
        continue;
      }
      if (member) return member;
    }
    return null;
  };

  let prompt = opts.task;
  let member = await nextMember(prompt);
  if (!member && limitedAtStart > 0) {
    // Installed agents exist, but the ledger shows them limited: that is exit 3, not "install one".
    opts.progress(
      `every agent that could run is limited (see \`uuldana limits\`): ${
        summary.skipped.map((s) => `${s.agent} ${s.reason}`).join("; ")
      }`,
    );
    return _end(summary, "limited", ExitCode.allLimited);
  }
  if (!member) {
    throw new NotFoundError(
      `no agent to run: ${summary.skipped.map((s) => `${s.agent} (${s.reason})`).join(", ")}`,
      "install one of them, or name installed agents with --agents",
    );
  }
  let pendingHandoff: string | null = null;
  while (member) {
    const isFirst = summary.runs.length === 0;
    const run = await _runOne(opts, member, prompt, deadline, isFirst, pendingHandoff);
    summary.runs.push(run.summary);
    if (pendingHandoff !== null) {
      const h = summary.handoffs.at(-1)!;
      h.toRun = run.summary.id;
    }
    conversation.push(...run.messages);
    const outcome = run.outcome;

    if (run.summary.endReason === "exit" && run.summary.error === null) {
      summary.status = "ok";
      summary.exitCode = ExitCode.ok;
      summary.agent = member.name;
      summary.finalText = outcome.finalText;
      opts.progress(`${member.name} finished`);
      return summary;
    }
    if (outcome.stoppedFor === "abort") {
      return _end(summary, "interrupted", signalExitCode(String(opts.signal?.reason ?? "SIGINT")));
    }
    if (outcome.stoppedFor === "timeout") {
      opts.progress(`the task timed out after ${formatDuration(opts.timeoutMs!)}`);
      return _end(summary, "timeout", ExitCode.failure);
    }
    const handOver = run.summary.endReason === "limit" ||
      (run.summary.endReason === "stall" && opts.handoffOnStall);
    if (!handOver) {
      opts.progress(`${member.name} failed: ${run.summary.error}`);
      return _end(summary, "failed", ExitCode.failure);
    }
    if (summary.handoffs.length >= opts.maxHandoffs) {
      opts.progress(`not handing off again (--max-handoffs ${opts.maxHandoffs})`);
      return _endChain(summary);
    }
    const stop: WorkStop = run.summary.endReason === "limit"
      ? {
        kind: "limit",
        limit: {
          kind: "usage",
          message: run.summary.limitMessage ?? "usage limit",
          resetsAt: run.summary.resetsAt,
        },
      }
      : { kind: "stall", message: run.summary.error ?? "the agent stalled" };
    _noteLimit(opts, member.name, run.summary.id, stop);
    const reason = handoffReason(stop);
    const from = member;
    member = await nextMember("");
    if (!member) {
      opts.progress(`no agent left to hand off to`);
      return _endChain(summary);
    }
    // Saved (file + journal row) before the next agent starts.
    const prepared = await prepareHandoff({
      journal: ctx.journal,
      dataDir: ctx.dataDir,
      fromRun: run.summary.id,
      from: from.name,
      to: member.name,
      road: "prompt",
      mode: "auto",
      reason,
      workspace: opts.cwd,
      entries: conversation,
      followUp: CONTINUE_HEADLESS,
    });
    if (!prepared) {
      // Nobody spoke (an empty task): the next agent gets the task as it was.
      pendingHandoff = null;
      prompt = opts.task;
      continue;
    }
    prompt = prepared.composed.text;
    pendingHandoff = prepared.id;
    summary.handoffs.push({
      id: prepared.id,
      from: from.name,
      to: member.name,
      fromRun: run.summary.id,
      toRun: null,
      characters: prepared.composed.characters,
      omitted: prepared.composed.omitted,
      redactions: prepared.composed.redactions,
      file: prepared.file,
    });
    opts.notify?.({ kind: "switch", from: from.name, to: member.name, why: stopMessage(stop) });
    opts.progress(
      `handing off from ${from.name} to ${member.name} ` +
        `(handoff ${prepared.id}, ${prepared.composed.characters} characters` +
        `${
          prepared.composed.omitted ? `, ${prepared.composed.omitted} older entries omitted` : ""
        })`,
    );
    const args = member.config.args;
    if (!launchFits(member.headless.launch(member.found.path, prompt, args, true))) {
      // Cannot happen with the composer's 20,000-code-point cap; kept as a guard.
      throw new UsageError(`the handoff for ${member.name} exceeds ${MAX_ARG_BYTES} bytes`);
    }
  }
  return _endChain(summary);
}

function _end(summary: ExecSummary, status: ExecStatus, exitCode: number): ExecSummary {
  summary.status = status;
  summary.exitCode = exitCode;
  return summary;
}

// The chain stopped without an answer: exit 3 when every run ended on a usage limit.
function _endChain(summary: ExecSummary): ExecSummary {
  const allLimited = summary.runs.length > 0 && summary.runs.every((r) => r.endReason === "limit");
  return allLimited
    ? _end(summary, "limited", ExitCode.allLimited)
    : _end(summary, "failed", ExitCode.failure);
}

// The chain's member names (agents or profiles), each checked before anything starts.
function _chainNames(opts: ExecOptions): string[] {
  const { config } = opts.ctx;
  const names = chainNames(opts.agents ?? config.chain, null, null);
  const profiles = chainProfiles(names, (n) => profileByName(config, n, adapterByName));
  for (const p of profiles) checkLaunchable(p, config);
  return profiles.map((p) => p.name);
}

/** Each agent's latest limit in the shared ledger (none when it cannot be read). */
function _limits(opts: ExecOptions): Map<string, LimitEntry> {
  try {
    return opts.ctx.journal.latestLimits();
  } catch {
    return new Map();
  }
}

/** Records a usage limit in the shared ledger (a stall is not an account's limit: never). */
function _noteLimit(opts: ExecOptions, agent: string, runId: number, stop: WorkStop): void {
  if (stop.kind !== "limit") return;
  const now = new Date(Date.now());
  const entry = newLimitEntry(limitSeen(stop), {
    agent,
    runId,
    now,
    previous: _limits(opts).get(agent) ?? null,
  });
  try {
    opts.ctx.journal.addLimit(entry);
  } catch {
    // the ledger is a help for later runs; this one goes on without it
  }
}

// Resolves one chain member, or records (and says) why it is skipped; "limited" when the ledger
// shows it limited.
async function _member(
  opts: ExecOptions,
  name: string,
  firstPrompt: string,
  summary: ExecSummary,
): Promise<_Member | "limited" | null> {
  const skip = (reason: string) => {
    summary.skipped.push({ agent: name, reason });
    opts.progress(`skipping ${name}: ${reason}`);
    return null;
  };
  const profile = profileByName(opts.ctx.config, name, adapterByName)!;
  const { adapter, config: conf } = profile;
  const headless = headlessAdapter(adapter.name);
  if (!headless) return skip("it has no structured (JSON) mode");
  if (conf.disabled) return skip("disabled in the config");
  const now = new Date(Date.now());
  const limit = _limits(opts).get(name);
  if (isLimited(limit, now)) {
    skip(limitedReason(limit!, now));
    return "limited";
  }
  const found = await findAgent(
    adapter,
    opts.ctx.config,
    { journal: opts.ctx.journal },
    locateConfig(profile),
  );
  if (!found) return skip(`not installed (${adapter.installHint})`);
  // A handoff starts a new native session: never one the config's arguments would resume.
  const resume = firstPrompt ? undefined : resumeFlagIn(conf.args, adapter.resumeFlags);
  if (resume) {
    return skip(`its configured arguments hold ${resume}, which would resume an old session`);
  }
  if (!firstPrompt && headlessHandoffInArgv(headless)) {
    return skip(
      "it would take the handoff on its command line, where every local user can read it",
    );
  }
  if (firstPrompt && !launchFits(headless.launch(found.path, firstPrompt, conf.args))) {
    return skip(`the task is longer than one argument may be (${MAX_ARG_BYTES} bytes)`);
  }
  return { name, adapter, headless, found, config: conf };
}

interface _RunResult {
  summary: ExecRunSummary;
  outcome: HeadlessRunOutcome;
  /** Conversation entries this run added. */
  messages: TranscriptEntry[];
}

async function _runOne(
  opts: ExecOptions,
  member: _Member,
  prompt: string,
  deadline: number | null,
  isFirst: boolean,
  handoffId: string | null,
): Promise<_RunResult> {
  const { journal } = opts.ctx;
  const cfg = member.config;
  // A handoff carries the conversation: kept out of argv where the CLI reads stdin.
  const launch = member.headless.launch(member.found.path, prompt, cfg.args, handoffId !== null);
  const started = Date.now();
  const runId = journal.startRun({
    agent: member.adapter.name,
    profile: member.name,
    bin: member.found.path,
    workspace: opts.cwd,
    transport: "headless",
  });
  // The commit the work starts from, for the changes a later handoff shows (never waited for).
  headCommit(opts.cwd).then((sha) => sha && journal.setRunBase(runId, sha)).catch(() => {});
  opts.progress(`running ${member.name} (${member.found.path})`);
  // The handoff row learns its receiving run as soon as that run exists.
  if (isFirst) journal.addEntry(runId, { role: "user", text: prompt, fidelity: "event" });
  if (handoffId) {
    const change = settleHandoff(journal.handoff(handoffId)?.status ?? "pending", {
      kind: "launched",
      toRun: runId,
    });
    if (change) journal.updateHandoff(handoffId, change);
  }

  const messages: TranscriptEntry[] = [];
  let tools = 0;
  let actions = 0;
  let actionsDropped = 0;
  let echoSkipped = false;
  const onEvent = (ev: HeadlessEvent) => {
    switch (ev.kind) {
      case "message": {
        // Some CLIs echo the prompt as a user message; it is already recorded (or is the handoff).
        // Gemini's echo of a prompt on stdin holds the short follow-up after it.
        if (ev.role === "user" && !echoSkipped && ev.text.includes(prompt.trim())) {
          echoSkipped = true;
          return;
        }
        journal.addEntry(runId, { role: ev.role, text: ev.text, fidelity: "event" });
        messages.push({
          role: ev.role,
          text: ev.text,
          fidelity: "event",
          at: new Date().toISOString(),
        });
        return;
      }
      case "tool":
        tools++;
        return;
      case "action":
        // For the handoff's "What was done", up to the bound; the rest are counted.
        if (actions >= RUN_ACTIONS_MAX) {
          if (actionsDropped++ === 0) {
            opts.progress(
              `${member.name} reported more than ${RUN_ACTIONS_MAX} tool calls; ` +
                "the later ones are counted, not kept",
            );
          }
          return;
        }
        actions++;
        journal.addAction(runId, ev.action);
        return;
      case "malformed":
        opts.progress(
          `${member.name}: skipped a malformed line (${ev.reason}): ${_excerpt(ev.line)}`,
        );
        return;
      case "limit":
      case "error":
      case "result":
        return;
    }
  };
  const env = launchEnv(member);
  // Its channel, for this one process: a limit heard at the provider's first answer.
  const channel = await openExecChannel(member.adapter, member.headless, {
    dataDir: opts.ctx.dataDir,
    cwd: opts.cwd,
    extraArgs: cfg.args,
    env,
  });
  if (channel && "off" in channel) opts.progress(`${member.name}'s channel is off: ${channel.off}`);
  else if (channel?.telemetryOff) {
    opts.progress(`${member.name}'s telemetry road is off: ${channel.telemetryOff}`);
  }
  const heard = channel && !("off" in channel) ? channel : null;
  let outcome: HeadlessRunOutcome;
  try {
    outcome = await runAgent({
      agent: member.name,
      launch,
      cwd: opts.cwd,
      env: heard ? { ...env, ...heard.env } : env,
      parser: member.headless.newParser(),
      stallMs: opts.stallMs,
      deadline,
      onEvent,
      signal: opts.signal,
      ...(heard ? { channel: () => heard.take() } : {}),
    });
  } finally {
    await heard?.close();
  }
  const { endReason, error } = _classify(outcome, opts);
  journal.endRun(runId, {
    reason: endReason,
    exitCode: outcome.exitCode,
    limitMessage: outcome.limit?.message ?? null,
    resetsAt: outcome.limit?.resetsAt ?? null,
  });
  if (endReason === "stall") opts.progress(`${member.name} stalled: ${error}`);
  if (endReason === "limit") {
    opts.progress(
      `${member.name} hit a usage limit: ${_excerpt(outcome.limit!.message)}` +
        (outcome.limit!.resetsAt ? ` (resets ${outcome.limit!.resetsAt})` : ""),
    );
  }
  return {
    outcome,
    messages,
    summary: {
      id: runId,
      agent: member.name,
      bin: member.found.path,
      endReason,
      exitCode: outcome.exitCode,
      limitMessage: outcome.limit?.message ?? null,
      resetsAt: outcome.limit?.resetsAt ?? null,
      messages: messages.length,
      tools,
      actions,
      ...(actionsDropped ? { actionsDropped } : {}),
      malformed: outcome.malformed,
      error,
      durationMs: Date.now() - started,
    },
  };
}

// Why a run ended, as the journal records it, and the failure text when it failed.
function _classify(
  o: HeadlessRunOutcome,
  opts: ExecOptions,
): { endReason: EndReason; error: string | null } {
  if (o.spawnError !== null) return { endReason: "error", error: `cannot start: ${o.spawnError}` };
  if (o.stoppedFor === "abort") return { endReason: "signal", error: "interrupted" };
  if (o.stoppedFor === "timeout") return { endReason: "error", error: "the task timed out" };
  if (o.stoppedFor === "limit") return { endReason: "limit", error: null };
  if (o.stoppedFor === "stall") {
    return {
      endReason: "stall",
      error: `no output for ${formatDuration(opts.stallMs ?? 0)} (stalled)`,
    };
  }
  // An explicit successful result wins over a limit reported on the way (e.g. a fallback model).
  if (o.exitCode === 0 && o.resultIsError === false) return { endReason: "exit", error: null };
  if (o.limit) return { endReason: "limit", error: null };
  if (o.exitCode === 0 && o.resultIsError !== true) return { endReason: "exit", error: null };
  const why = o.lastError ?? _lastLine(o.stderrTail) ??
    (o.signal ? `killed by ${o.signal}` : `exit code ${o.exitCode}`);
  return { endReason: o.exitCode === 0 ? "error" : "exit", error: why };
}

function _lastLine(text: string): string | null {
  const lines = text.trim().split(/\r?\n/).filter((l) => l.trim() !== "");
  return lines.length ? lines[lines.length - 1].slice(0, 300) : null;
}

function _excerpt(text: string, max = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? one.slice(0, max - 1) + "…" : one;
}
