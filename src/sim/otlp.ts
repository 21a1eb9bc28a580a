/**
 * The simulated agents' OpenTelemetry logs, as Qwen Code 0.24.4 exports them with
 * `telemetry.otlpProtocol: "http"`: log records batched (its BatchLogRecordProcessor: one post
 * about every second, `SIM_OTLP_BATCH_MS`) and posted as OTLP JSON to `<endpoint>/v1/logs`. Like
 * the real exporter it never holds the agent up: a post runs beside the session, with a timeout,
 * and a failure (nobody listening any more) is dropped.
 *
 * @module
 */
import { envInt } from "./env.ts";

type Attributes = Record<string, string | number>;

/** Batches log records and posts them to an OTLP/HTTP endpoint. */
export class SimOtlpLogs {
  readonly #url: string;
  readonly #batchMs: number;
  #queue: Attributes[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `endpoint`: the base OTLP endpoint (`http://host:port/prefix`). */
  constructor(endpoint: string) {
    this.#url = `${endpoint.replace(/\/+$/, "")}/v1/logs`;
    this.#batchMs = envInt("SIM_OTLP_BATCH_MS", 1000);
  }

  /** Queues one log record (`event.name` among its attributes); posted with the next batch. */
  emit(attributes: Attributes): void {
    this.#queue.push({ ...attributes, "event.timestamp": new Date().toISOString() });
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#flush(), this.#batchMs);
  }

  #flush(): void {
    this.#timer = undefined;
    const records = this.#queue;
    this.#queue = [];
    if (!records.length) return;
    const body = JSON.stringify({
      resourceLogs: [{
        resource: { attributes: [_attr("service.name", "qwen-code")] },
        scopeLogs: [{
          scope: { name: "qwen-code" },
          logRecords: records.map((r) => ({
            timeUnixNano: `${Date.now()}000000`,
            body: { stringValue: String(r["event.name"]) },
            attributes: Object.entries(r).map(([k, v]) => _attr(k, v)),
          })),
        }],
      }],
    });
    fetch(this.#url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
      signal: AbortSignal.timeout(2000),
    }).then((r) => r.body?.cancel(), () => {});
  }
}

function _attr(key: string, v: string | number) {
  return { key, value: typeof v === "number" ? { intValue: v } : { stringValue: v } };
}
