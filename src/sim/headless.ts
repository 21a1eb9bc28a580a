/**
 * A simulated agent's one-shot mode in JSON lines, as the real CLI prints it when `uuldana exec`
 * asks (`gemini -o stream-json`, `qwen -o stream-json`, `copilot --output-format json`, `claude -p
 * --output-format stream-json`): its answer, or its limit as the real CLI reports it headless
 * against the local mock (tools/real-agents, 2026-12-04): Gemini 0.61.0 its quota as the stream's
 * error result and exit 173; Qwen 0.24.4 each retry of a 429 quota as a `system`/`retry` event on
 * stdout and `Retrying in 60s (attempt 1/10): [API Error: 429 …]` on stderr, then waiting a minute
 * before the next; Copilot 1.0.102 each failed call as `model.call_failure`, then retrying. Pure.
 *
 * @module
 */

/** What the one-shot run prints and does. */
export interface HeadlessScript {
  stdout: string[];
  stderr: string[];
  /** How long the agent then stands still (a retry's wait) before it exits. */
  waitMs: number;
  exitCode: number;
}

/** The personas whose JSON mode is simulated. */
const _JSON_FLAGS: Readonly<Record<string, { flag: string; value: string; alias?: string }>> = {
  claude: { flag: "--output-format", value: "stream-json" },
  gemini: { flag: "--output-format", value: "stream-json", alias: "-o" },
  qwen: { flag: "--output-format", value: "stream-json", alias: "-o" },
  copilot: { flag: "--output-format", value: "json" },
};

/** Whether `args` ask persona `persona` for its JSON lines output. */
export function wantsJson(persona: string, args: readonly string[]): boolean {
  const spec = _JSON_FLAGS[persona];
  if (!spec) return false;
  return args.some((a, i) =>
    a === `${spec.flag}=${spec.value}` ||
    ((a === spec.flag || a === spec.alias) && args[i + 1] === spec.value)
  );
}

/** Copilot's JSON mode with no `-p`/`--prompt` reads the prompt from its piped stdin. */
export function promptFromStdin(persona: string, args: readonly string[]): boolean {
  return persona === "copilot" && wantsJson(persona, args) &&
    !args.some((a) => a === "-p" || a === "--prompt" || a.startsWith("--prompt="));
}

const _QUOTA = "429 You exceeded your current quota, please check your plan and billing details.";

/** The answer `lines` to `prompt` as persona `persona`'s JSON events. */
export function jsonAnswer(persona: string, lines: readonly string[], prompt = ""): HeadlessScript {
  const text = lines.join("\n");
  const j = (v: unknown) => JSON.stringify(v);
  const stdout: Record<string, string[]> = {
    claude: [
      j({ type: "system", subtype: "init", session_id: "sim" }),
      j({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } }),
      j({ type: "result", subtype: "success", is_error: false, result: text }),
    ],
    gemini: [
      j({ type: "init", session_id: "sim", model: "gemini-2.5-pro" }),
      j({ type: "message", role: "user", content: prompt }),
      j({ type: "message", role: "assistant", content: text, delta: true }),
      j({ type: "result", status: "success", stats: {} }),
    ],
    qwen: [
      j({ type: "system", subtype: "init", session_id: "sim" }),
      j({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } }),
      j({ type: "result", subtype: "success", is_error: false, result: text }),
    ],
    copilot: [
      j({ type: "assistant.message", data: { messageId: "m1", content: text, toolRequests: [] } }),
      j({ type: "result", sessionId: "sim", exitCode: 0 }),
    ],
  };
  return { stdout: stdout[persona] ?? [text], stderr: [], waitMs: 0, exitCode: 0 };
}

/**
 * Persona `persona`'s limit as its real CLI reports it headless (`resetAt`: Claude's shown reset;
 * `prompt`: what Gemini echoes first, its whole input, a piped stdin included).
 */
export function jsonLimit(persona: string, resetAt?: string, prompt = ""): HeadlessScript {
  const j = (v: unknown) => JSON.stringify(v);
  switch (persona) {
    case "gemini":
      return {
        stdout: [
          j({ type: "init", session_id: "sim", model: "gemini-2.5-pro" }),
          j({ type: "message", role: "user", content: prompt }),
          j({
            type: "result",
            status: "error",
            error: {
              type: "unknown",
              message:
                `[API Error: Quota exceeded for quota metric 'Gemini 2.5 Pro Requests' and limit 'Gemini 2.5 Pro Requests per day per user per tier' of service 'cloudcode-pa.googleapis.com'. Your quota will reset after 2h17m0s.]`,
            },
            stats: { total_tokens: 0 },
          }),
        ],
        stderr: [],
        waitMs: 0,
        exitCode: 173,
      };
    case "qwen":
      return {
        stdout: [
          j({ type: "system", subtype: "init", session_id: "sim" }),
          j({
            type: "system",
            subtype: "retry",
            session_id: "sim",
            data: { reason: "retry", attempt: 1, maxRetries: 10, delayMs: 60000 },
          }),
        ],
        stderr: [`Retrying in 60s (attempt 1/10): [API Error: ${_QUOTA}]`],
        waitMs: 600_000,
        exitCode: 1,
      };
    case "copilot":
      return {
        stdout: [
          j({
            type: "model.call_failure",
            data: {
              statusCode: 429,
              retryAttempt: 0,
              errorCode: "insufficient_quota",
              errorType: "insufficient_quota",
              errorMessage: j({ message: _QUOTA.slice(4), type: "insufficient_quota" }),
            },
            ephemeral: true,
          }),
          j({ type: "assistant.turn_retry", data: { reason: "rate_limit" }, ephemeral: true }),
        ],
        stderr: [],
        waitMs: 600_000,
        exitCode: 1,
      };
    default:
      return {
        stdout: [
          j({
            type: "result",
            subtype: "error_during_execution",
            is_error: true,
            result: `You've hit your session limit · resets ${resetAt ?? "3:01am"} (UTC)`,
          }),
        ],
        stderr: [],
        waitMs: 0,
        exitCode: 1,
      };
  }
}
