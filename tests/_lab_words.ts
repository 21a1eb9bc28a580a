/**
 * Words that speak of the project's own test machines, never of the user's: what uuldana prints
 * runs on the user's machine, so "here" and "this machine" there would describe ours (issue 32:
 * "there is no Augment account here"). The user's machine is "your machine"; what uuldana's tests
 * could not run is "not tested by uuldana: …".
 *
 * @module
 */

/** Each pattern, with why it is a lab word. */
export const LAB_WORDS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\bhere\b/i, why: '"here" on the user\'s screen is ambiguous: say "your machine"' },
  { pattern: /\bthis machine\b/i, why: 'say "your machine"' },
  { pattern: /\btest (?:machines?|lab)\b/i, why: "the project's machines are not the user's" },
  {
    pattern: /\b(?:tests?|we) (?:have|has) no\b/i,
    why: "what the project lacks is not the user's",
  },
  { pattern: /\bour (?:machine|lab|tests?)\b/i, why: "the user does not share our machines" },
  { pattern: /\breaches only\b/i, why: "a network of the project's, not the user's" },
  {
    pattern: /\bnot run for real\b/i,
    why: 'what uuldana could not run is "not tested by uuldana"',
  },
];

/** Every line of `text` that says a lab word, with the word and why (empty: none). */
export function labWords(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split("\n")) {
    for (const { pattern, why } of LAB_WORDS) {
      const m = pattern.exec(line);
      if (m) found.push(`"${m[0]}" in: ${line.trim()} (${why})`);
    }
  }
  return found;
}
