/**
 * Each persona's usage limit as its real CLI shows it when a simulated turn hits it: Claude's
 * `⎿` row and its limit menu, Codex's `■` row, Gemini's menu, OpenCode's retry footer (and, with
 * `SIM_RETRY_GIVEUP`, its error block), Qwen's retried quota error with a countdown (or, with
 * `SIM_QWEN_FAIL_FAST`, its 429 at once), Copilot's retries before its `✗` row; each with what
 * its structured channel says meanwhile. The session (session.ts) hosts it: its view, channel,
 * log, redraw and one retry ticker.
 *
 * @module
 */
import {
  CLAUDE_LIMIT_OPTIONS,
  claudeLimitLine,
  codexLimitLine,
  copilotLimitLine,
  GEMINI_LIMIT_OPTIONS,
  OPENCODE_PROVIDER_TEXT,
  QWEN_QUOTA_RETRY_ROW,
} from "./limit.ts";
import type { SimLog } from "./log.ts";
import type { ProviderError, SimChannel } from "./channel.ts";
import type { PersonaName } from "./persona.ts";
import type { ViewState } from "./view.ts";
import { env, envInt } from "./env.ts";

/** What showing a limit needs from its session. */
export interface LimitHost {
  readonly view: ViewState;
  readonly channel: SimChannel | null;
  readonly log: SimLog;
  /** `SIM_LIMIT_TEXT`: the provider's (or Claude's) limit text, when set. */
  readonly limitText: string | undefined;
  /** Draws the view again. */
  render(): void;
  /** Runs `tick` every `ms` ms, instead of any retry ticking before (Ctrl-C stops it). */
  retryEvery(ms: number, tick: () => void): void;
  /** Stops the retry ticking. */
  stopRetry(): void;
}

/**
 * Shows `persona`'s limit in `host`'s view (the turn is no longer busy unless the persona keeps
 * retrying), with `reset` the reset time to show (undefined: each layout's default).
 */
export function showLimit(persona: PersonaName, host: LimitHost, reset: string | undefined): void {
  const v = host.view;
  switch (persona) {
    case "claude": {
      // SIM_LIMIT_TEXT: a limit text of a Claude version uuldana's screen reader does not know.
      const line = host.limitText ? `  ⎿ \u00a0${host.limitText}` : claudeLimitLine(reset);
      v.items.push({ kind: "error", text: line });
      host.channel?.failed(
        providerError(host.limitText),
        line.replace(/^\s*⎿\s*/u, ""),
        "rate_limit",
      );
      v.items.push({ kind: "raw", rows: ["", "✻ Sautéed for 0s"] });
      v.items.push({ kind: "user", text: "/rate-limit-options" });
      v.menu = { purpose: "claude-limit", options: CLAUDE_LIMIT_OPTIONS, selected: 0 };
      break;
    }
    case "codex":
      v.items.push({ kind: "error", text: codexLimitLine(reset) });
      break;
    case "gemini":
      v.menu = { purpose: "gemini-limit", options: GEMINI_LIMIT_OPTIONS, selected: 0 };
      break;
    case "opencode": {
      v.busy = true;
      v.retry = 1;
      const retryMs = envInt("SIM_RETRY_MS", 2000);
      const body = providerError(host.limitText);
      host.channel?.retrying(1, body, retryMs);
      host.retryEvery(retryMs, () => {
        v.retry = (v.retry ?? 0) + 1;
        const giveUp = envInt("SIM_RETRY_GIVEUP", 0);
        if (giveUp > 0 && v.retry > giveUp) {
          host.stopRetry();
          v.retry = null;
          v.busy = false;
          v.items.push({ kind: "error", text: host.limitText ?? OPENCODE_PROVIDER_TEXT });
          host.log.write({ event: "gave-up", attempts: giveUp });
          host.channel?.failed(body, body.message, "APIError");
        } else host.channel?.retrying(v.retry, body, retryMs);
        host.render();
      });
      break;
    }
    case "qwen":
      if (env("SIM_QWEN_FAIL_FAST") === "1") {
        // A 429 naming its reset: Qwen gives up at once (QwenLM/qwen-code#7842), StopFailure.
        const body = providerError(host.limitText);
        const shown = `Quota exhausted: ${body.message}`;
        v.items.push({ kind: "error", text: `  ✕ ${shown}` });
        host.channel?.failed(body, shown, "billing_error");
        break;
      }
      showQwenRetries(host);
      break;
    case "copilot": {
      // Copilot CLI 1.0.102 retries a failed model call five times (a minute), its hook told
      // each time, before its ✗ row (SIM_COPILOT_RETRIES; 0: the row at once).
      const retries = envInt("SIM_COPILOT_RETRIES", 0);
      const body = providerError(host.limitText);
      const show = () => {
        v.busy = false;
        v.items.push({ kind: "error", text: copilotLimitLine(reset, host.limitText) });
      };
      if (retries <= 0) {
        host.channel?.retrying(1, body, 0);
        show();
        break;
      }
      v.busy = true;
      let attempt = 1;
      const every = envInt("SIM_RETRY_MS", 2000);
      // Its first errorOccurred runs late (real 1.0.102: 0.55 s after the 429 at load 8, 1.9 s at
      // load 13; SIM_COPILOT_HOOK_MS), every later one at its failed call.
      const hookMs = envInt("SIM_COPILOT_HOOK_MS", 1000);
      let told = false;
      const tell = () => {
        if (!told) host.channel?.retrying(1, body, every);
        told = true;
      };
      if (hookMs <= 0) tell();
      // Its footer's `◉ Working` glyph turns every 90 ms for as long as it retries.
      let waited = 0;
      let since = 0;
      host.retryEvery(90, () => {
        v.spin = (v.spin ?? 0) + 1;
        waited += 90;
        since += 90;
        if (since >= hookMs) tell();
        if (waited >= every) {
          waited = 0;
          tell();
          if (++attempt > retries) {
            host.stopRetry();
            show();
          } else host.channel?.retrying(attempt, body, every);
        }
        host.render();
      });
      break;
    }
  }
}

/**
 * Qwen Code 0.24.4 retrying DashScope's quota 429. With `SIM_QWEN_SILENT_MS=N` it first retries
 * silently for N ms behind its spinner (`⠋ Thinking... (3s · esc to cancel)`, turning every
 * 80 ms), its telemetry logging each failed call (`api_error`, `api_retry`) every
 * `SIM_QWEN_CALL_MS` (default 700: one quiet SDK retry); then, as without it, its error row and a
 * countdown (10 attempts, 60 s and more apart), as the real-agent matrix showed.
 */
function showQwenRetries(host: LimitHost): void {
  const v = host.view;
  const body = providerError(host.limitText);
  const showRow = () => {
    v.spinner = undefined;
    v.items.push({ kind: "error", text: QWEN_QUOTA_RETRY_ROW });
    v.busy = true;
    v.retryCountdown = { seconds: 38, attempt: 1 };
    host.retryEvery(1000, () => {
      const cd = v.retryCountdown!;
      v.retryCountdown = cd.seconds > 1
        ? { seconds: cd.seconds - 1, attempt: cd.attempt }
        : { seconds: 60, attempt: Math.min(10, cd.attempt + 1) };
      host.render();
    });
  };
  const silentMs = envInt("SIM_QWEN_SILENT_MS", 0);
  if (silentMs <= 0) return showRow();
  const callMs = envInt("SIM_QWEN_CALL_MS", 700);
  v.busy = true;
  v.spinner = { frame: 0, seconds: 0 };
  let waited = 0;
  let call = 0;
  let attempt = 0;
  host.retryEvery(80, () => {
    waited += 80;
    call += 80;
    v.spinner = { frame: v.spinner!.frame + 1, seconds: Math.floor(waited / 1000) };
    if (call >= callMs) {
      call = 0;
      host.channel?.retrying(++attempt, body, callMs);
    }
    if (waited >= silentMs) return showRow();
    host.render();
  });
}

/** The provider's error behind the limit shown (`limitText`, SIM_LIMIT_TEXT): a quota when its text says so. */
export function providerError(limitText: string | undefined): ProviderError {
  const message = limitText ??
    "You exceeded your current quota, please check your plan and billing details.";
  const quota = /quota|billing|credits|usage limit/i.test(message);
  return {
    status: 429,
    message,
    type: quota ? "insufficient_quota" : "requests",
    code: quota ? "insufficient_quota" : "rate_limit_exceeded",
  };
}
