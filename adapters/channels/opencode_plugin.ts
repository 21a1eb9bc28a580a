/**
 * The plugin uuldana gives OpenCode and Kilo (both load `file://` plugins named in their inline
 * configuration): for the few events the channel reads it writes the record format of
 * `../channel.ts` itself (a payload file, then one index line) into the run's channel folder,
 * which it takes from {@link OPENCODE_CHANNEL_ENV}. It runs inside the agent: it never throws,
 * never waits and changes nothing it is handed. Pure: this module only makes its source.
 *
 * @module
 */
import { CHANNEL_INDEX } from "../channel.ts";

/** The variable that names the run's channel folder for the plugin. */
export const OPENCODE_CHANNEL_ENV = "UULDANA_CHANNEL_DIR";

/** The plugin's file name in the launch's scratch folder. */
export const OPENCODE_PLUGIN_FILE = "uuldana-channel-plugin.js";

/** A text part is cut to this many code units before it is written (the reader takes 1 MiB). */
export const OPENCODE_PART_MAX = 256 * 1024;

// The arguments of a tool call that name what it worked on (never its content).
const _TARGET_ARGS = [
  "filePath",
  "path",
  "command",
  "pattern",
  "query",
  "url",
  "description",
];

/**
 * The plugin's source (an ES module). The events it keeps: the user's message (`chat.message`),
 * sessions being made (to tell a subagent's from the user's), `session.status` (busy, idle,
 * retry), `session.error`, each finished text part of a reply (`message.part.updated` with
 * its end time), and each finished tool call (`tool.execute.after`: the tool, the arguments that
 * name its target — a path, a command, a pattern, cut at 1,000 code units, never a file's content —
 * and a command's exit code).
 */
export function openCodePluginSource(): string {
  return `// uuldana's channel plugin: a copy of the few events uuldana reads, as files in the run's
// channel folder (${OPENCODE_CHANNEL_ENV}). It prints nothing and never throws.
import { appendFileSync, writeFileSync } from "node:fs";
const dir = process.env.${OPENCODE_CHANNEL_ENV};
let n = 0;
function send(name, payload) {
  if (!dir) return;
  try {
    const body = JSON.stringify(payload);
    for (let tries = 0; tries < 16; tries++) {
      const file = "r." + process.pid + "." + (n++ % 10000);
      try {
        writeFileSync(dir + "/" + file, body, { flag: "wx", mode: 0o600 });
      } catch (e) {
        if (e && e.code === "EEXIST") continue;
        return;
      }
      appendFileSync(dir + "/${CHANNEL_INDEX}", name + " " + file + "\\n");
      return;
    }
  } catch { /* the channel is best effort */ }
}
const KEPT = new Set(["session.created", "session.status", "session.error"]);
export const UuldanaChannel = async () => ({
  "chat.message": async (input, output) => {
    try {
      const parts = (output && output.parts || []).filter((p) => p && p.type === "text")
        .map((p) => ({ type: "text", text: String(p.text ?? ""), synthetic: !!p.synthetic }));
      send("chat.message", { sessionID: input && input.sessionID, parts });
    } catch { /* never in the way */ }
  },
  "tool.execute.after": async (input, output) => {
    try {
      const args = (input && input.args) || {};
      const named = {};
      for (const key of ${JSON.stringify(_TARGET_ARGS)}) {
        if (typeof args[key] === "string") named[key] = args[key].slice(0, 1000);
      }
      const meta = (output && output.metadata) || {};
      send("tool.execute.after", {
        sessionID: input && input.sessionID,
        tool: String((input && input.tool) || ""),
        args: named,
        ...(typeof meta.exit === "number" ? { exit: meta.exit } : {}),
      });
    } catch { /* never in the way */ }
  },
  event: async ({ event }) => {
    try {
      if (!event || typeof event.type !== "string") return;
      if (KEPT.has(event.type)) return send(event.type, event);
      if (event.type !== "message.part.updated") return;
      const part = event.properties && event.properties.part;
      if (!part || part.type !== "text" || part.synthetic || !(part.time && part.time.end)) return;
      send(event.type, {
        type: event.type,
        properties: {
          sessionID: event.properties.sessionID ?? part.sessionID,
          part: {
            id: part.id,
            messageID: part.messageID,
            sessionID: part.sessionID,
            type: "text",
            text: String(part.text ?? "").slice(0, ${OPENCODE_PART_MAX}),
            time: part.time,
          },
        },
      });
    } catch { /* never in the way */ }
  },
});
`;
}
