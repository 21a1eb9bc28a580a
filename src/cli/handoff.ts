/**
 * `uuldana handoff --from RUN --to AGENT [--road R] [--print]`: hand a past run's conversation to an
 * agent (e.g. after a crash), through the same composer and roads as a live switch.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { adapterByName } from "../../adapters/registry.ts";
import { findAgent, proveAgent } from "../../adapters/find.ts";
import { type Road, ROADS } from "../config/config.ts";
import { ExitWith, NotFoundError, UsageError, UuldanaError } from "../errors.ts";
import { unknownAgentError } from "../chain/member.ts";
import { profileByName } from "../chain/profile.ts";
import { checkLaunchable, locateConfig } from "../config/profile_check.ts";
import { runChain } from "../session/chain.ts";
import { prepareHandoff, runConversation } from "../handoff/prepare.ts";
import { TerminalSession } from "../session/terminal_session.ts";
import { openContext } from "../context.ts";

/** `uuldana handoff`. */
export function handoffCommand() {
  return new Command("handoff")
    .description(
      "hand a past run's conversation to an agent, framed as evidence (e.g. after a crash)",
    )
    .requiredOption("--from <run>", "run id from `uuldana runs`, or 'last'")
    .requiredOption("--to <agent>", "agent that continues")
    .option("--road <road>", "how to deliver: hook, prompt, store or paste (default: the agent's)")
    .option("--print", "print the composed handoff instead of starting the agent")
    .option("--no-wait", "when every agent is limited later on, exit instead of waiting")
    .addHelpText(
      "after",
      `
Examples:
  uuldana handoff --from last --to codex          start Codex on the last run's conversation
  uuldana handoff --from 12 --to gemini --print   just show what Gemini would receive`,
    )
    .action(async (opts) => {
      const ctx = openContext();
      try {
        const profile = profileByName(ctx.config, opts.to, adapterByName);
        if (!profile) throw unknownAgentError(opts.to);
        const { adapter } = profile;
        const runId = opts.from === "last" ? ctx.journal.runs(1)[0]?.id : Number(opts.from);
        const run = runId ? ctx.journal.run(runId) : null;
        if (!run) {
          throw new UuldanaError(`no run ${opts.from} in the journal`, 1, "see `uuldana runs`");
        }
        if (opts.road && !ROADS.includes(opts.road as Road)) {
          throw new UsageError(`--road must be one of ${ROADS.join(", ")}`);
        }
        const road = (opts.road as Road | undefined) ??
          profile.config.road ?? adapter.defaultRoad;
        if (!adapter.roads.includes(road)) {
          throw new UsageError(
            `${adapter.name} cannot take a handoff by ${road}`,
            `its roads: ${adapter.roads.join(", ")}`,
          );
        }
        if (!opts.print) checkLaunchable(profile, ctx.config);
        const found = opts.print
          ? null
          : await findAgent(adapter, ctx.config, { journal: ctx.journal }, locateConfig(profile));
        let refused: string | undefined;
        if (!opts.print) {
          if (!found) {
            throw new NotFoundError(`${adapter.displayName} is not installed`, adapter.installHint);
          }
          const proof = await proveAgent(adapter, found, ctx.journal);
          if (!proof.accepted && road !== "paste") {
            refused = `no initial-prompt proof: ${proof.reason ?? "help text did not show it"}`;
          }
        }
        const conversation = runConversation(ctx.journal, run.id);
        const handoff = await prepareHandoff({
          journal: ctx.journal,
          dataDir: ctx.dataDir,
          fromRun: run.id,
          from: run.profile ?? run.agent,
          to: profile.name,
          road,
          mode: "manual",
          reason: run.limitMessage
            ? { kind: "limit", message: run.limitMessage, resetsAt: run.resetsAt }
            : { kind: "manual" },
          workspace: run.workspace,
          entries: conversation,
          cap: adapter.roadCap(road) ?? undefined,
          refused: opts.print ? "printed only (--print)" : refused,
        });
        if (!handoff) {
          throw new UuldanaError(`nobody spoke in run ${run.id}: there is nothing to hand off`);
        }
        if (opts.print) {
          ctx.journal.updateHandoff(handoff.id, { status: "saved" });
          console.log(handoff.composed.text);
          console.error(`full handoff saved: ${handoff.file}`);
          return;
        }
        if (refused) {
          throw new UuldanaError(
            `${adapter.name}'s --help does not show that it takes an opening prompt; not guessing`,
            1,
            `the handoff is saved: ${handoff.file} (or use --road paste)`,
          );
        }
        const term = new TerminalSession({});
        let code: number;
        try {
          term.status(
            `starting ${profile.name} on run ${run.id}'s conversation via ${road}; full handoff: ${handoff.file}`,
          );
          code = await runChain({
            ctx,
            first: profile.name,
            then: null,
            extraArgs: [],
            noWait: !opts.wait,
            workspace: run.workspace,
            ...term.chainIO(ctx.config.notify),
            initial: { handoff, road, conversation },
          });
          await term.notificationsSent();
        } finally {
          term.close();
        }
        if (code !== 0) throw new ExitWith(code);
      } finally {
        ctx.journal.close();
      }
    });
}
