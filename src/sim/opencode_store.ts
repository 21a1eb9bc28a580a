/**
 * The simulated OpenCode's session store: `opencode import FILE` validates the export format's
 * minimal fields (PROVIDERS.md §3) and keeps the session as JSON under `$SIM_STATE_DIR`;
 * `opencode -s ID` loads it again.
 *
 * @module
 */
import { join } from "node:path";
import { tmpdir } from "node:os";

/** A stored session: what `-s ID` shows. */
export interface StoredSession {
  id: string;
  title: string;
  directory: string;
  firstMessage: string;
  messages: number;
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
    _need(mi, ["role"], "string");
    _need(mi, ["time", "created"], "number");
    _need(mi, ["agent"], "string");
    _need(mi, ["model", "providerID"], "string");
    _need(mi, ["model", "modelID"], "string");
    const parts = _need(m, ["parts"], "array") as unknown[];
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
        if (!firstMessage && (mi as { role: string }).role === "user") firstMessage = text;
      }
    }
  }
  return { id, title, directory, firstMessage, messages: messages.length };
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
