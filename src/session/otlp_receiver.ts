/**
 * A loopback OTLP/HTTP receiver of uuldana's own, for one run: an agent that reports its events
 * through OpenTelemetry (Qwen Code's `qwen-code.api_error`) posts them here. It listens on
 * 127.0.0.1 only, under a path prefix nobody else knows (`/<128 random bits>`), reads `/v1/logs`
 * as OTLP JSON and answers `/v1/traces` and `/v1/metrics` (and a protobuf body it does not parse)
 * with success, so the agent's exporter never retries or complains.
 *
 * It can never slow or block the agent or uuldana's keyboard: every request is answered at once
 * (the body read, bounded, then queued); parsing happens later on a timer, off the request; what
 * does not fit — a body over {@link OTLP_MAX_BODY}, more than {@link OTLP_MAX_IN_FLIGHT} requests at
 * a time, more than {@link OTLP_MAX_PENDING} bytes waiting to be parsed, more than
 * {@link OTLP_MAX_KEPT} records not yet taken — is answered with success and dropped, and counted
 * ({@link OtlpStats}). A wrong path or method gets a 404 and nothing else. Only the log records
 * whose `event.name` the caller keeps are kept, each attribute value cut at
 * {@link OTLP_MAX_VALUE} characters.
 *
 * Self-contained (a small API for `uuldana run` and `uuldana exec`):
 * `startOtlpReceiver(opts)` → `{ endpoint, events(), stats, close() }`.
 *
 * @module
 */

/** The largest request body read, in bytes; a larger one is answered and dropped. */
export const OTLP_MAX_BODY = 1024 * 1024;
/** Requests handled at once; more are answered at once and dropped. */
export const OTLP_MAX_IN_FLIGHT = 8;
/** Bytes of log bodies waiting to be parsed, at most. */
export const OTLP_MAX_PENDING = 2 * 1024 * 1024;
/** Records parsed and kept but not yet taken, at most. */
export const OTLP_MAX_KEPT = 256;
/** An attribute value is cut at this many characters. */
export const OTLP_MAX_VALUE = 8 * 1024;
/** Bytes of bodies parsed in one tick of the event loop, at most (one body may be larger). */
const _PARSE_SLICE = 256 * 1024;
/** Log records read from one body, at most. */
const _MAX_RECORDS_PER_BODY = 1024;

/** One OTLP log record, as kept: its event name and its attributes, flattened. */
export interface OtlpLogRecord {
  /** The record's `event.name` attribute (`qwen-code.api_error`). */
  name: string;
  /** Its attributes (strings, numbers, booleans; others left out), `event.name` included. */
  attributes: Record<string, string | number | boolean>;
}

/** What the receiver did, counted. */
export interface OtlpStats {
  /** Requests answered on the right path. */
  requests: number;
  /** Log records kept. */
  kept: number;
  /** Dropped, by why: `oversized`, `busy` (too many at once), `backlog` (parsing behind), `full`
   * (records not taken), `malformed` (not OTLP JSON), `protobuf` (answered, not parsed). */
  dropped: Partial<Record<OtlpDrop, number>>;
  /** Requests on a wrong path or with a wrong method (404). */
  refused: number;
}

/** Why a request or record was dropped. */
export type OtlpDrop = "oversized" | "busy" | "backlog" | "full" | "malformed" | "protobuf";

/** How to start a receiver. */
export interface OtlpReceiverOptions {
  /** Which log records to keep, by `event.name` (the rest are never held). */
  keep(name: string): boolean;
  /** Called (at most once per parse) when new records are ready to be taken. */
  onRecords?(): void;
  /** Bounds; the defaults are the exported constants. */
  maxBody?: number;
  maxInFlight?: number;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base endpoint to give the agent (`http://127.0.0.1:PORT/<secret>`), no trailing slash. */
  readonly endpoint: string;
  /** Takes the records kept since the last call, in the order they came. */
  events(): OtlpLogRecord[];
  /** What it did so far. */
  readonly stats: OtlpStats;
  /** Stops listening (requests in flight end); later posts are refused by the system. */
  close(): Promise<void>;
}

const _SIGNALS = new Set(["logs", "traces", "metrics"]);
const _decoder = new TextDecoder();

/** Starts a receiver on 127.0.0.1 at a free port. Throws when it cannot listen. */
export function startOtlpReceiver(opts: OtlpReceiverOptions): OtlpReceiver {
  const maxBody = opts.maxBody ?? OTLP_MAX_BODY;
  const maxInFlight = opts.maxInFlight ?? OTLP_MAX_IN_FLIGHT;
  const secret = _secret();
  const stats: OtlpStats = { requests: 0, kept: 0, dropped: {}, refused: 0 };
  const drop = (why: OtlpDrop) => stats.dropped[why] = (stats.dropped[why] ?? 0) + 1;
  let kept: OtlpLogRecord[] = [];
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let parseTimer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = 0;
  let closed = false;

  const parseLater = () => {
    if (parseTimer !== undefined || closed) return;
    parseTimer = setTimeout(() => {
      parseTimer = undefined;
      // At most _PARSE_SLICE bytes a tick: the rest waits for the next one, so a flood never
      // holds the event loop (keys, the agent's output) for long.
      const bodies: Uint8Array[] = [];
      let sliced = 0;
      while (pending.length && (sliced === 0 || sliced + pending[0].length <= _PARSE_SLICE)) {
        const body = pending.shift()!;
        sliced += body.length;
        pendingBytes -= body.length;
        bodies.push(body);
      }
      if (pending.length) parseLater();
      let added = false;
      for (const body of bodies) {
        const records = parseOtlpLogs(body, opts.keep);
        if (records === null) {
          drop("malformed");
          continue;
        }
        for (const r of records) {
          if (kept.length >= OTLP_MAX_KEPT) {
            drop("full");
            continue;
          }
          kept.push(r);
          stats.kept++;
          added = true;
        }
      }
      if (added) {
        try {
          opts.onRecords?.();
        } catch { /* the caller's trouble, never the receiver's */ }
      }
    }, 0);
    Deno.unrefTimer(parseTimer as unknown as number);
  };

  const ok = (protobuf: boolean) =>
    protobuf
      ? new Response(new Uint8Array(0), { headers: { "content-type": "application/x-protobuf" } })
      : new Response("{}", { headers: { "content-type": "application/json" } });

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const signal = _signalOf(url.pathname, secret);
    if (signal === null || req.method !== "POST") {
      stats.refused++;
      await req.body?.cancel().catch(() => {});
      return new Response(null, { status: 404 });
    }
    stats.requests++;
    const protobuf = (req.headers.get("content-type") ?? "").includes("protobuf");
    if (signal !== "logs" || protobuf) {
      if (signal === "logs") drop("protobuf");
      await req.body?.cancel().catch(() => {});
      return ok(protobuf);
    }
    if (inFlight >= maxInFlight) {
      drop("busy");
      await req.body?.cancel().catch(() => {});
      return ok(false);
    }
    inFlight++;
    try {
      const body = await _readBounded(req, maxBody);
      if (body === null) {
        drop("oversized");
        return ok(false);
      }
      if (pendingBytes + body.length > OTLP_MAX_PENDING) {
        drop("backlog");
        return ok(false);
      }
      pending.push(body);
      pendingBytes += body.length;
      parseLater();
      return ok(false);
    } catch {
      drop("malformed");
      return ok(false);
    } finally {
      inFlight--;
    }
  };

  const abort = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: abort.signal,
    onListen: () => {},
    onError: () => new Response(null, { status: 500 }),
  }, handler);
  // A receiver never keeps uuldana alive on its own.
  server.unref();
  const { port } = server.addr as Deno.NetAddr;
  return {
    endpoint: `http://127.0.0.1:${port}/${secret}`,
    events: () => {
      const out = kept;
      kept = [];
      return out;
    },
    stats,
    close: async () => {
      if (closed) return;
      closed = true;
      clearTimeout(parseTimer);
      abort.abort();
      await server.finished.catch(() => {});
    },
  };
}

/**
 * The log records of one OTLP/HTTP JSON body (`ExportLogsServiceRequest`) whose `event.name`
 * `keep` accepts, flattened; null when the body is not OTLP JSON. Never throws.
 */
export function parseOtlpLogs(
  body: Uint8Array,
  keep: (name: string) => boolean,
): OtlpLogRecord[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(_decoder.decode(body));
  } catch {
    return null;
  }
  const resources = (doc as { resourceLogs?: unknown })?.resourceLogs;
  if (!Array.isArray(resources)) return null;
  const out: OtlpLogRecord[] = [];
  let seen = 0;
  for (const res of resources) {
    const scopes = (res as { scopeLogs?: unknown })?.scopeLogs;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const records = (scope as { logRecords?: unknown })?.logRecords;
      if (!Array.isArray(records)) continue;
      for (const rec of records) {
        if (++seen > _MAX_RECORDS_PER_BODY) return out;
        const attrs = (rec as { attributes?: unknown })?.attributes;
        if (!Array.isArray(attrs)) continue;
        const name = _attr(attrs, "event.name");
        if (typeof name !== "string" || !keep(name)) continue;
        const attributes: Record<string, string | number | boolean> = {};
        for (const a of attrs) {
          const key = (a as { key?: unknown })?.key;
          if (typeof key !== "string" || key.length > 128) continue;
          const v = _value((a as { value?: unknown }).value);
          if (v !== undefined) attributes[key] = v;
        }
        out.push({ name, attributes });
      }
    }
  }
  return out;
}

function _attr(attrs: unknown[], key: string): string | number | boolean | undefined {
  const a = attrs.find((x) => (x as { key?: unknown })?.key === key) as { value?: unknown };
  return a ? _value(a.value) : undefined;
}

// An OTLP AnyValue: strings, booleans, numbers (int64 arrives as a string in OTLP JSON).
function _value(v: unknown): string | number | boolean | undefined {
  if (!v || typeof v !== "object") return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.stringValue === "string") return o.stringValue.slice(0, OTLP_MAX_VALUE);
  if (typeof o.boolValue === "boolean") return o.boolValue;
  if (typeof o.doubleValue === "number") return o.doubleValue;
  if (typeof o.intValue === "number") return o.intValue;
  if (typeof o.intValue === "string" && /^-?\d{1,16}$/.test(o.intValue)) return Number(o.intValue);
  return undefined;
}

// `/<secret>/v1/<signal>` → the signal, or null.
function _signalOf(path: string, secret: string): string | null {
  const prefix = `/${secret}/v1/`;
  if (!path.startsWith(prefix)) return null;
  const signal = path.slice(prefix.length);
  return _SIGNALS.has(signal) ? signal : null;
}

// The body, at most `max` bytes, or null when it is larger (reading stops there).
async function _readBounded(req: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await req.body?.cancel().catch(() => {});
    return null;
  }
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function _secret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
