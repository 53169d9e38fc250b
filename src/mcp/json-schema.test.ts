import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { compileArguments } from "./json-schema.js";

const compiled = (schema: unknown) => {
  const result = compileArguments(schema);
  if (!result.ok) throw new Error(`expected the schema to compile: ${result.error}`);
  return result.validate;
};
const problems = (schema: unknown, value: unknown) => {
  const result = compiled(schema)(value);
  return result.ok ? [] : result.problems;
};

/** A ticket tool as a server might describe it: nested objects, enums, no extra arguments. */
const TICKET = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    priority: { type: "string", enum: ["low", "high"] },
    owner: {
      type: "object",
      properties: { email: { type: "string", format: "email" }, team: { type: "string" } },
      required: ["email"],
      additionalProperties: false,
    },
    labels: { type: "array", items: { type: "string" } },
    estimate: { type: "integer", minimum: 0 },
  },
  required: ["title", "priority"],
  additionalProperties: false,
};

describe("MCP argument schemas (ajv)", () => {
  it("passes arguments that match, and leaves them as they are", () => {
    const value = { title: "x", priority: "low", owner: { email: "a@b.co" }, labels: ["bug"], estimate: 2 };
    assert.deepEqual(compiled(TICKET)(value), { ok: true });
    assert.deepEqual(value, { title: "x", priority: "low", owner: { email: "a@b.co" }, labels: ["bug"], estimate: 2 });
  });

  it("lists every problem with its path: missing, enum, extra, nested, array items, formats", () => {
    assert.deepEqual(
      problems(TICKET, {
        priority: "urgent",
        owner: { email: "not an address", phone: "1" },
        labels: ["ok", 3],
        estimate: -1,
        assignee: "me",
      }),
      [
        "title: missing (required)",
        '(arguments): unknown argument "assignee"',
        'priority: must be one of "low", "high"',
        'owner: unknown argument "phone"',
        'owner.email: must match format "email"',
        "labels.1: must be string",
        "estimate: must be >= 0",
      ],
    );
    assert.deepEqual(problems(TICKET, "title"), ["(arguments): must be object"]);
  });

  it("reads path segments back from JSON pointers", () => {
    const schema = {
      type: "object",
      properties: { "a/b": { type: "object", properties: { "c~d": { type: "number" } } } },
    };
    assert.deepEqual(problems(schema, { "a/b": { "c~d": "1" } }), ["a/b.c~d: must be number"]);
  });

  it("checks what zod cannot read: if/then, dependentRequired, and 2020-12's unevaluatedProperties and prefixItems", () => {
    const conditional = {
      type: "object",
      properties: { kind: { enum: ["file", "url"] }, path: { type: "string" }, url: { type: "string" } },
      if: { properties: { kind: { const: "url" } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a promise
      then: { required: ["url"] },
      else: { required: ["path"] },
    };
    assert.throws(() => z.fromJSONSchema(conditional as never), "zod cannot read it (it used to pass anything)");
    assert.deepEqual(problems(conditional, { kind: "url", path: "/etc/passwd" }), [
      "url: missing (required)",
      '(arguments): must match "then" schema',
    ]);
    assert.deepEqual(problems(conditional, { kind: "file", path: "a" }), []);

    const modern = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        at: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
        name: { type: "string" },
      },
      dependentRequired: { name: ["at"] },
      unevaluatedProperties: false,
    };
    assert.deepEqual(problems(modern, { at: [1, 2], name: "x" }), []);
    assert.deepEqual(problems(modern, { at: [1, 2, 3], name: "x", extra: true }), [
      "at: must NOT have more than 2 items",
      "(arguments): must NOT have unevaluated properties",
    ]);
    assert.deepEqual(problems(modern, { name: "x" }), [
      "(arguments): must have property at when property name is present",
    ]);
  });

  it("ignores keywords it does not know, as JSON Schema says (a server's own annotations)", () => {
    const schema = {
      type: "object",
      "x-ui": { widget: "text" },
      properties: { q: { type: "string", markdownDescription: "d" } },
    };
    assert.deepEqual(problems(schema, { q: "a" }), []);
    assert.deepEqual(problems(schema, { q: 1 }), ["q: must be string"]);
  });

  it("compiles tools of different servers that share an $id, each against its own schema", () => {
    const one = compiled({ $id: "https://example.com/args", type: "object", properties: { n: { type: "number" } } });
    const two = compiled({ $id: "https://example.com/args", type: "object", properties: { n: { type: "string" } } });
    assert.deepEqual(
      [one({ n: 1 }).ok, one({ n: "1" }).ok, two({ n: "1" }).ok, two({ n: 1 }).ok],
      [true, false, true, false],
    );
  });

  it("does not compile a broken schema, and says why", () => {
    const broken: Array<[unknown, RegExp]> = [
      [{ type: "object", properties: { a: { type: "strng" } } }, /schema is invalid: data\/properties\/a\/type/],
      [
        { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
        /can't resolve reference #\/\$defs\/missing/,
      ],
      [{ $schema: "http://json-schema.org/draft-04/schema#", type: "object" }, /draft-04/],
      [{ type: "object", required: "title" }, /schema is invalid: data\/required must be array/],
      [["not", "an", "object"], /not a JSON object/],
      [null, /not a JSON object/],
    ];
    for (const [schema, why] of broken) {
      const result = compileArguments(schema);
      assert.equal(result.ok, false, JSON.stringify(schema));
      assert.match(result.ok ? "" : result.error, why);
    }
  });

  it("a server's catastrophic pattern is bounded: the arguments are refused in time, never matched for ever", () => {
    const validate = compiled({
      type: "object",
      properties: { q: { type: "string", pattern: "^(a|a)+$" } },
      patternProperties: { "^(b|b)+$": { type: "number" } },
    });
    const started = Date.now();
    const result = validate({ q: `${"a".repeat(40)}!` });
    assert.equal(result.ok, false);
    assert.match(result.ok ? "" : result.problems.join("\n"), /took over \d+ ms to match/);
    const key = validate({ [`${"b".repeat(40)}!`]: "x" });
    assert.equal(key.ok, false);
    assert.ok(Date.now() - started < 5_000, "bounded");
    assert.deepEqual(validate({ q: "aaa", bb: 1 }), { ok: true }, "a pattern that matches in time still applies");
  });
});
