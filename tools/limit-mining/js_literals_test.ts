import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type JsLiteral, scanJsLiterals } from "./js_literals.ts";

const enc = new TextEncoder();

function literals(src: string): JsLiteral[] {
  const found: JsLiteral[] = [];
  scanJsLiterals(enc.encode(src), (l) => found.push(l));
  return found;
}

Deno.test("strings keep their escapes resolved: Bun writes · and ’ as \\xB7 and \\u2019", () => {
  const src = String.raw`var a=["Your org is out of usage \xB7 add funds","You\u2019ve hit it"];`;
  assertEquals(literals(src).map((l) => l.value), [
    "Your org is out of usage · add funds",
    "You’ve hit it",
  ]);
});

Deno.test("offsets are byte offsets of the opening quote, UTF-8 text decoded as UTF-8", () => {
  const src = `x="·";y='You’re out of credits'`;
  const [first, second] = literals(src);
  assertEquals(first.value, "·");
  assertEquals(second.value, "You’re out of credits");
  assertEquals(second.start, enc.encode(`x="·";y=`).length);
  assertEquals(second.end, enc.encode(src).length);
});

Deno.test("a template keeps its fills as ${expr}, nested templates and strings included", () => {
  const src = 'f(`Try again in ~${mins} min.${when ? `, at ${fmt("h:mm")}` : ""}`)';
  assertEquals(
    literals(src)[0].value,
    'Try again in ~${mins} min.${when ? `, at ${fmt("h:mm")}` : ""}',
  );
});

Deno.test("quotes inside regexes and comments do not start strings", () => {
  const src = [
    `let r=/["'\`]/g, s = a / b / c; // don't`,
    `/* it's */ x = "limit reached";`,
    `if(r.test(q))return/'x'/.source;`,
  ].join("\n");
  assertEquals(literals(src).map((l) => l.value), ["limit reached"]);
});

Deno.test("an unterminated string is dropped and lexing goes on", () => {
  assertEquals(literals(`a = "broken\nb = 'ok'`).map((l) => l.value), ["ok"]);
});
