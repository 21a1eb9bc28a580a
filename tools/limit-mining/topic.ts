/**
 * Which texts the miner keeps: sentences a person could be shown about usage limits, quotas,
 * credits, spend, plans, capacity, rate limits, retries and usage warnings. Words decide only what
 * is a candidate; what a candidate means is decided by a person reading the code that shows it.
 *
 * @module
 */

/** The topic's words (a candidate names at least one). */
export const TOPIC: RegExp = new RegExp(
  [
    String.raw`\b(?:usage|quotas?|credits?|spend(?:ing)?|billing|capacity|overloaded|overage`,
    String.raw`exhausted|funds|seat|subscription|allowance|budget|entitlement|premium requests?`,
    String
      .raw`rate[- ]?limit(?:ed|s)?|retrying|retry (?:in|after|attempts?|failed)|retries|after \S+ attempts|limits? (?:reached|hit|exceeded|resets?)`,
    String.raw`(?:hit|reached|exceeded) (?:your|the|a) (?:[\w-]+ ){0,2}limit`,
    String
      .raw`resets? (?:at|in|on)|too many requests|high (?:demand|load)|try again (?:at|in|later)`,
    String
      .raw`your plan|plan['’]s|upgrade (?:to|your)|429|529|RESOURCE_EXHAUSTED|insufficient_quota`,
    // warnings and fallbacks whose topic word is a fill: "Over ${pct}% of your ${limit} used"
    String
      .raw`% of your|close to your|now using|you['’]ve used|disabled for your org|you['’](?:ve hit|ve reached) your|you['’]re out of)\b`,
  ].join("|"),
  "i",
);

const MIN_LENGTH = 12;
const MAX_LENGTH = 600;

/**
 * True if `text` is a user-visible sentence on the topic: words with spaces, letters in lower
 * case, little code punctuation, not a URL or an identifier.
 */
export function isTopicText(text: string): boolean {
  const t = text.trim();
  if (t.length < MIN_LENGTH || t.length > MAX_LENGTH) return false;
  const prose = t.replace(/\$\{[^}]*\}/g, "x");
  if (!TOPIC.test(t) && !TOPIC.test(prose)) return false;
  if ((prose.match(/ /g) ?? []).length < 2) return false;
  if (!/[a-z]{3}/.test(prose)) return false;
  if ((prose.match(/[;{}=<>|&]|=>|\bfunction\b|\breturn\b/g) ?? []).length > 2) return false;
  if (/^(?:https?:|\/|\.\/|@|#|--?\w)/.test(t)) return false;
  if (/^\s*(?:\*|\/\/)/.test(t)) return false; // a doc comment kept in a binary
  if (/\bUsage:/.test(t)) return false; // a command's usage line
  return true;
}
