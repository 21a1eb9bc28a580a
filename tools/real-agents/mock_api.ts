/**
 * A local stand-in, on 127.0.0.1, for the three provider APIs the agents speak: Anthropic messages
 * (Claude Code), OpenAI responses and chat completions (Codex, Qwen Code, OpenCode, Kilo) and
 * Gemini generateContent (Gemini CLI). It answers normally (streamed when asked) until it is told
 * to hit the limit, then answers every model request with that provider's real usage-limit error.
 * Every request is logged. No account or credential is involved.
 *
 *   deno run -A mock_api.ts PORT LOG.jsonl      # PORT 0: any free port, printed as "mock on PORT"
 *   curl -X POST 127.0.0.1:PORT/__mock/limit    # from now on: the usage-limit error
 *   curl -X POST '127.0.0.1:PORT/__mock/limit?provider=dashscope'  # chat: DashScope's quota error
 *   curl -X POST '127.0.0.1:PORT/__mock/limit?provider=openai-rate'  # chat: a per-minute 429
 *   curl -X POST '127.0.0.1:PORT/__mock/limit?provider=allocation' # chat: DashScope's allocated quota
 *   curl -X POST '127.0.0.1:PORT/__mock/limit?provider=reset'      # chat: a quota that names its reset
 *   curl -X POST '127.0.0.1:PORT/__mock/limit?provider=gemini-minute' # Gemini: a per-minute quota
 *   curl -X POST '127.0.0.1:PORT/__mock/error?status=500'  # a transient error (500, 503, 529)
 *   curl -X POST '127.0.0.1:PORT/__mock/delay?ms=20000'    # answer that much later (interrupts)
 *   curl -X POST 127.0.0.1:PORT/__mock/ok       # answer normally again (no error, no delay)
 *   curl -X POST '127.0.0.1:PORT/__mock/lane?name=chat-rate-limit'  # a named error lane
 *
 * **Error lanes** (`error_lanes.json`, read by `error_lanes.ts`): each provider's real error
 * answers, by name, with their status, headers and body: `anthropic-five-hour`,
 * `anthropic-seven-day`, `anthropic-seven-day-opus`, `anthropic-overage`, `anthropic-overloaded`
 * (529), `anthropic-credit-low`, `anthropic-org-disabled`, `codex-usage-plus` (and `-pro`,
 * `-free`, `-team`), `codex-credits-depleted`, `codex-rate-limit`, `gemini-per-day`,
 * `gemini-per-minute`, `gemini-capacity`, `gemini-capacity-blip` (clears on the seventh try),
 * `chat-insufficient-quota`, `chat-rate-limit`, `chat-503`. A lane answers only on its own API (the others answer normally) and only the agent's
 * account; a lane with `clearAfter: N` answers its first N model requests with the error, then
 * normally (a transient error that clears on try N+1). `/__mock/ok` ends the lane.
 *
 * **Warning lanes** (`anthropic-warning`: `anthropic-ratelimit-unified-status: allowed_warning`
 * at 91 % of the 5-hour window; `codex-usage-warning`: `x-codex-primary-used-percent: 91`,
 * `x-codex-secondary-used-percent: 93`): every model answer on that API is the normal one with
 * the provider's warning headers added, until `/__mock/ok`. To send a warning and then a normal
 * answer: select the lane, let one turn be answered, then `/__mock/ok`:
 *
 *   curl -X POST '127.0.0.1:PORT/__mock/lane?name=anthropic-warning'
 *
 * Each log line of a lane's answer names it (`lane`), and `limited: true` marks an error answer.
 *
 * Each reply names its number (`MOCKREPLY-3`) so a handoff can be checked for the replies it carries.
 * Paths under `/receiver/` (`/receiver/v1/chat/completions`) are another account, never limited:
 * the next agent of a chain talks there, so the log times a handoff from the provider's first
 * limit answer to the next agent's first model request. Each log line has `t` (ms since the
 * epoch, when the request arrived; the limit is answered at once) and `account`.
 *
 * @module
 */
import { messageResponse, usageLimitResponse } from "./anthropic_messages.ts";
import { type ErrorLane, laneResponse, loadLanes, withHeaders } from "./error_lanes.ts";
import { responsesResponse, responsesUsageLimit } from "./openai_responses.ts";

const port = Number(Deno.args[0] ?? 0);
const logFile = Deno.args[1];
let limited = false;
// Which chat-completions limit to return: OpenAI's quota (`chat`) or, with `?provider=…` on
// /__mock/limit, DashScope's quota (`dashscope`) or OpenAI's per-minute rate limit (`openai-rate`).
type ChatLimit = "chat" | "dashscope" | "openai-rate" | "allocation" | "reset";
const _CHAT_LIMITS: readonly string[] = ["dashscope", "openai-rate", "allocation", "reset"];
let chatProvider: ChatLimit = "chat";
// Gemini's limit: its daily quota (`gemini`) or, with `?provider=gemini-minute`, its per-minute one.
let geminiProvider: "gemini" | "gemini-minute" = "gemini";
// A transient server error (500, 503, 529) answered instead, or null.
let failing: number | null = null;
// Milliseconds every model answer waits before it is sent (a turn slow enough to interrupt).
let delayMs = 0;
let replies = 0;
// The selected error lane (`/__mock/lane?name=…`), and how many errors it has answered.
const LANES = loadLanes();
let lane: (ErrorLane & { name: string }) | null = null;
let laneErrors = 0;

const enc = new TextEncoder();
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
const sse = (events: [string | null, unknown][]) =>
  new Response(
    enc.encode(
      events.map(([name, data]) =>
        `${name ? `event: ${name}\n` : ""}data: ${
          typeof data === "string" ? data : JSON.stringify(data)
        }\n\n`
      ).join(""),
    ),
    { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } },
  );

// The providers' own usage-limit errors, as their clients recognise them.
const reset = () => Math.floor(Date.now() / 1000) + 3 * 3600;
const LIMITS = {
  anthropic: () => usageLimitResponse(reset()),
  // What ChatGPT-plan Codex gets (`usage_limit_reached`, with its reset), shaped as OpenAI errors.
  responses: () => responsesUsageLimit(reset()),
  chat: () =>
    json({
      error: {
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    }, 429),
  // What Alibaba Cloud Model Studio (DashScope, OpenAI-compatible mode) returns when a key's free
  // quota is used up: the body Qwen Code's own isQwenQuotaExceededError matches (status 429, code
  // insufficient_quota, "Free allocated quota exceeded"), which Qwen shows as
  // `[API Error: 429 Free allocated quota exceeded.]`.
  dashscope: () =>
    json({
      error: {
        message: "Free allocated quota exceeded.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
      request_id: "mock-request-id",
    }, 429),
  // OpenAI's per-minute limit: transient, its clients retry it.
  "openai-rate": () =>
    json({
      error: {
        message:
          "Rate limit reached for mock-1 in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    }, 429),
  // DashScope's allocated-quota error (code `Throttling.AllocationQuota`): Qwen Code 0.24.4
  // retries it like any 429.
  allocation: () =>
    json({
      error: {
        message:
          "Allocated quota exceeded, please increase your quota limit. For details, see: https://help.aliyun.com/zh/model-studio/error-code#token-limit",
        type: "Throttling.AllocationQuota",
        param: null,
        code: "Throttling.AllocationQuota",
      },
      request_id: "mock-request-id",
    }, 429),
  // A plan quota whose body names its reset: since QwenLM/qwen-code#7842 Qwen Code fails fast on
  // a 429 saying its quota is exhausted and when it resets (no silent retries).
  reset: () =>
    json({
      error: {
        message: `Your quota has been exhausted and will reset at ${
          new Date(reset() * 1000).toISOString()
        }.`,
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    }, 429),
  // Gemini's daily free-tier quota: Gemini CLI shows its limit dialog at once.
  gemini: () => geminiQuota("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "50", "3600s"),
  // Gemini's per-minute free-tier quota: Gemini CLI retries it and goes on.
  "gemini-minute": () =>
    geminiQuota("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "2", "2s"),
};

// Gemini API's RESOURCE_EXHAUSTED answer for one of its free-tier quotas.
function geminiQuota(quotaId: string, quotaValue: string, retryDelay: string): Response {
  return json({
    error: {
      code: 429,
      message:
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
      status: "RESOURCE_EXHAUSTED",
      details: [{
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [{
          quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
          quotaId,
          quotaDimensions: { location: "global", model: "gemini-2.5-pro" },
          quotaValue,
        }],
      }, { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay }],
    },
  }, 429);
}

// The providers' transient errors: a client retries these and never calls them a usage limit.
function transient(kind: keyof typeof LIMITS, status: number): Response {
  if (kind === "anthropic") {
    const type = status === 529 ? "overloaded_error" : "api_error";
    const message = status === 529 ? "Overloaded" : "Internal server error";
    return json({ type: "error", error: { type, message } }, status);
  }
  if (kind === "gemini") {
    const s = status === 500 ? "INTERNAL" : "UNAVAILABLE";
    const message = status === 500
      ? "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
      : "The model is overloaded. Please try again later.";
    return json({ error: { code: status, message, status: s } }, status);
  }
  return json({
    error: {
      message: status === 500
        ? "The server had an error while processing your request. Sorry about that!"
        : "The engine is currently overloaded, please try again later",
      type: status === 500 ? "server_error" : "overloaded",
      param: null,
      code: null,
    },
  }, status);
}

// Claude's replies and limit come from the builder the Claude checks share.
function anthropic(body: Record<string, unknown>, text: string): Response {
  return messageResponse([{ type: "text", text }], {
    stream: Boolean(body.stream),
    model: String(body.model ?? "claude-mock"),
  });
}

function chat(body: Record<string, unknown>, text: string): Response {
  const base = {
    id: `chatcmpl-mock${replies}`,
    created: Math.floor(Date.now() / 1000),
    model: String(body.model ?? "mock-1"),
  };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!body.stream) {
    return json({
      ...base,
      object: "chat.completion",
      choices: [{
        index: 0,
        message: { role: "assistant", content: text },
        finish_reason: "stop",
      }],
      usage,
    });
  }
  const chunk = (delta: unknown, finish: string | null, extra = {}) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  return sse([
    [null, chunk({ role: "assistant", content: text }, null)],
    [null, chunk({}, "stop", { usage })],
    [null, "[DONE]"],
  ]);
}

function responses(body: Record<string, unknown>, text: string): Response {
  return responsesResponse({ type: "message", text }, {
    stream: body.stream !== false,
    model: String(body.model ?? "mock-1"),
  });
}

function gemini(stream: boolean, text: string): Response {
  const body = {
    candidates: [{
      content: { parts: [{ text }], role: "model" },
      finishReason: "STOP",
      index: 0,
    }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-2.5-pro",
  };
  return stream ? sse([[null, body]]) : json(body);
}

function log(entry: Record<string, unknown>): void {
  if (logFile) {
    Deno.writeTextFileSync(logFile, JSON.stringify({ t: Date.now(), ...entry }) + "\n", {
      append: true,
    });
  }
}

Deno.serve(
  { hostname: "127.0.0.1", port, onListen: (a) => console.error(`mock on ${a.port}`) },
  async (req) => {
    const url = new URL(req.url);
    const account = url.pathname.startsWith("/receiver/") ? "receiver" : "agent";
    const path = account === "receiver" ? url.pathname.slice("/receiver".length) : url.pathname;
    if (path === "/__mock/lane") {
      const name = url.searchParams.get("name") ?? "";
      if (!LANES[name]) return json({ error: `no lane ${name}`, lanes: Object.keys(LANES) }, 404);
      lane = { ...LANES[name], name };
      laneErrors = 0;
      limited = false;
      failing = null;
      return json({ lane: name });
    }
    if (path === "/__mock/limit" || path === "/__mock/ok" || path === "/__mock/error") {
      lane = null;
      limited = path === "/__mock/limit";
      failing = path === "/__mock/error" ? Number(url.searchParams.get("status") ?? 500) : null;
      if (path === "/__mock/ok") delayMs = 0;
      const asked = url.searchParams.get("provider") ?? "";
      chatProvider = _CHAT_LIMITS.includes(asked) ? asked as ChatLimit : "chat";
      geminiProvider = asked === "gemini-minute" ? "gemini-minute" : "gemini";
      return json({ limited, failing, chatProvider });
    }
    if (path === "/__mock/delay") {
      delayMs = Number(url.searchParams.get("ms") ?? 0);
      return json({ delayMs });
    }
    const raw = req.method === "POST" ? await req.text() : "";
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch { /* not JSON */ }
    const kind = /\/messages$/.test(path)
      ? "anthropic"
      : /\/responses$/.test(path)
      ? "responses"
      : /\/chat\/completions$/.test(path)
      ? "chat"
      : /:(?:stream)?[Gg]enerateContent$/.test(path)
      ? "gemini"
      : null;
    const onLane = lane && account === "agent" && kind === lane.api ? lane : null;
    const laneError = onLane && !onLane.warning &&
        (onLane.clearAfter === undefined || laneErrors < onLane.clearAfter)
      ? onLane
      : null;
    const limitedNow = (limited && account === "agent") ||
      (laneError !== null && req.method === "POST");
    // An agent that retries a lane's error in a tight loop (Gemini CLI 0.61.0: 30 a second) would
    // log its whole request each time: after the first 50 errors, their bodies are left out.
    const quiet = laneError !== null && laneErrors >= 50;
    log({
      method: req.method,
      path,
      account,
      kind,
      limited: kind !== null && limitedNow,
      ...(onLane && kind !== null ? { lane: onLane.name } : {}),
      ...(quiet ? { bodyOmitted: true } : {}),
      ...(kind !== null && failing && account === "agent" ? { failing } : {}),
      body: quiet ? "" : raw,
    });
    if (req.method !== "POST" || kind === null) {
      if (/\/models$/.test(path)) return json({ object: "list", data: [], models: [] });
      return json({}, 404);
    }
    if (laneError) {
      laneErrors++;
      return laneResponse(laneError, Date.now());
    }
    if (limitedNow) {
      return LIMITS[kind === "chat" ? chatProvider : kind === "gemini" ? geminiProvider : kind]();
    }
    if (failing && account === "agent") return transient(kind, failing);
    if (delayMs && account === "agent") await new Promise((r) => setTimeout(r, delayMs));
    replies++;
    let text = `MOCKREPLY-${replies}: noted.`;
    // Gemini CLI's side questions (which model, who speaks next) want JSON of a known shape.
    const config = body.generationConfig as { responseMimeType?: string } | undefined;
    if (config?.responseMimeType === "application/json") {
      text = JSON.stringify({ reasoning: text, model_choice: "flash", next_speaker: "user" });
    }
    const res = kind === "anthropic"
      ? anthropic(body, text)
      : kind === "chat"
      ? chat(body, text)
      : kind === "responses"
      ? responses(body, text)
      : gemini(path.includes("stream"), text);
    return onLane?.warning ? withHeaders(res, onLane, Date.now()) : res;
  },
);
