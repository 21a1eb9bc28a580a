import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Candidate } from "./candidates.ts";
import { diffData, diffReleases, shape } from "./release_diff.ts";

function candidate(text: string): Candidate {
  return { text, file: "cli.js", offset: 0, code: "", count: 1 };
}

Deno.test("fills compare equal whatever the minifier named them", () => {
  assertEquals(shape("resets ${H} (${q})"), shape("resets ${time} (${zone})"));
});

Deno.test("a release's candidates against the previous: new, reworded, gone", () => {
  const d = diffReleases(
    ["You've hit your limit · resets ${a}", "Credit balance too low", "Usage is paused"],
    [
      "You've hit your limit · resets ${b}",
      "Credit balance is too low",
      "Your org is out of usage",
    ],
  );
  assertEquals(d, {
    added: ["Your org is out of usage"],
    changed: [{ before: "Credit balance too low", after: "Credit balance is too low" }],
    removed: ["Usage is paused"],
  });
});

Deno.test("classified messages against a release: reworded, no longer shipped, reported kept", () => {
  const messages = [
    {
      id: "a",
      class: "hard",
      template: "You've hit your limit · resets ${time}",
      match: "^You've hit",
    },
    { id: "b", class: "hard", template: "Your org is out of usage", match: "^Your org is out" },
    { id: "c", class: "hard", template: "Usage is paused", match: "^Usage is paused" },
    {
      id: "d",
      class: "hard",
      template: "Claude usage limit reached.",
      match: "^Claude usage",
      source: { reported: "x/y#1" },
    },
  ];
  const d = diffData(messages, [
    candidate("You've hit your limit · resets ${H}"),
    candidate("Your organization is out of usage"),
    candidate("Fast limit reached"),
  ]);
  assertEquals(d.changed, [{
    id: "b",
    template: "Your org is out of usage",
    now: "Your organization is out of usage",
  }]);
  assertEquals(d.removed, [{ id: "c", template: "Usage is paused" }]);
  assertEquals(d.unclassified, ["Your organization is out of usage", "Fast limit reached"]);
});

Deno.test("a message is still shipped when its source's code shows the release's literal", () => {
  const d = diffData([{
    id: "seat",
    class: "hard",
    template: "Your seat type doesn't include ${usage credits|usage}",
    match: "^Your seat type doesn't include\\b",
    source: { code: 'return`Your seat type doesn\'t include ${o?"usage":"usage credits"}`' },
  }], [candidate('Your seat type doesn\'t include ${o?"usage":"usage credits"}')]);
  assertEquals(d, { changed: [], removed: [], unclassified: [] });
});
