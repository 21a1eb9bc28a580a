/**
 * The simulated OpenCode's session store: `opencode import FILE` validates the export format's
 * minimal fields (PROVIDERS.md §3) and keeps the session as JSON under `$SIM_STATE_DIR`;
 * `opencode -s ID` loads it again. Like the real one (and Kilo), a turn's request carries only the
 * stored messages whose ids sort before the turn's own time-ordered id, and opening a session
 * adopts its last user message's model only when that message's agent is a primary agent.
 *
 * @module
 */
import { join } from "node:path";
import { tmpdir } from "node:os";

/** One stored message, as a turn's request and the TUI see it. */
export interface StoredMessage {
  id: string;
  role: string;
  agent: string;
  /** `provider/model`. */
  model: string;
  text: string;
}

/** A stored session: what `-s ID` shows. */
export interface StoredSession {
  id: string;
  title: string;
  directory: string;
  firstMessage: string;
  messages: number;
  /** The messages in the order of the file. */
  list: StoredMessage[];
  /** The export as imported. */
  data: unknown;
}

/** Why an import was refused (the message reads like the real one: `Missing key at ["slug"]`). */
export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

/** The state directory: `$SIM_STATE_DIR`, else a fixed directory under the system temp dir. */
export function simStateDir(): string {
  return Deno.env.get("SIM_STATE_DIR") || join(tmpdir(), "uuldana-sim-state");
}

function _need(obj: unknown, path: (string | number)[], type: string): unknown {
  let v: unknown = obj;
  for (const [i, k] of path.entries()) {
    v = v !== null && typeof v === "object"
      ? (v as Record<string | number, unknown>)[k]
      : undefined;
    if (v === undefined) {
      throw new ImportError(`Missing key at ${JSON.stringify(path.slice(0, i + 1))}`);
    }
  }
  const actual = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  if (actual !== type) {
    throw new ImportError(`Expected ${type}, received ${actual} at ${JSON.stringify(path)}`);
  }
  return v;
}

/**
 * Validates an `opencode export` document with the minimal fields the real import needs and
 * returns the session it describes. Paths in errors are relative to the object checked (session
 * info, message info, part), as in the real error messages.
 */
export function validateExport(doc: unknown): Omit<StoredSession, "data"> {
  const list: StoredMessage[] = [];
  const info = _need(doc, ["info"], "object");
  const id = _need(info, ["id"], "string") as string;
  _need(info, ["slug"], "string");
  const title = _need(info, ["title"], "string") as string;
  const directory = _need(info, ["directory"], "string") as string;
  _need(info, ["version"], "string");
  _need(info, ["time", "created"], "number");
  _need(info, ["time", "updated"], "number");
  const messages = _need(doc, ["messages"], "array") as unknown[];
  let firstMessage = "";
  for (const m of messages) {
    const mi = _need(m, ["info"], "object");
    const mid = _need(mi, ["id"], "string");
    if (_need(mi, ["sessionID"], "string") !== id) {
      throw new ImportError(`Message ${mid} belongs to another session`);
    }
    const role = _need(mi, ["role"], "string") as string;
    _need(mi, ["time", "created"], "number");
    const agent = _need(mi, ["agent"], "string") as string;
    const model = `${_need(mi, ["model", "providerID"], "string")}/${
      _need(mi, ["model", "modelID"], "string")
    }`;
    const parts = _need(m, ["parts"], "array") as unknown[];
    const texts: string[] = [];
    for (const p of parts) {
      _need(p, ["id"], "string");
      if (_need(p, ["sessionID"], "string") !== id) {
        throw new ImportError(`Part of message ${mid} belongs to another session`);
      }
      if (_need(p, ["messageID"], "string") !== mid) {
        throw new ImportError(`Part of message ${mid} names another message`);
      }
      const type = _need(p, ["type"], "string");
      if (type === "text") {
        const text = _need(p, ["text"], "string") as string;
        if (!firstMessage && role === "user") firstMessage = text;
        texts.push(text);
      }
    }
    list.push({ id: mid as string, role, agent, model, text: texts.join("\n") });
  }
  return { id, title, directory, firstMessage, messages: messages.length, list };
}

/** The simulated OpenCode's primary agents (its Tab cycle); others never set the TUI's model. */
export const SIM_PRIMARY_AGENTS: readonly string[] = ["build", "plan"];

/**
 * The model the TUI runs the next turn on after opening `session`: `-m` when given, else the last
 * user message's model when its agent is a primary one, else the user's own default.
 */
export function sessionModel(
  session: StoredSession | null,
  cliModel: string | null,
  userDefault: string,
): string {
  if (cliModel) return cliModel;
  const last = session?.list.findLast((m) => m.role === "user");
  if (last && SIM_PRIMARY_AGENTS.includes(last.agent)) return last.model;
  return userDefault;
}

let _lastMs = -1;
let _seq = 0;

/** A message id as the real agent makes one for a new turn: 12 hex digits of time, then random. */
export function turnMessageId(nowMs = Date.now()): string {
  _seq = nowMs === _lastMs ? _seq + 1 : 1;
  _lastMs = nowMs;
  const stamp = (BigInt(nowMs) * 4096n + BigInt(_seq)) % (1n << 48n);
  const rand = crypto.randomUUID().replaceAll("-", "").slice(0, 14);
  return `msg_${stamp.toString(16).padStart(12, "0")}${rand}`;
}

/**
 * What a turn's request carries from the stored session: the messages whose ids sort before the
 * turn's id (plain string order, as the real store compares them), in that order.
 */
export function requestHistory(session: StoredSession, turnId: string): StoredMessage[] {
  return session.list.filter((m) => m.id < turnId).sort((a, b) => (a.id < b.id ? -1 : 1));
}

function _sessionPath(dir: string, id: string): string {
  if (!/^[\w.-]+$/.test(id)) throw new ImportError(`Invalid session id: ${JSON.stringify(id)}`);
  return join(dir, "opencode", `${id}.json`);
}

/** Stores a validated session (attached to `cwd`, like the real import) and returns it. */
export function storeSession(dir: string, doc: unknown, cwd: string): StoredSession {
  const s: StoredSession = { ...validateExport(doc), directory: cwd, data: doc };
  const path = _sessionPath(dir, s.id);
  Deno.mkdirSync(join(dir, "opencode"), { recursive: true });
  Deno.writeTextFileSync(path + ".tmp", JSON.stringify(s));
  Deno.renameSync(path + ".tmp", path);
  return s;
}

/** Loads a stored session, or null when there is none with that id. */
export function loadSession(dir: string, id: string): StoredSession | null {
  try {
    return JSON.parse(Deno.readTextFileSync(_sessionPath(dir, id))) as StoredSession;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof ImportError) return null;
    throw e;
  }
}
