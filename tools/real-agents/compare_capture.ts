/**
 * Compares what the model received (the mock's last conversation request) with what uuldana's
 * journal recorded (`uuldana show RUN --json`) and with the handoff the next agent was given (the
 * simulated Codex's log), and prints N of M exact: the user's messages, and the model's replies
 * the handoff carries. Exit 1 when a message is missing, changed or out of order in the journal
 * or the handoff, or when a reply newer than the oldest one carried is missing or changed (the
 * handoff drops whole oldest entries to fit its cap, never one in the middle). `--replies N`:
 * exit 1 too when fewer than N replies are carried.
 *
 *   deno run -A compare_capture.ts REQUESTS.jsonl SHOW.json CODEX.log [--replies N]
 *
 * @module
 */
import { assistantTurns, type Message, unwrapPastes, userTexts } from "./anthropic_messages.ts";

const [requestsFile, showFile, codexLog] = Deno.args;
const minReplies = Deno.args.includes("--replies")
  ? Number(Deno.args[Deno.args.indexOf("--replies") + 1])
  : 0;
const requests = Deno.readTextFileSync(requestsFile).trim().split("\n").map((l) => JSON.parse(l));
const lastMessages = requests.at(-1).messages as Message[];
// Claude 2.1.332 sends a paste wrapped in its own `<pasted_content id="N">` tags: the user's text
// is what they hold.
const model = userTexts(lastMessages).map(unwrapPastes);
const show = JSON.parse(Deno.readTextFileSync(showFile));
const journal: { text: string; certainty: string | null }[] = show.entries.filter((
  e: { role: string },
) => e.role === "user");
const start = Deno.readTextFileSync(codexLog).trim().split("\n").map((l) => JSON.parse(l))
  .find((e) => e.event === "start" && e.mode === "tui");
const prompt = String(start?.prompt ?? "");
const body =
  /----- BEGIN UULDANA HANDOFF ([0-9a-f]+) -----\n([\s\S]*)\n----- END UULDANA HANDOFF \1 -----/
    .exec(prompt)?.[2] ?? "";
const conversation = body.slice(body.search(/^Conversation so far/m)).split(
  /\n\n(?=(?:User|Agent): )/,
).slice(1).map((p) => {
  const m = /^(User|Agent): ([\s\S]*)$/.exec(p)!;
  return { role: m[1], text: m[2].replace(/\n {2}/g, "\n") };
});
const handed = conversation.filter((e) => e.role === "User").map((e) => e.text);
const original = /Original request[^\n]*\n {2}([\s\S]*?)\n(?:\S|$)/.exec(body)?.[1]
  ?.replace(/\n {2}/g, "\n");

const short = (s: string | undefined) =>
  s === undefined ? "(none)" : JSON.stringify(s.length > 70 ? s.slice(0, 67) + "…" : s);
let exact = 0;
let inHandoff = 0;
const problems: string[] = [];
console.log(`model received ${model.length} user messages; the journal has ${journal.length}`);
for (let i = 0; i < Math.max(model.length, journal.length); i++) {
  const m = model[i];
  const j = journal[i];
  const same = m !== undefined && j !== undefined && j.text === m;
  if (same && j.certainty !== "best-effort") exact++;
  const h = handed.indexOf(m?.trimEnd() ?? "\0") >= 0;
  if (h) inHandoff++;
  console.log(
    `${same ? "ok  " : "DIFF"} ${String(i + 1).padStart(2)} [${j?.certainty ?? "-"}] ${short(m)}${
      same ? "" : ` journal: ${short(j?.text)}`
    }${h ? "" : " (not in the handoff)"}`,
  );
  if (!same) problems.push(`message ${i + 1} differs`);
}
const order = conversation.map((e) => e.role[0]).join("");
const texts = journal.map((e) => e.text);
console.log(
  `journal, order aside: ${model.filter((m) => texts.includes(m)).length} of ${model.length} ` +
    `found exactly; ${
      texts.filter((t) => !model.includes(t)).length
    } turns the model never received`,
);
const by = (c: string) => journal.filter((e, i) => e.certainty === c && e.text === model[i]).length;
console.log(
  `journal: ${exact} of ${model.length} user messages identical and in order ` +
    `(${by("exact")} exact, ${by("reconstructed")} reconstructed from the input box; ` +
    `${journal.filter((e) => e.certainty === "best-effort").length} best effort)`,
);
console.log(`handoff: ${inHandoff} of ${model.length} as User entries; roles in order: ${order}`);
console.log(`original request: ${short(original)} (model's first: ${short(model[0])})`);
console.log(`limit menu carried: ${body.includes("/rate-limit-options") ? "YES" : "no"}`);

// The replies: each turn's text blocks as the model sent them (the history Claude sent back),
// against the handoff's Agent entries, each taken as the answer to the User entry before it.
const turns = assistantTurns(lastMessages);
const answerOf: Map<number, string[]> = new Map();
// Matched from the newest entry back: the handoff keeps the newest part of the conversation, and
// a repeated text ("explain it" twice) belongs to the later turn.
let turn = model.length;
let pending: string[] = [];
for (const e of [...conversation].reverse()) {
  if (e.role === "Agent") {
    pending.push(e.text);
    continue;
  }
  let i = turn - 1;
  while (i >= 0 && model[i].trimEnd() !== e.text.trimEnd()) i--;
  if (i < 0) continue;
  turn = i;
  answerOf.set(i, pending.reverse());
  pending = [];
}
const has = (i: number, blocks: string[]) =>
  blocks.every((b) => (answerOf.get(i) ?? []).some((a) => a.includes(b)));
const carried = turns.map((blocks, i) => blocks.length > 0 && has(i, blocks));
const misplaced = turns.map((blocks, i) =>
  !carried[i] && blocks.length > 0 &&
    [...answerOf.entries()].some(([k, as]) =>
      k !== i && blocks.every((b) => as.some((a) => a.includes(b)))
    )
    ? i + 1
    : 0
).filter((i) => i);
const oldest = carried.indexOf(true);
const gaps = oldest < 0
  ? []
  : carried.map((c, i) => (!c && i > oldest && turns[i].length > 0 ? i + 1 : 0)).filter((i) => i);
const withText = turns.filter((t) => t.length > 0).length;
console.log(
  `replies: ${carried.filter((c) => c).length} of ${withText} turns' replies carried whole under ` +
    `their turn` + (oldest > 0 ? ` (the oldest left out to fit the cap)` : "") +
    (gaps.length ? `; MISSING newer ones: ${gaps.join(", ")}` : "") +
    (misplaced.length ? `; under another turn: ${misplaced.join(", ")}` : ""),
);
if (gaps.length) problems.push(`replies ${gaps.join(", ")} not under their turn in the handoff`);
if (carried.filter((c) => c).length < minReplies) {
  problems.push(`only ${carried.filter((c) => c).length} replies carried (want ${minReplies})`);
}
if (original?.trim() !== model[0]?.trim()) problems.push("the original request is not the first");
if (body.includes("/rate-limit-options")) problems.push("the limit menu was carried");
if (problems.length) {
  console.log(`problems: ${problems.join("; ")}`);
  Deno.exit(1);
}
