/**
 * The providers' real error answers the mock (`mock_api.ts`) can send, read from
 * `error_lanes.json`: one named lane each, with its API, its class (hard, transient, warning), its
 * status, headers and body, and how many tries it takes to clear. The error matrix
 * (`error_matrix.ts`) runs every real agent against the lanes of the API it speaks.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Which API a lane answers on (the mock tells them apart by the request's path). */
export type LaneApi = "anthropic" | "responses" | "chat" | "gemini";

/** What the agent must make of a lane's answer. */
export type LaneClass = "hard" | "transient" | "warning";

/** One named error answer. */
export interface ErrorLane {
  api: LaneApi;
  class: LaneClass;
  status: number;
  headers: Record<string, string>;
  /** The JSON body (absent for a warning: the normal answer is sent). */
  body?: unknown;
  /** The error clears after this many answers (the next model request is answered normally). */
  clearAfter?: number;
  /** The headers ride on a normal answer. */
  warning?: boolean;
  /** Where the shape comes from. */
  source: string;
}

const FILE = join(dirname(new URL(import.meta.url).pathname), "error_lanes.json");

/** Every lane of `error_lanes.json`, by name. */
export function loadLanes(file = FILE): Record<string, ErrorLane> {
  return JSON.parse(readFileSync(file, "utf8")).lanes;
}

/** The APIs each agent of agents.json speaks to the mock. */
export const AGENT_API: Readonly<Record<string, LaneApi>> = Object.freeze({
  claude: "anthropic",
  codex: "responses",
  gemini: "gemini",
  qwen: "chat",
  opencode: "chat",
  kilo: "chat",
  copilot: "chat",
  pi: "chat",
});

/** `text` with {reset} (Unix seconds 3 h after `nowMs`), {reset7d} (4 days) and {resetIso}. */
export function fill(text: string, nowMs: number): string {
  const reset = Math.floor(nowMs / 1000) + 3 * 3600;
  return text.replaceAll("{reset7d}", String(reset - 3 * 3600 + 4 * 86400))
    .replaceAll("{resetIso}", new Date(reset * 1000).toISOString())
    .replaceAll("{reset}", String(reset));
}

// Numbers written as "{reset}" in the body are sent as numbers, as the providers send them.
function fillBody(body: unknown, nowMs: number): unknown {
  if (typeof body === "string") {
    const filled = fill(body, nowMs);
    return /^\{reset(?:7d)?\}$/.test(body) ? Number(filled) : filled;
  }
  if (Array.isArray(body)) return body.map((b) => fillBody(b, nowMs));
  if (body && typeof body === "object") {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fillBody(v, nowMs)]));
  }
  return body;
}

/** The lane's headers, filled at `nowMs`. */
export function laneHeaders(lane: ErrorLane, nowMs: number): Record<string, string> {
  return Object.fromEntries(Object.entries(lane.headers).map(([k, v]) => [k, fill(v, nowMs)]));
}

/** The lane's error answer at `nowMs` (not for a warning lane: its headers go on a normal one). */
export function laneResponse(lane: ErrorLane, nowMs: number): Response {
  return new Response(JSON.stringify(fillBody(lane.body ?? {}, nowMs)), {
    status: lane.status,
    headers: { "content-type": "application/json", ...laneHeaders(lane, nowMs) },
  });
}

/** `res` with the lane's headers added (a warning lane on a normal answer). */
export function withHeaders(res: Response, lane: ErrorLane, nowMs: number): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(laneHeaders(lane, nowMs))) headers.set(k, v);
  return new Response(res.body, { status: res.status, headers });
}
