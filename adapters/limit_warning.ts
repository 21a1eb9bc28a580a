/**
 * Whether a text an agent drew is one of its usage warnings ("You've used 90% of your 5-hour limit
 * · resets 3pm", Codex's "Heads up, you have less than 10% of your weekly limit left"), with the
 * reset it states: what the limit ledger keeps as *near its limit* (src/chain/limits.ts). The
 * warnings never fire as limits (the detectors veto them); this only names them.
 *
 * The texts are the warnings the detectors already veto (limit_messages.ts) and the ones the
 * agents' packages show (Claude Code 2.1.332's `Ai()`: "You've used N% of your …", "Over N% of
 * your … used", "Approaching …", its overage "You're close to your …"; Codex 0.171.0's "less than
 * N% of your … limit left"). Once the classified data (`adapters/limits/<agent>.json`) has its
 * loader, {@linkcode warningIn} becomes that loader's function of the same name and signature.
 * Pure.
 *
 * @module
 */
import { readResetTime } from "./reset_time.ts";

/** A usage warning an agent showed: which message, and the reset it states. */
export interface LimitWarning {
  /** Which of the agent's warnings it is. */
  id: string;
  /** The text as shown. */
  message: string;
  /** The reset it states (ISO-8601, UTC), or null. */
  resetsAt: string | null;
}

const _WARNINGS: Readonly<Record<string, readonly { id: string; re: RegExp }[]>> = {
  claude: [
    { id: "used-percent", re: /^You['’]ve used \d+% of\b/ },
    { id: "over-percent", re: /^Over \d+% of your [\w -]+ used\b/ },
    { id: "approaching", re: /^Approaching\b/i },
    { id: "close-to", re: /^You['’]re close to your [\w -]*limit\b/ },
  ],
  codex: [
    { id: "limit-left", re: /\bless than \d+% of your [\w -]*limit left\b/i },
  ],
};

/**
 * The usage warning `text` is on `surface` of `agent`'s screen (for its detector's surfaces: where
 * it draws the text), with its reset read against `now` in `timeZone`; null when it is not one.
 */
export function warningIn(
  agent: string,
  _surface: string,
  text: string,
  now: Date,
  timeZone?: string,
): LimitWarning | null {
  const found = _WARNINGS[agent]?.find((w) => w.re.test(text));
  if (!found) return null;
  return { id: found.id, message: text, resetsAt: readResetTime(text, now, timeZone).at };
}
