/**
 * What a bug-report bundle holds, redacted: the recording (every secret the redactor knows
 * replaced, byte for byte, so its replay keeps its offsets), the channel events and decision
 * records (a prompt's or reply's text left out unless the user asked for the conversation), the
 * config (every value of a key that names a secret, and every secret the redactor knows), and
 * any other text. Pure.
 *
 * @module
 */
import type { ChannelEvent } from "../../adapters/channel.ts";
import type { Decision } from "../detect/decision.ts";
import { redact } from "../handoff/redact.ts";
import { redactPieces, redactShaped } from "./redact_text.ts";

/** What redacting counted. */
export interface RedactionCount {
  /** Secrets replaced. */
  secrets: number;
  /** Prompt and reply texts left out (no `--with-conversation`). */
  leftOut: number;
  /** Exact-bytes events (`b`) left out of the recording (their text, with U+FFFD, stays). */
  rawEvents: number;
  /**
   * Saved detector states (`x`) left out of the recording: they hold the screen and scrollback
   * as cells, which the redactor cannot read (the bundle's replay.json was made from them).
   */
  states: number;
}

/** Counts redactions across the parts of one bundle. */
export class Redactor {
  readonly count: RedactionCount = { secrets: 0, leftOut: 0, rawEvents: 0, states: 0 };
  /** Whether prompts, replies and other conversation text stay (redacted) or are left out. */
  readonly conversation: boolean;

  constructor(conversation: boolean) {
    this.conversation = conversation;
  }

  /** `text` without the secrets the redactor knows. */
  text(text: string): string {
    const r = redact(text);
    this.count.secrets += r.count;
    return r.text;
  }

  /** `text` without them, its length in bytes kept. */
  shaped(text: string): string {
    const r = redactShaped(text);
    this.count.secrets += r.count;
    return r.text;
  }

  /** A channel event: its conversation text left out (or redacted), its messages redacted. */
  event(event: ChannelEvent): ChannelEvent {
    switch (event.type) {
      case "prompt":
      case "reply":
        if (this.conversation) return { ...event, text: this.text(event.text) };
        this.count.leftOut++;
        return { ...event, text: `[left out: ${event.text.length} characters]` };
      case "limit":
        return { ...event, message: this.shaped(event.message) };
      case "error":
        return { ...event, message: this.text(event.message) };
      case "session":
        return event.detail === undefined ? event : { ...event, detail: this.text(event.detail) };
      default:
        return event;
    }
  }

  /** A decision record: its limit message redacted, its event as {@link event}. */
  decision(d: Decision): Decision {
    return {
      ...d,
      ...(d.hit ? { hit: { ...d.hit, message: this.shaped(d.hit.message) } } : {}),
      ...(d.why ? { why: this.text(d.why) } : {}),
      ...(d.event ? { event: this.event(d.event) } : {}),
    };
  }

  /**
   * A recording (asciicast text, see src/detect/cast.ts): output events redacted as one text,
   * each keeping its length in bytes; exact-bytes events and saved states left out; channel events as
   * {@link event}. Times, resizes, the end: as they were.
   */
  cast(text: string): string {
    const lines = text.split("\n");
    const outputs: { line: number; time: string; text: string }[] = [];
    const out: (string | null)[] = [...lines];
    for (let i = 1; i < lines.length; i++) {
      const event = _event(lines[i]);
      if (!event) continue;
      const [time, code, data] = event;
      if (code === "o" && typeof data === "string") outputs.push({ line: i, time, text: data });
      else if (code === "b") {
        out[i] = null;
        this.count.rawEvents++;
      } else if (code === "x") {
        out[i] = null;
        this.count.states++;
      } else if (code === "c" && data && typeof data === "object") {
        out[i] = `[${time},"c",${JSON.stringify(this.event(data as ChannelEvent))}]`;
      }
    }
    const redacted = redactPieces(outputs.map((o) => o.text));
    this.count.secrets += redacted.count;
    outputs.forEach((o, k) => {
      out[o.line] = `[${o.time},"o",${JSON.stringify(redacted.pieces[k])}]`;
    });
    return out.filter((l): l is string => l !== null).join("\n");
  }

  /**
   * A JSON value (the config): every string under a key that names a secret replaced whole, the
   * secrets the redactor knows in every other string; an argument after a flag that names one
   * (`--api-key VALUE`) too.
   */
  json(value: unknown, key = ""): unknown {
    if (typeof value === "string") {
      if (_SECRET_NAME.test(key) && value !== "") {
        this.count.secrets++;
        return "[REDACTED:config-value]";
      }
      return this.text(value);
    }
    if (Array.isArray(value)) {
      return value.map((v, i) => {
        const flag = typeof value[i - 1] === "string" && /^--?[\w-]+$/.test(value[i - 1]);
        return this.json(v, flag ? value[i - 1] : key);
      });
    }
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.json(v, k)]));
    }
    return value;
  }
}

// Names of config keys, environment variables and flags whose value is a secret.
const _SECRET_NAME = /key|token|secret|passw|pwd|auth|cred|cookie|session/i;

function _event(line: string): [string, string, unknown] | null {
  const m = /^\[([0-9.]+),\s*"([^"]*)",/.exec(line);
  if (!m) return null;
  try {
    const e = JSON.parse(line);
    return Array.isArray(e) ? [m[1], m[2], e[2]] : null;
  } catch {
    return null;
  }
}
