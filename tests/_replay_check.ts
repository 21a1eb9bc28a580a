/**
 * Replay equals live, for every end-to-end test: each terminal run a test's uuldana recorded is
 * replayed from its recording through a fresh detector (src/session/replay_run.ts, as `uuldana
 * debug detect RUN` does) and its decision log compared with the one the run kept. The world
 * helper calls this when a test's world closes, so every test that switches, or refuses to,
 * checks it without a line of its own.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describeDecision } from "../src/cli/decision_text.ts";
import { Journal, JOURNAL_FILE, JournalError } from "../src/journal/journal.ts";
import { compareRunReplay, replayRunRecording, runRecording } from "../src/session/replay_run.ts";

/** What a check compared: runs replayed, and how many decisions (acted ones) they held. */
export interface ReplayCheck {
  runs: number;
  decisions: number;
  acted: number;
}

/**
 * Replays every recorded run of the journal in `home` and throws, naming the run and showing
 * both logs, when a replay's decisions are not the run's own (a recording cut short, by a kill or
 * its size bound, must give the first of them; a run left interrupted, the first of the replay's).
 */
export function assertRunsReplay(home: string): ReplayCheck {
  const check: ReplayCheck = { runs: 0, decisions: 0, acted: 0 };
  if (!existsSync(join(home, JOURNAL_FILE))) return check;
  const journal = Journal.open(home);
  const problems: string[] = [];
  try {
    for (const run of journal.runs(10_000)) {
      if (run.transport !== "pty") continue;
      let rec;
      try {
        rec = runRecording(journal, run);
      } catch (e) {
        // A recording that could not be written (the test made the disk refuse it): none to replay.
        if (e instanceof JournalError) continue;
        throw e;
      }
      const result = rec && replayRunRecording(rec);
      if (!rec || !result) continue;
      // A long run's recording replays from the state saved at its latest part: compared with
      // the decisions the run made after it.
      const live = compareRunReplay(rec, [], result.ending).live;
      // A run left interrupted may have lost its last journal writes (a journal still locked
      // when uuldana was stopped): the decisions it kept must begin the replay's.
      const replayed = run.endReason === "interrupted"
        ? result.decisions.slice(0, live.length)
        : result.decisions;
      const { match, firstDifference } = compareRunReplay(rec, replayed, result.ending);
      check.runs++;
      check.decisions += rec.live.length;
      check.acted += rec.live.filter((d) => d.verdict === "acted").length;
      if (match !== "different") continue;
      const show = (ds: typeof rec.live) => ds.map((d) => `    ${describeDecision(d)}`).join("\n");
      problems.push(
        `run ${run.id} (${run.agent}, ended ${run.endReason}): the replay differs from the live ` +
          `run at record ${firstDifference! + 1}\n  live:\n${show(live)}\n  replay ` +
          `(${result.ending}):\n${show(result.decisions)}`,
      );
    }
  } finally {
    journal.close();
  }
  if (problems.length) throw new Error(`replay is not live:\n${problems.join("\n")}`);
  return check;
}
