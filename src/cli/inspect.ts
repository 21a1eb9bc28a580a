/**
 * `uuldana runs`, `uuldana show`, `uuldana export`: reading what the journal recorded.
 *
 * @module
 */
import { describeAction } from "../../adapters/channels/tool_action.ts";
import { describeRunChannel } from "./run_channel_text.ts";
import { Command } from "@commander-js/extra-typings";
import { readFileSync } from "node:fs";
import { UsageError, UuldanaError } from "../errors.ts";
import type { RunRow } from "../journal/journal.ts";
import { openContext } from "../context.ts";
import { runFromArgument } from "./run_arg.ts";
import { describeDecision } from "./decision_text.ts";
// Recorded text is shown, never interpreted: no escape sequence from it reaches the terminal.
import { sanitize } from "../handoff/sanitize.ts";
import { runConversation } from "../handoff/prepare.ts";
import { bold, dim } from "./style.ts";
import { exportAsciicast } from "../session/asciicast.ts";
import { joinCasts, movedLine, runChainFrom, switchLine } from "../session/cast_chain.ts";

function _duration(run: RunRow): string {
  if (!run.endedAt) return "running";
  const s = Math.round((Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000);
  return s < 60
    ? `${s}s`
    : s < 3600
    ? `${Math.floor(s / 60)}m${s % 60}s`
    : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

/** `uuldana runs [--json] [--limit N]`. */
export function runsCommand() {
  return new Command("runs")
    .description("list the runs the journal recorded, newest first")
    .option("--json", "print a JSON array")
    .option("-n, --limit <n>", "how many runs", "20")
    .addHelpText(
      "after",
      `
Examples:
  uuldana runs                    the last 20 runs
  uuldana runs -n 5 --json`,
    )
    .action((opts) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit <= 0) {
        throw new UsageError(`--limit must be a positive whole number`);
      }
      const { journal } = openContext();
      try {
        const runs = journal.runs(limit);
        if (opts.json) {
          console.log(
            JSON.stringify(
              runs.map((r) => ({ ...r, handoffs: journal.handoffsFrom(r.id) })),
              null,
              2,
            ),
          );
          return;
        }
        if (runs.length === 0) {
          console.log("No runs yet. Start one with `uuldana run`, or try `uuldana demo`.");
          return;
        }
        console.log(
          bold(["RUN", "AGENT", "STARTED", "TOOK", "ENDED", "EXIT", "HANDOFF"].join("\t")),
        );
        for (const r of runs) {
          const h = journal.handoffsFrom(r.id).map((x) => `→ ${x.toAgent} (${x.status})`).join(
            ", ",
          );
          console.log(
            [
              r.id,
              r.profile ?? r.agent,
              r.startedAt.replace("T", " ").slice(0, 19),
              _duration(r),
              r.endReason ?? "—",
              r.exitCode ?? "—",
              h || dim("—"),
            ]
              .join("\t"),
          );
        }
      } finally {
        journal.close();
      }
    });
}

/** `uuldana show RUN [--screen|--handoff|--json]`. */
export function showCommand() {
  return new Command("show")
    .description(
      "show one run: what was said, its last screen lines and its handoffs ('last' for the newest)",
    )
    .argument("<run>", "run id from `uuldana runs`, or 'last'")
    .option("--screen", "print only the last 120 screen lines")
    .option("--handoff", "print only the full text of the handoff made from this run")
    .option(
      "--decisions",
      "print only the decision log: each limit detection saw, waited on, acted on or rejected " +
        "(and why), with its time and byte offset, and the channel events beside it",
    )
    .option("--json", "print everything as JSON")
    .addHelpText(
      "after",
      `
Examples:
  uuldana show last               the newest run: agent, turns, how it ended
  uuldana show 12 --screen        the last screen lines of run 12
  uuldana show last --decisions   what detection concluded, when, at which byte of the recording
  uuldana show last --handoff > handoff.md`,
    )
    .action((value, opts) => {
      const { journal } = openContext();
      try {
        const run = runFromArgument(value, journal);
        const entries = journal.entries(run.id);
        const screen = journal.screen(run.id) ?? [];
        const handoffs = journal.handoffsFrom(run.id);
        // What a handoff from this run carries, in time order, each user turn with its certainty.
        const transcript = runConversation(journal, run.id);
        const decisions = journal.decisions(run.id);
        // What the run's channel did (the lines said about it once the run was over).
        const channel = journal.runChannel(run.id);
        if (opts.json) {
          console.log(
            JSON.stringify(
              { run, entries, transcript, screen, handoffs, decisions, channel },
              null,
              2,
            ),
          );
          return;
        }
        if (opts.decisions) {
          if (decisions.length === 0) console.log(dim(`run ${run.id} kept no decisions`));
          for (const d of decisions) console.log(describeDecision(d));
          return;
        }
        if (opts.screen) {
          for (const line of screen) console.log(sanitize(line));
          return;
        }
        if (opts.handoff) {
          const h = handoffs.at(-1);
          if (!h?.filePath) throw new UuldanaError(`run ${run.id} handed nothing off`);
          try {
            Deno.stdout.writeSync(new TextEncoder().encode(readFileSync(h.filePath, "utf8")));
          } catch (e) {
            throw new UuldanaError(
              `cannot read handoff file ${h.filePath}: ${(e as Error).message}`,
            );
          }
          return;
        }
        console.log(
          bold(`run ${run.id}: ${run.profile ? `${run.profile} (${run.agent})` : run.agent}`) +
            dim(` (${run.transport})`),
        );
        console.log(`  workspace  ${run.workspace}`);
        console.log(`  started    ${run.startedAt}`);
        console.log(
          `  ended      ${run.endedAt ?? "—"} ${run.endReason ? `(${run.endReason})` : ""}`,
        );
        if (run.exitCode !== null) console.log(`  exit code  ${run.exitCode}`);
        if (channel) console.log(`  channel    ${sanitize(describeRunChannel(channel))}`);
        if (run.limitMessage) {
          console.log(
            `  limit      ${run.limitMessage}${run.resetsAt ? ` (resets ${run.resetsAt})` : ""}`,
          );
        }
        const turns = transcript.filter((e) => e.role === "user");
        const sure = turns.filter((e) => e.certainty === "exact").length;
        console.log(
          bold(`\ntranscript, oldest first (${turns.length} user turns, ${sure} exact)`),
        );
        for (const e of transcript) {
          const how = e.role === "user" ? (e.certainty ?? e.fidelity) : e.fidelity;
          console.log(
            `  ${e.role === "user" ? "User" : "Agent"} ${dim(`[${how}]`)}: ${
              sanitize(e.text).split("\n").join("\n    ")
            }`,
          );
        }
        const actions = journal.actions(run.id);
        console.log(bold(`\nwhat was done (${actions.length} tool calls from its channel)`));
        for (const a of actions) {
          console.log(`  ${dim(a.at.slice(11, 19))} ${sanitize(describeAction(a))}`);
        }
        console.log(bold(`\nhandoffs (${handoffs.length})`));
        for (const h of handoffs) {
          console.log(
            `  ${h.id} → ${h.toAgent} ${h.mode}/${h.road} ${h.status}, ${h.characters} chars, ${h.omitted} omitted, ${h.redactions} redacted`,
          );
          if (h.filePath) console.log(`    file: ${h.filePath}`);
          if (h.receipt) console.log(`    receipt: ${h.receipt}`);
          if (h.error) console.log(`    error: ${h.error}`);
        }
        console.log(
          bold(`\ndecisions (${decisions.length})`) + dim("  — `--decisions` prints them all"),
        );
        for (const d of decisions.filter((d) => d.verdict === "acted")) {
          console.log(`  ${describeDecision(d)}`);
        }
        console.log(
          bold(`\nlast screen lines (${screen.length})`) + dim("  — `--screen` prints them all"),
        );
        for (const line of screen.slice(-10)) console.log(`  ${sanitize(line)}`);
      } finally {
        journal.close();
      }
    });
}

/** `uuldana export RUN --asciicast FILE`. */
export function exportCommand() {
  return new Command("export")
    .description("export a run's recorded terminal output (asciicast v2, playable with asciinema)")
    .argument("<run>", "run id from `uuldana runs`, or 'last'")
    .requiredOption("--asciicast <file>", "write asciicast v2 to FILE ('-' for stdout)")
    .option(
      "--chain",
      "the run and every run its handoffs started, one after another, with uuldana's line at each switch and what moved at the end",
    )
    .addHelpText(
      "after",
      `
Examples:
  uuldana export last --asciicast run.cast && asciinema play run.cast
  uuldana export 12 --asciicast -  to stdout
  uuldana export 12 --chain --asciicast switch.cast   run 12, the switch, and the next agent`,
    )
    .action((value, opts) => {
      const { journal } = openContext();
      try {
        const run = runFromArgument(value, journal);
        const castOf = (r: RunRow) => {
          const out = journal.output(r.id);
          if (!out) {
            throw new UuldanaError(
              `run ${r.id} has no recorded output (only terminal runs record it)`,
            );
          }
          return exportAsciicast(r, out);
        };
        let cast: string;
        if (opts.chain) {
          const chain = runChainFrom(
            run,
            (id) => journal.run(id),
            (id) => journal.handoffsFrom(id),
          );
          const turns = (r: RunRow) =>
            journal.entries(r.id).filter((e) => e.role === "user").length;
          cast = joinCasts(
            chain.runs.map((r) => ({ run: r, cast: castOf(r) })),
            chain.handoffs.map((h, i) => switchLine(chain.runs[i], h)),
            `uuldana: ${chain.runs.map((r) => r.profile ?? r.agent).join(" → ")}`,
            // What moved at each switch, the way the demo ends (the answer is in the cast above).
            chain.handoffs.map((h, i) =>
              `uuldana: ${movedLine(chain.runs[i], h, turns(chain.runs[i]))}.`
            ),
          );
        } else cast = castOf(run);
        if (opts.asciicast === "-") {
          Deno.stdout.writeSync(new TextEncoder().encode(cast));
          return;
        }
        try {
          Deno.writeTextFileSync(opts.asciicast, cast, { mode: 0o600 });
        } catch (e) {
          throw new UuldanaError(`cannot write ${opts.asciicast}: ${(e as Error).message}`);
        }
      } finally {
        journal.close();
      }
    });
}
