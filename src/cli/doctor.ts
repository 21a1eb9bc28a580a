/**
 * `uuldana doctor`: is the user's machine ready? Each check says what it found and, when
 * something is wrong, what to do. Exit 1 when something needed is missing.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import type { Config } from "../config/config.ts";
import { memberNames } from "../chain/profile.ts";
import { loadCheckedConfig } from "../context.ts";
import { configPath, dataDir, ensurePrivateDir } from "../config/paths.ts";
import { UuldanaError } from "../errors.ts";
import { Journal } from "../journal/journal.ts";
import { detectScriptFlavour } from "../pty/script.ts";
import { ADAPTERS } from "../../adapters/registry.ts";
import { type AgentStatus, describeAgents } from "../../adapters/find.ts";
import { ProbeBudget } from "../../adapters/probe.ts";
import { testedLine } from "../../adapters/tested.ts";
import { type ArgvVisibility, readArgvVisibility } from "../proc_visibility.ts";
import { VERSION } from "./version.ts";
import { dataFiles, otherBytesSync } from "../journal/data_files.ts";
import {
  type DataFile,
  describeRule,
  formatBytes,
  planRetention,
  type RetentionRule,
} from "../journal/retention.ts";
import { green, red, yellow } from "./style.ts";

/** One line of the doctor's report. */
export interface Check {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

// Whether `cmd` can be started at all. Its exit status does not matter: BSD `stty` has no
// `--version` and fails without a terminal on stdin, yet it is there and works inside a run.
async function _canRun(cmd: string, args: string[]): Promise<boolean> {
  try {
    await new Deno.Command(cmd, { args, stdin: "null", stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs every check. `probes` sets the agents' probe limits (a test's; by default those of
 * `uuldana agents`: 3 s, then 15 s in all, within a 20 s budget).
 */
export async function runChecks(
  probes: { timeoutMs?: number; retryTimeoutMs?: number; budgetMs?: number } = {},
): Promise<Check[]> {
  const checks: Check[] = [];
  checks.push({
    name: "uuldana",
    status: "ok",
    detail: `${VERSION} on Deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}`,
  });

  try {
    const s = await detectScriptFlavour();
    checks.push({
      name: "script",
      status: "ok",
      detail: `${s.flavour} ${s.version ?? ""} (${s.path})`.replace("  ", " "),
    });
  } catch (e) {
    checks.push({
      name: "script",
      status: "fail",
      detail: (e as Error).message,
      fix:
        "install the system `script` (Debian/Ubuntu: apt-get install bsdutils; Fedora: util-linux-script; macOS has it)",
    });
  }
  for (
    const [cmd, args, why] of [
      ["stty", ["-a"], "raw mode and window size"],
      ["ps", ["-p", "1"], "finding the agent's terminal on resize"],
    ] as const
  ) {
    const ok = await _canRun(cmd, [...args]);
    checks.push(
      ok ? { name: cmd, status: "ok", detail: `found (${why})` } : {
        name: cmd,
        status: "fail",
        detail: `not found; needed for ${why}`,
        fix: `install ${cmd} (coreutils / procps)`,
      },
    );
  }

  let config: Config | null = null;
  try {
    config = loadCheckedConfig();
    const known = memberNames(config, ADAPTERS.map((a) => a.name));
    const unknown = config.chain.filter((name) => !known.includes(name));
    checks.push(
      unknown.length === 0
        ? {
          name: "config",
          status: "ok",
          detail: `${config.path} ${
            config.exists
              ? "(valid)"
              : "(not there: the defaults apply; `uuldana config init` writes one)"
          }; chain ${config.chain.join(" → ")}`,
        }
        : {
          name: "config",
          status: "fail",
          detail: `${config.path}: "chain" names unknown ${
            unknown.length === 1 ? "agent" : "agents"
          } ${unknown.map((n) => `"${n}"`).join(", ")}`,
          fix: `use names from: ${known.join(", ")} (see \`uuldana agents\`)`,
        },
    );
  } catch (e) {
    checks.push({
      name: "config",
      status: "fail",
      detail: (e as Error).message,
      fix: (e as UuldanaError).hint ?? `fix ${configPath()}`,
    });
  }

  let journal: Journal | null = null;
  let stage = "data dir";
  try {
    // Made private here like every command does, so the mode is always 0700 afterwards.
    const dir = ensurePrivateDir(dataDir());
    checks.push({ name: stage, status: "ok", detail: `${dir} (mode 700)` });
    stage = "journal";
    journal = Journal.open(dir);
    const health = journal.check();
    checks.push({
      name: "journal",
      status: health === "ok" ? "ok" : "fail",
      detail: `${journal.path} (schema ${journal.schemaVersion}, ${journal.runCount()} runs, ` +
        `integrity ${health})`,
      fix: health === "ok" ? undefined : "move the journal file away; uuldana starts a new one",
    });
    if (config) {
      try {
        checks.push(await _dataFolder(journal, dir, config.retention));
      } catch (e) {
        checks.push({ name: "data folder", status: "warn", detail: (e as Error).message });
      }
    }
  } catch (e) {
    checks.push({
      name: stage,
      status: "fail",
      detail: (e as Error).message,
      fix: (e as UuldanaError).hint,
    });
  }

  if (config) {
    const statuses = await describeAgents(ADAPTERS, config, {
      journal: journal ?? undefined,
      budget: new ProbeBudget({ totalMs: probes.budgetMs }),
      timeoutMs: probes.timeoutMs,
      retryTimeoutMs: probes.retryTimeoutMs,
    });
    let usable = 0;
    let unproven = 0;
    for (const s of statuses) {
      const inChain = config.chain.includes(s.name);
      if (!s.found) {
        if (inChain) {
          checks.push({
            name: `agent ${s.name}`,
            status: "warn",
            detail: "not installed (in your chain)",
            fix: s.installHint,
          });
        }
        continue;
      }
      if (inChain && s.acceptsInitialPrompt) usable++;
      const unknown = !s.acceptsInitialPrompt && !!s.proof?.inconclusive;
      if (inChain && unknown) unproven++;
      checks.push({
        name: `agent ${s.name}`,
        status: s.acceptsInitialPrompt ? "ok" : "warn",
        detail: `${s.path} ${s.version ?? "(version unknown)"}; ` +
          (s.acceptsInitialPrompt
            ? `takes a handoff by ${s.defaultRoad}` +
              (s.proof?.recorded
                ? ` (the real-agent matrix verified ${s.proof.recorded.version})`
                : "")
            : unknown
            ? `not checked yet whether it takes a handoff: ${s.proof?.reason}`
            : `handoffs refused: ${s.proof?.reason ?? s.problem ?? "no prompt proof"}`),
        ...(unknown ? { fix: "run `uuldana doctor` again (only what is missing is asked)" } : {}),
      });
      if (s.tested.kind !== "tested" && s.tested.kind !== "unknown") {
        checks.push({
          name: `agent ${s.name}`,
          status: "warn",
          detail: testedLine(s.name, s.tested),
          fix: "if it misses a usage limit, switch by hand with /agent NAME and send us " +
            "`uuldana debug bundle last` (see docs/reporting.md)",
        });
      }
    }
    checks.push(_argvPrivacy(
      statuses.filter((s) => s.found && config!.chain.includes(s.name) && s.handoffInArgv),
      readArgvVisibility(),
    ));
    if (usable === 0) {
      checks.push({
        name: "agents",
        // An agent whose probe did not answer (a busy machine) is not a refusal: not a failure.
        status: unproven ? "warn" : "fail",
        detail: `no agent of your chain (${
          config.chain.join(", ")
        }) is installed and proven to take a handoff`,
        fix: unproven
          ? "some did not answer their --help in time: run `uuldana doctor` again"
          : "install one (see the hints above) or set its path: UULDANA_<AGENT>_BIN or agents.<name>.bin in the config",
      });
    }
  }
  journal?.close();
  return checks;
}

/**
 * The data folder's size and what the retention rule keeps of it and would remove at the next
 * `uuldana run` (doctor removes nothing).
 */
async function _dataFolder(journal: Journal, dir: string, rule: RetentionRule): Promise<Check> {
  const files = await dataFiles(journal, dir, () => {});
  const plan = planRetention(files, rule, Date.now());
  const sum = (fs: readonly DataFile[]) => fs.reduce((n, f) => n + f.bytes, 0);
  const of = (kind: DataFile["kind"]) => {
    const these = files.filter((f) => f.kind === kind);
    return `${these.length} ${kind}${these.length === 1 ? "" : "s"} ${formatBytes(sum(these))}`;
  };
  const total = plan.totalBytes + otherBytesSync(dir, files);
  const gone = plan.remove.map((r) => r.file);
  const held = plan.keep.filter((f) => f.held !== null).length;
  return {
    name: "data folder",
    status: "ok",
    detail: `${formatBytes(total)} (${of("recording")}, ${of("handoff")}; ` +
      `${describeRule(rule)}): ` +
      (gone.length
        ? `the next run removes ${gone.length} ${gone.length === 1 ? "file" : "files"} ` +
          `(${formatBytes(sum(gone))}) and keeps ${plan.keep.length}`
        : `it keeps all ${plan.keep.length}`) +
      (held ? `, ${held} of them handoffs not delivered yet` : ""),
  };
}

/**
 * Whether a handoff in an agent's command line (the prompt road of most agents) is private: warns
 * when other users can read process arguments and an agent of the chain would be given one.
 */
function _argvPrivacy(exposing: readonly AgentStatus[], visibility: ArgvVisibility): Check {
  const name = "argv privacy";
  if (visibility === "hidden") {
    return { name, status: "ok", detail: "other users cannot read process arguments (hidepid)" };
  }
  if (exposing.length === 0) {
    return { name, status: "ok", detail: "no road of your chain puts a handoff in a command line" };
  }
  const who = exposing.map((s) => `${s.name} (${s.defaultRoad} road)`).join(", ");
  const why = visibility === "unknown"
    ? "other local users may read process arguments (/proc/self/mountinfo unreadable)"
    : Deno.build.os === "linux"
    ? "other local users can read process arguments (/proc has no hidepid)"
    : "other local users can read process arguments (ps)";
  return {
    name,
    status: "warn",
    detail: `${why}; a handoff is in the command line of ${who} while it runs`,
    fix: Deno.build.os === "linux"
      ? 'on a shared machine mount /proc with hidepid=invisible, or set agents.<name>.road to "paste"'
      : 'on a shared machine set agents.<name>.road to "paste"',
  };
}

/** `uuldana doctor [--json]`. */
export function doctorCommand() {
  return new Command("doctor")
    .description(
      "check that your machine can run uuldana: script, config, data dir, journal, agents",
    )
    .option("--json", "print the checks as JSON")
    .addHelpText(
      "after",
      `
Examples:
  uuldana doctor                  what is missing on your machine, and how to fix it
  uuldana doctor --json`,
    )
    .action(async (opts) => {
      const checks = await runChecks();
      if (opts.json) {
        console.log(JSON.stringify(checks, null, 2));
      } else {
        for (const c of checks) {
          const mark = c.status === "ok"
            ? green("✓")
            : c.status === "warn"
            ? yellow("!")
            : red("✗");
          console.log(`${mark} ${c.name.padEnd(15)} ${c.detail}`);
          if (c.fix) console.log(`  ${" ".repeat(15)} fix: ${c.fix}`);
        }
      }
      if (checks.some((c) => c.status === "fail")) {
        throw new UuldanaError("something needed is missing (see above)", 1);
      }
    });
}
