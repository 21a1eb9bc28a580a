import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { expectedOf, numberRanges, type Spec, SpecError, validate } from "./spec.ts";

const SPEC: Spec = {
  type: "object",
  description: "test",
  properties: {
    n: { type: "number", description: "", min: 0.1, max: 60, default: 2 },
    flag: { type: "boolean", description: "", default: false },
    list: { type: "strings", description: "", nonEmptyItems: true, default: ["a"] },
    kind: { type: "enum", description: "", values: ["x", "y"] },
    by: {
      type: "map",
      description: "",
      values: {
        type: "object",
        description: "",
        properties: { env: { type: "stringMap", description: "", default: {} } },
      },
    },
  },
};

function failure(value: unknown): SpecError {
  try {
    validate(SPEC, value, "(top level)");
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error("no failure");
}

Deno.test("validate fills in defaults, keeps given values, ignores $schema", () => {
  assertEquals(validate(SPEC, { $schema: "./s.json" }, "(top level)"), {
    n: 2,
    flag: false,
    list: ["a"],
  });
  assertEquals(
    validate(SPEC, { n: 60, kind: "y", by: { k: {} }, list: [] }, "(top level)"),
    { n: 60, flag: false, list: [], kind: "y", by: { k: { env: {} } } },
  );
});

Deno.test("a failure names the dotted key, what it must be and what it was", () => {
  const cases: [unknown, string][] = [
    [{ n: 0 }, `"n" must be a number from 0.1 to 60, got 0`],
    [{ n: 61 }, `"n" must be a number from 0.1 to 60, got 61`],
    [{ n: "1" }, `"n" must be a number from 0.1 to 60, got string`],
    [{ list: [""] }, `"list" must be an array of strings, got array`],
    [{ kind: "z" }, `"kind" must be one of "x", "y", got string`],
    [{ by: { k: { env: { A: 1 } } } }, `"by.k.env" must be an object of string values, got object`],
    [{ by: { k: [] } }, `"by.k" must be an object, got array`],
    [null, `"(top level)" must be an object, got null`],
  ];
  for (const [value, message] of cases) assertEquals(failure(value).message, message);
  const unknown = failure({ by: { k: { colour: 1 } } });
  assertEquals([unknown.message, unknown.known], [`unknown key "by.k.colour"`, ["env"]]);
});

Deno.test("the wording of what a value must be", () => {
  assertEquals(expectedOf({ type: "number", description: "", above: 0 }), "a positive number");
  assertEquals(
    expectedOf({ type: "string", description: "", nonEmpty: true }),
    "a non-empty string",
  );
  assertEquals(expectedOf({ type: "boolean", description: "" }), "true or false");
  throws(() => validate({ type: "number", description: "", above: 0 }, 0, "q"), SpecError);
});

Deno.test("the ranges of the numbers, by key, and the unit in the message", () => {
  assertEquals(numberRanges(SPEC), { n: [0.1, 60] });
  const seconds: Spec = { type: "number", description: "", min: 1, max: 5, unit: "seconds" };
  assertEquals(expectedOf(seconds), "a number from 1 to 5 (seconds)");
  throws(() => validate(seconds, Infinity, "t"), /got Infinity/);
});
