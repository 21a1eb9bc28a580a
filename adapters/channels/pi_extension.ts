/**
 * The pi extension uuldana loads with `pi -e FILE` (its documented flag for an extension file; it
 * never touches `~/.pi`): a few lines of plain JavaScript, run inside pi, that write one channel
 * record per event into the run's channel folder (named by {@link PI_CHANNEL_ENV}) in the record
 * format of `adapters/channel.ts`: the payload to its own new file `r.<pid>.<n>`, then one line
 * `<event> <file>` appended to `events`. It never blocks pi and never throws into it: a record it
 * cannot write is dropped. Verified live on pi 0.73.1 (testdata/channels/pi-0.73.1/).
 *
 * Events: `session_start` (`reason`), `input` (`text`: the raw text pi received, `source`),
 * `agent_start`, `message_end` for assistant messages only (`text`: its text blocks joined,
 * `stopReason`, `errorMessage`, `provider`, `model`), `agent_end`, `session_shutdown` (`reason`),
 * and `provider_error` (`status`, `body`: at most 16 KiB of the provider's error body) for every
 * failed HTTP answer to a request to the current model's `baseUrl`.
 *
 * `provider_error` is not one of pi's events: pi hears of a failed request only once its
 * provider's SDK gave up retrying it (the OpenAI SDK retries a 429 twice, about 1.5 s; pi's
 * `after_provider_response` fires only for an answer the SDK accepted), and no flag or variable
 * turns those retries off (`retry.provider.maxRetries` lives in the user's settings files only).
 * So the extension wraps the process's `fetch` (the SDKs take the global one for each request)
 * and, for an answer with status 400 or more from the model's own endpoint, reads a copy of its
 * body. The answer itself goes to pi untouched; nothing else is looked at.
 *
 * @module
 */

/** The environment variable naming the run's channel folder for the extension. */
export const PI_CHANNEL_ENV = "UULDANA_PI_CHANNEL";

/** The extension file's name in the launch's scratch folder. */
export const PI_EXTENSION_FILE = "uuldana-channel.mjs";

/** The extension's source (an ES module; pi loads it with jiti). */
export const PI_EXTENSION_SOURCE: string =
  `// uuldana's channel for pi: one record per event in $${PI_CHANNEL_ENV} (see uuldana's adapters/channel.ts).
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.${PI_CHANNEL_ENV};
const MAX = 1024 * 1024;
let n = 0;

function record(event, data) {
  if (!dir) return;
  try {
    let json = JSON.stringify(data);
    if (new TextEncoder().encode(json).length > MAX && typeof data.text === "string") {
      json = JSON.stringify({ ...data, text: data.text.slice(0, 256 * 1024), cut: true });
    }
    // A new payload file of its own ("wx": never over a name not yet read).
    let file = null;
    for (let tries = 0; file === null && tries < 16; tries++) {
      n = (n % 9999) + 1;
      try {
        writeFileSync(join(dir, "r." + process.pid + "." + n), json, { mode: 0o600, flag: "wx" });
        file = "r." + process.pid + "." + n;
      } catch (e) {
        if (!e || e.code !== "EEXIST") throw e;
      }
    }
    if (file !== null) appendFileSync(join(dir, "events"), event + " " + file + "\\n");
  } catch {
    // A record that cannot be written is dropped: pi goes on.
  }
}

function text(message) {
  const parts = Array.isArray(message.content) ? message.content : [];
  return parts.filter((p) => p && p.type === "text" && typeof p.text === "string")
    .map((p) => p.text).join("\\n");
}

// The provider's failed answers (status >= 400) to requests for the current model, as they come:
// the SDK's own retries never reach pi's events. One wrapper per process, whatever /reload does.
const BODY_MAX = 16 * 1024;
const HOOK = Symbol.for("uuldana.pi.channel.fetch");
const WRAPPED = Symbol.for("uuldana.pi.channel.fetch.wrapped");
let context = null;

function modelBase() {
  try {
    const base = context && context.model && context.model.baseUrl;
    return typeof base === "string" && /^https?:[/][/]/.test(base) ? base.replace(/[/]+$/, "") : null;
  } catch {
    return null;
  }
}

function watchProvider() {
  globalThis[HOOK] = (url, response) => {
    const base = modelBase();
    if (!base || response.status < 400 || (url !== base && !url.startsWith(base + "/"))) return;
    response.clone().text().then(
      (body) => record("provider_error", { status: response.status, body: body.slice(0, BODY_MAX) }),
      () => record("provider_error", { status: response.status, body: "" }),
    );
  };
  const original = globalThis.fetch;
  if (typeof original !== "function" || globalThis[WRAPPED]) return;
  globalThis[WRAPPED] = true;
  globalThis.fetch = async function (input, init) {
    const response = await original.call(this, input, init);
    try {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      globalThis[HOOK]?.(String(url), response);
    } catch {
      // Never into pi: the answer goes on as it came.
    }
    return response;
  };
}

export default function uuldanaChannel(pi) {
  if (dir) watchProvider();
  const seen = (ctx) => {
    if (ctx) context = ctx;
  };
  pi.on("session_start", (e, ctx) => {
    seen(ctx);
    record("session_start", { reason: e.reason ?? null });
  });
  pi.on("input", (e, ctx) => {
    seen(ctx);
    record("input", { text: e.text, source: e.source ?? null });
    return { action: "continue" };
  });
  pi.on("agent_start", (_e, ctx) => {
    seen(ctx);
    record("agent_start", {});
  });
  pi.on("message_end", (e) => {
    const m = e.message;
    if (!m || m.role !== "assistant") return;
    record("message_end", {
      text: text(m),
      stopReason: m.stopReason ?? null,
      errorMessage: m.errorMessage ?? null,
      provider: m.provider ?? null,
      model: m.model ?? null,
    });
  });
  // A finished tool call: its name, the arguments that name its target (never a file's content),
  // whether it failed, and the end of its text (where pi states a command's exit code). The
  // handler returns nothing: pi's result goes on unchanged.
  pi.on("tool_result", (e) => {
    const input = e.input || {};
    const named = {};
    for (const key of ["path", "command", "pattern", "url"]) {
      if (typeof input[key] === "string") named[key] = input[key].slice(0, 1000);
    }
    record("tool_result", {
      toolName: String(e.toolName || ""),
      input: named,
      isError: !!e.isError,
      ending: e.isError ? text({ content: e.content }).slice(-200) : "",
    });
  });
  pi.on("agent_end", () => record("agent_end", {}));
  pi.on("session_shutdown", (e) => record("session_shutdown", { reason: e.reason ?? null }));
}
`;
