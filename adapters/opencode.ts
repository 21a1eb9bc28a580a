/**
 * OpenCode (`opencode`) and its forks (Kilo): prompt road (`--prompt`), store road (a session
 * created by the agent's own `import` with the handoff as its first user message, opened with
 * `-s ID`), paste road. Limits show in the footer as `<provider text> [retrying in 13s attempt #1]`,
 * in the final `┃` error block, or in the "Free limit reached" / "Go limit reached" dialogs
 * (`opencode_limit.ts`).
 *
 * @module
 */
import { join } from "node:path";
import type { Adapter, Launch, LaunchRequest, Road } from "./adapter.ts";
import { optionWithValue, refuseResume, requireRoad, RoadError } from "./launch_rules.ts";
import { openCodeId } from "./opencode_id.ts";
import { helpLineProof } from "./proof.ts";
import { openCodeDetector } from "./opencode_limit.ts";
import { normalizeSpace } from "./screen_text.ts";
import { withChannel } from "./channels/launch.ts";
import { inheritedEnv, openCodeChannel, openCodeChannelLaunch } from "./channels/opencode.ts";

/** What differs between OpenCode and a fork. */
export interface OpenCodeFlavor {
  /** Adapter name and binary name, e.g. "opencode". */
  name: string;
  /** Human name. */
  displayName: string;
  /** Install command. */
  installHint: string;
  /** Version recorded in the import when the binary's is unknown. */
  fallbackVersion: string;
  /** The variable holding its inline configuration (`OPENCODE_CONFIG_CONTENT`). */
  configVar: string;
}

/** File name of the import document written into the scratch directory. */
export const OPENCODE_IMPORT_FILE = "opencode-handoff-import.json";

/** The prompt the session submits after the store road opened the imported session. */
export const STORE_KICKOFF = "Continue the work described in the handoff message above.";

const _ROADS: readonly Road[] = ["prompt", "store", "paste"];
const _RESUME = ["-s", "--session", "-c", "--continue", "--fork"];

/**
 * The agent recorded on the imported message. It is none of the agent's own primary agents on
 * purpose: OpenCode's TUI, opening a session, adopts the agent and model of its last user message
 * only when that agent is a primary one; otherwise it keeps the user's own (the configured default
 * model, or the last one used, or `-m`). So the handoff never picks a model: the session runs on
 * the model the user's OpenCode would use anyway.
 */
export const HANDOFF_MESSAGE_AGENT = "uuldana-handoff";

/** The model recorded on the imported message when `-m` names none (never adopted; see above). */
export const HANDOFF_MESSAGE_MODEL = { providerID: "uuldana", modelID: "handoff" } as const;

/**
 * The document `opencode import FILE` accepts (the `opencode export` format, minimal fields):
 * one session whose only message is a user message holding `text`. The ids are made the way the
 * agent makes them, at `now`, so the message sorts before every turn the agent adds later.
 */
export function openCodeImportDocument(
  text: string,
  opts: {
    directory: string;
    version: string;
    model: { providerID: string; modelID: string };
    now?: number;
  },
): { sessionId: string; json: string } {
  const now = opts.now ?? Date.now();
  const sessionId = openCodeId("ses", { descending: true, now });
  const messageId = openCodeId("msg", { now });
  const doc = {
    info: {
      id: sessionId,
      slug: "uuldana-handoff",
      title: "uuldana handoff",
      directory: opts.directory,
      version: opts.version,
      time: { created: now, updated: now },
    },
    messages: [{
      info: {
        id: messageId,
        sessionID: sessionId,
        role: "user",
        time: { created: now },
        agent: HANDOFF_MESSAGE_AGENT,
        model: opts.model,
      },
      parts: [{
        id: openCodeId("prt", { now }),
        sessionID: sessionId,
        messageID: messageId,
        type: "text",
        text,
      }],
    }],
  };
  return { sessionId, json: JSON.stringify(doc, null, 2) };
}

/** The session id in `import`'s output (`Imported session: ses_…`), or null. */
export function parseImportedSession(stdout: string): string | null {
  // deno-lint-ignore no-control-regex
  const m = /Imported session:\s*(\S+)/.exec(stdout.replace(/\x1b\[[0-9;]*m/g, ""));
  return m ? m[1] : null;
}

function _modelFrom(extraArgs: readonly string[]): { providerID: string; modelID: string } | null {
  for (let i = 0; i < extraArgs.length; i++) {
    const a = extraArgs[i];
    const value = a === "-m" || a === "--model"
      ? extraArgs[i + 1]
      : a.startsWith("--model=")
      ? a.slice(8)
      : undefined;
    if (value && value.includes("/")) {
      const at = value.indexOf("/");
      return { providerID: value.slice(0, at), modelID: value.slice(at + 1) };
    }
  }
  return null;
}

// The prompt box's bottom edge (`╹▀▀▀…`) with its `┃` rows right above it.
const _BOX_BOTTOM = /^\s*╹▀{8,}/;
const _BOX_ROW = /^\s*┃/;

/**
 * Whether OpenCode's (or Kilo's) prompt box is on screen: its `┃` rows closed by the `╹▀▀▀` edge.
 * OpenCode 1.18.33 and Kilo 7.7.7 turn bracketed paste on before their first frame, draw blank
 * frames while they load (for minutes on a busy machine) and drop every key and paste until the
 * box is drawn; from then on a paste shows at once, also while `-s` is still loading the session's
 * messages above it (verified live under load, 2026-12-01).
 */
export function openCodeInputReady(rows: readonly string[]): boolean {
  for (let i = rows.length - 1; i > 0; i--) {
    if (_BOX_BOTTOM.test(rows[i])) return _BOX_ROW.test(rows[i - 1]);
  }
  return false;
}

/** Builds the adapter for OpenCode or a fork. */
export function openCodeAdapter(flavor: OpenCodeFlavor): Adapter {
  const name = flavor.name;

  // The road's launch, with the channel's plugin when the request turns it on.
  const launch = (req: LaunchRequest): Launch => {
    const road = roadLaunch(req);
    if (!req.channel) return road;
    const current = inheritedEnv(req.env ?? {}, flavor.configVar);
    return withChannel(
      road,
      openCodeChannelLaunch(req.channel, req.scratchDir, flavor.configVar, current),
    );
  };

  const roadLaunch = (req: LaunchRequest): Launch => {
    if (req.handoff === null) return { argv: [req.bin, ...req.extraArgs] };
    requireRoad(name, req.road, _ROADS);
    refuseResume(name, req.extraArgs, _RESUME);
    if (req.road === "paste") return { argv: [req.bin, ...req.extraArgs] };
    if (req.road === "prompt") {
      return {
        argv: [req.bin, ...req.extraArgs, optionWithValue(name, "--prompt", req.handoff)],
        opening: req.handoff,
      };
    }
    const file = join(req.scratchDir, OPENCODE_IMPORT_FILE);
    const { json } = openCodeImportDocument(req.handoff, {
      directory: req.workspace,
      version: req.version ?? flavor.fallbackVersion,
      model: _modelFrom(req.extraArgs) ?? HANDOFF_MESSAGE_MODEL,
    });
    return {
      argv: [req.bin, ...req.extraArgs],
      files: [{ path: file, content: json, mode: 0o600 }],
      prepare: {
        argv: [req.bin, "import", file],
        finish(stdout: string): string[] {
          const id = parseImportedSession(stdout);
          if (!id) {
            throw new RoadError(
              `${name} import did not report a session id`,
              `its output was: ${normalizeSpace(stdout).slice(0, 200) || "(empty)"}`,
            );
          }
          return [req.bin, ...req.extraArgs, "-s", id];
        },
      },
      kickoff: STORE_KICKOFF,
    };
  };

  const detectLimit = openCodeDetector(name);

  return {
    name,
    displayName: flavor.displayName,
    binNames: [name],
    installHint: flavor.installHint,
    resumeFlags: _RESUME,
    roads: _ROADS,
    defaultRoad: "prompt",
    roadCap: () => null,
    proveInitialPrompt: helpLineProof(/^\s+--prompt\s+prompt to use/, "--prompt  prompt to use"),
    launch,
    detectLimit,
    quitKeys: ["\x03", "\x03"],
    submitKey: "\r",
    inputReady: openCodeInputReady,
    channel: openCodeChannel(flavor.configVar, name),
  };
}

/** The OpenCode adapter. */
export const opencode: Adapter = openCodeAdapter({
  name: "opencode",
  displayName: "OpenCode",
  installHint: "npm install -g opencode-ai",
  fallbackVersion: "1.18.33",
  configVar: "OPENCODE_CONFIG_CONTENT",
});
