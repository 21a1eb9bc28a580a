/**
 * `uuldana debug bundle RUN`: one archive a user can attach to a bug report when detection went
 * wrong (a missed or a false switch): the run's timed recording, its decision log, the run and
 * handoff rows, the effective config, the versions of uuldana and the agents, the OS and the
 * terminal, and what a replay on this machine concluded. Redacted; the conversation only on
 * request. It says what it holds before it writes it.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { existsSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { UuldanaError } from "../errors.ts";
import { openContext } from "../context.ts";
import type { Config } from "../config/config.ts";
import type { HandoffRow, Journal, RunRow } from "../journal/journal.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { findAgent } from "../../adapters/find.ts";
import { Redactor } from "../bundle/redact_bundle.ts";
import { tarArchive, type TarEntry } from "../bundle/tar.ts";
import { ungzip } from "../session/recording_read.ts";
import { compareRunReplay, replayRunRecording, runRecording } from "../session/replay_run.ts";
import { buildInfo } from "./version.ts";
import { runFromArgument } from "./run_arg.ts";

/** One file of a bundle. */
interface _Part {
  name: string;
  what: string;
  data: Uint8Array;
}

const _enc = new TextEncoder();

/** What every bundle holds, and what it holds only with `--with-conversation`: for --help and README.txt. */
const CONTENTS = `A bundle holds:
  recording.cast    the run's timed recording (asciicast v2: \`asciinema play\` shows it,
                    \`uuldana debug detect recording.cast\` replays it). It shows everything the
                    agent drew on its screen, which includes your prompts as the agent echoed
                    them and its replies: read it before you send it.
  decisions.json    what detection concluded and when (seen, waiting, acted on, rejected and
                    why), with byte offsets, and the structured-channel events beside them
  replay.json       what replaying the recording on your machine concluded, and whether it is
                    what the run decided
  run.json          the run's row (agent, binary, workspace path, times, how it ended) and the
                    rows of the handoffs from and to it (status, road, sizes, file paths)
  config.json       the effective config
  environment.json  uuldana's version and commit, the agents' versions, the OS, the terminal
                    (TERM, size), the time zone
Every secret the redactor knows (API keys and tokens, private keys, passwords in key=value
pairs) is replaced everywhere, in the recording byte for byte so its replay keeps its offsets;
every config value whose key names a secret is replaced whole. The text of prompts and replies
the agent's structured channel carried is left out.
Only with --with-conversation: conversation.json (your typed turns and the agent's screen
entries), handoffs/*.md (the handoff texts) and delivered.json (what uuldana put on the agent's
screen), redacted the same way, and the channel's prompts and replies, redacted.`;

/** `uuldana debug bundle`. */
export function debugBundleCommand() {
  return new Command("bundle")
    .description(
      "write one archive to attach to a bug report about a run's detection (a missed or false " +
        "switch): its timed recording, decisions, rows, config and versions, redacted",
    )
    .argument("<run>", "run id from `uuldana runs`, or 'last'")
    .option("-o, --output <file>", "where to write it (default: ./uuldana-bundle-run-N.tar.gz)")
    .option(
      "--with-conversation",
      "also the handoff texts, typed turns and channel prompts/replies (redacted)",
    )
    .option("--dry-run", "only say what it would hold")
    .addHelpText(
      "after",
      `
${CONTENTS}

It is a .tar.gz: \`tar -xzf FILE\` opens it; every part is plain text.

Examples:
  uuldana debug bundle last                       the newest run, next to you as uuldana-bundle-run-N.tar.gz
  uuldana debug bundle 12 --dry-run               what it would hold, nothing written
  uuldana debug bundle 12 --with-conversation -o /tmp/report.tar.gz`,
    )
    .action(async (value, opts) => {
      const { journal, config } = openContext();
      let parts: _Part[];
      let run: RunRow;
      let redactor: Redactor;
      try {
        run = runFromArgument(value, journal);
        redactor = new Redactor(!!opts.withConversation);
        parts = await _parts(journal, config, run, redactor);
      } finally {
        journal.close();
      }
      const file = opts.output ?? `uuldana-bundle-run-${run.id}.tar.gz`;
      const c = redactor.count;
      const lines = [
        `${opts.dryRun ? "would write" : "writing"} ${file}, for run ${run.id} (${run.agent}):`,
        ...parts.map((p) =>
          `  ${p.name.padEnd(18)} ${_size(p.data.length).padStart(8)}  ${p.what}`
        ),
        `redacted: ${c.secrets} secrets; ${c.leftOut} channel prompts/replies left out` +
        (opts.withConversation ? "" : "; no handoff text or typed turns (--with-conversation)"),
        "the recording shows what the agent drew on its screen (your prompts as it echoed them, its " +
        "replies): read it before you send it",
      ];
      console.log(lines.join("\n"));
      if (opts.dryRun) return;
      if (existsSync(file)) {
        throw new UuldanaError(`${file} exists; it is left as it is`, 1, "give another --output");
      }
      const top = `uuldana-bundle-run-${run.id}`;
      const mtime = Math.floor(Date.now() / 1000);
      const entries: TarEntry[] = [
        { name: `${top}/`, mtime },
        ...parts.map((p) => ({ name: `${top}/${p.name}`, data: p.data, mtime })),
      ];
      if (parts.some((p) => p.name.startsWith("handoffs/"))) {
        entries.splice(1, 0, { name: `${top}/handoffs/`, mtime });
      }
      try {
        Deno.writeFileSync(file, gzipSync(tarArchive(entries)), { mode: 0o600, createNew: true });
      } catch (e) {
        throw new UuldanaError(`cannot write ${file}: ${(e as Error).message}`);
      }
      console.log(`wrote ${file}: attach it to your report (see docs/reporting.md)`);
    });
}

async function _parts(
  journal: Journal,
  config: Config,
  run: RunRow,
  redactor: Redactor,
): Promise<_Part[]> {
  const parts: _Part[] = [];
  const json = (name: string, what: string, value: unknown) =>
    parts.push({ name, what, data: _enc.encode(JSON.stringify(value, null, 2) + "\n") });
  const rec = runRecording(journal, run);
  const stored = rec ? journal.output(run.id) : null;
  if (rec && stored) {
    const plain = new TextDecoder().decode(ungzip(stored.data));
    if (rec.recording.format === "cast") {
      parts.push({
        name: "recording.cast",
        what: "the timed recording (the agent's screen), redacted",
        data: _enc.encode(redactor.cast(plain)),
      });
    } else {
      parts.push({
        name: "recording.raw",
        what: "the recording (raw output, before recordings kept time), redacted",
        data: _enc.encode(redactor.shaped(plain)),
      });
      if (stored.timing) {
        parts.push({
          name: "recording.timing",
          what: "its script timing",
          data: _enc.encode(stored.timing),
        });
      }
    }
  }
  const decisions = journal.decisions(run.id).map((d) => redactor.decision(d));
  json("decisions.json", "what detection concluded, when, at which byte", decisions);
  json(
    "replay.json",
    "what a replay of the recording concludes on your machine",
    _replay(rec, redactor),
  );
  const handoffs = _handoffs(journal, run);
  json("run.json", "the run's row and its handoff rows", {
    run: { ...run, limitMessage: run.limitMessage && redactor.text(run.limitMessage) },
    recording: rec
      ? {
        format: rec.recording.format,
        cols: rec.recording.cols,
        rows: rec.recording.rows,
        truncated: rec.recording.truncated,
      }
      : null,
    handoffs: handoffs.map((h) => ({
      ...h,
      error: h.error && redactor.text(h.error),
      receipt: h.receipt && redactor.text(h.receipt),
    })),
  });
  const { path, exists, ...effective } = config;
  json("config.json", "the effective config, secrets replaced", {
    path,
    exists,
    effective: redactor.json(effective),
  });
  json("environment.json", "versions, OS, terminal", await _environment(config, run, redactor));
  if (redactor.conversation) {
    json(
      "conversation.json",
      "your typed turns and the screen entries (redacted)",
      journal.entries(run.id).map((e) => ({ ...e, text: redactor.text(e.text) })),
    );
    json(
      "delivered.json",
      "what uuldana put on the agent's screen (redacted)",
      (stored?.delivered ?? []).map((t) => redactor.text(t)),
    );
    for (const h of handoffs) {
      if (!h.filePath) continue;
      let text: string;
      try {
        text = readFileSync(h.filePath, "utf8");
      } catch {
        continue; // a handoff file the user removed
      }
      parts.push({
        name: `handoffs/${h.id.replace(/[^A-Za-z0-9._-]/g, "_")}.md`,
        what: `the handoff ${h.fromRun === run.id ? "from" : "to"} this run (redacted)`,
        data: _enc.encode(redactor.text(text)),
      });
    }
  }
  parts.unshift({
    name: "README.txt",
    what: "what this bundle holds",
    data: _readme(run, redactor),
  });
  return parts;
}

function _readme(run: RunRow, redactor: Redactor): Uint8Array {
  const c = redactor.count;
  return _enc.encode(
    `uuldana bug-report bundle: run ${run.id} (${run.agent}), started ${run.startedAt}\n` +
      `made ${new Date().toISOString()} by uuldana ${buildInfo().version}\n\n${CONTENTS}\n\n` +
      `This bundle: ${c.secrets} secrets replaced, ${c.leftOut} channel prompts/replies left out, ` +
      `${c.rawEvents} exact-bytes events left out of the recording; ` +
      (c.states
        ? `${c.states} saved detector states left out of it (they hold the screen in a form ` +
          "the redactor cannot read; replay.json was made from them where the bundle was made); "
        : "") +
      (redactor.conversation
        ? "with the conversation (redacted).\n"
        : "without the conversation (no handoff text, no typed turns).\n"),
  );
}

function _handoffs(journal: Journal, run: RunRow): HandoffRow[] {
  const from = journal.handoffsFrom(run.id);
  const to = journal.handoffs(10_000).filter((h) => h.toRun === run.id);
  return [...to, ...from];
}

function _replay(rec: ReturnType<typeof runRecording>, redactor: Redactor): unknown {
  if (!rec) return { recorded: false };
  const result = replayRunRecording(rec);
  if (!result) return { recorded: true, timed: false };
  const { live: _live, ...comparison } = compareRunReplay(rec, result.decisions, result.ending);
  const v = result.verdict;
  return {
    recorded: true,
    timed: true,
    ending: result.ending,
    verdict: v
      ? {
        kind: v.kind,
        atMs: v.atMs,
        offset: v.offset,
        ...(v.kind === "limit"
          ? { hit: { ...v.hit, message: redactor.shaped(v.hit.message) } }
          : { message: v.message }),
      }
      : null,
    decisions: result.decisions.length,
    ...(rec.recording.span.from ? { fromMs: rec.recording.span.from.nowUs / 1000 } : {}),
    ...comparison,
  };
}

async function _environment(config: Config, run: RunRow, redactor: Redactor): Promise<unknown> {
  const names = [...new Set([run.agent, ...config.chain])];
  const agents = [];
  for (const name of names) {
    const adapter = adapterByName(name);
    if (!adapter) continue;
    // As patient as every probe: a slow start is not "no version".
    const found = await findAgent(adapter, config).catch(() => null);
    agents.push({
      name,
      path: found?.path ?? null,
      version: found?.version ?? null,
      ...(found ? {} : { found: false }),
    });
  }
  let size: { columns: number; rows: number } | null = null;
  try {
    size = Deno.consoleSize();
  } catch { /* not a terminal */ }
  const env = (k: string) => {
    const v = Deno.env.get(k);
    return v === undefined ? null : redactor.text(v);
  };
  return {
    uuldana: buildInfo(),
    os: { os: Deno.build.os, arch: Deno.build.arch, release: Deno.osRelease() },
    terminal: {
      TERM: env("TERM"),
      COLORTERM: env("COLORTERM"),
      TERM_PROGRAM: env("TERM_PROGRAM"),
      TERM_PROGRAM_VERSION: env("TERM_PROGRAM_VERSION"),
      TMUX: Deno.env.get("TMUX") ? "set" : null,
      size,
    },
    locale: { LANG: env("LANG"), LC_ALL: env("LC_ALL") },
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    agents,
  };
}

function _size(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
    ? `${(n / 1024).toFixed(1)} KB`
    : `${(n / 1048576).toFixed(1)} MB`;
}
