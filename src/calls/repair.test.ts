import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { editTool } from "../tools/edit.js";
import { readTool } from "../tools/read.js";
import { shellTool } from "../tools/shell.js";
import { repairArguments } from "./repair.js";

/** A schema with every kind of field a repair can touch, and some it must not. */
const schema = z.strictObject({
  text: z.string().optional(),
  count: z.number().optional(),
  whole: z.int().optional(),
  flag: z.boolean().optional(),
  withDefault: z.boolean().default(false),
  list: z.array(z.string()).optional(),
  numbers: z.array(z.number()).optional(),
  options: z.object({ depth: z.number() }).optional(),
  env: z.record(z.string(), z.string()).optional(),
  maybe: z.number().nullable().optional(),
});

const repair = (value: unknown) => repairArguments(value, schema);

describe("repairArguments: whole arguments", () => {
  it("parses arguments sent as a JSON string of an object", () => {
    const before = '{"path": "a.txt", "limit": 5}';
    assert.deepEqual(repairArguments(before, readTool.schema), {
      value: { path: "a.txt", limit: 5 },
      repairs: [{ path: "(arguments)", kind: "stringified JSON", before, after: { path: "a.txt", limit: 5 } }],
    });
  });

  it("then repairs the properties of the parsed object, each reported", () => {
    const before = '{"path": "a.txt", "offset": "2"}';
    const result = repairArguments(before, readTool.schema);
    assert.deepEqual(result.value, { path: "a.txt", offset: 2 });
    assert.deepEqual(result.repairs, [
      { path: "(arguments)", kind: "stringified JSON", before, after: { path: "a.txt", offset: "2" } },
      { path: "offset", kind: "number from string", before: "2", after: 2 },
    ]);
  });

  it("leaves a string that is not a JSON object alone", () => {
    for (const value of ["[1, 2]", '"a"', "42", "{broken", "plain words", ""]) {
      assert.deepEqual(repairArguments(value, readTool.schema), { value, repairs: [] }, value);
    }
  });

  it("leaves non-objects and a non-object schema alone", () => {
    assert.deepEqual(repair([1]), { value: [1], repairs: [] });
    assert.deepEqual(repair(null), { value: null, repairs: [] });
    assert.deepEqual(repairArguments({ a: "1" }, z.string()), { value: { a: "1" }, repairs: [] });
  });
});

describe("repairArguments: properties", () => {
  it("parses a property sent as a stringified object where an object belongs", () => {
    assert.deepEqual(repair({ options: '{"depth": 2}' }), {
      value: { options: { depth: 2 } },
      repairs: [{ path: "options", kind: "stringified JSON", before: '{"depth": 2}', after: { depth: 2 } }],
    });
    assert.deepEqual(repair({ env: '{"A": "1"}' }).value, { env: { A: "1" } });
  });

  it("parses a property sent as a stringified array where an array belongs", () => {
    assert.deepEqual(repair({ list: '["a", "b"]' }), {
      value: { list: ["a", "b"] },
      repairs: [{ path: "list", kind: "stringified JSON", before: '["a", "b"]', after: ["a", "b"] }],
    });
  });

  it("does not take a stringified array for an object, or an object for an array", () => {
    assert.deepEqual(repair({ options: "[1, 2]" }), { value: { options: "[1, 2]" }, repairs: [] });
    assert.deepEqual(repair({ list: '{"a": 1}' }), { value: { list: '{"a": 1}' }, repairs: [] });
    assert.deepEqual(repair({ options: "null" }), { value: { options: "null" }, repairs: [] });
  });

  it("reads numbers sent as strings: whole, negative, decimal, padded", () => {
    const cases: Array<[string, number]> = [
      ["12", 12],
      ["-3", -3],
      ["1.5", 1.5],
      ["-0.25", -0.25],
      [" 7 ", 7],
      ["0", 0],
    ];
    for (const [before, after] of cases) {
      assert.deepEqual(repair({ count: before }), {
        value: { count: after },
        repairs: [{ path: "count", kind: "number from string", before, after }],
      });
    }
    assert.deepEqual(repair({ whole: "40" }).value, { whole: 40 });
    assert.deepEqual(repair({ maybe: "5" }).value, { maybe: 5 });
  });

  it("does not guess at numbers that are not plainly numbers", () => {
    for (const before of ["12abc", "abc", "", "1e3", "1.", ".5", "+4", "0x10", "Infinity", "NaN", "1,000", "--1"]) {
      assert.deepEqual(repair({ count: before }), { value: { count: before }, repairs: [] }, before);
    }
  });

  it("reads booleans sent as the strings true and false", () => {
    assert.deepEqual(repair({ flag: "true" }), {
      value: { flag: true },
      repairs: [{ path: "flag", kind: "boolean from string", before: "true", after: true }],
    });
    assert.deepEqual(repair({ flag: "false" }), {
      value: { flag: false },
      repairs: [{ path: "flag", kind: "boolean from string", before: "false", after: false }],
    });
    assert.deepEqual(repair({ withDefault: "true" }).value, { withDefault: true });
    for (const before of ["TRUE", "yes", "1", "0", "no", ""]) {
      assert.deepEqual(repair({ flag: before }), { value: { flag: before }, repairs: [] }, before);
    }
  });

  it("wraps a lone value where an array belongs", () => {
    assert.deepEqual(repair({ list: "src/a.ts" }), {
      value: { list: ["src/a.ts"] },
      repairs: [{ path: "list", kind: "lone value to array", before: "src/a.ts", after: ["src/a.ts"] }],
    });
    assert.deepEqual(repair({ numbers: 4 }), {
      value: { numbers: [4] },
      repairs: [{ path: "numbers", kind: "lone value to array", before: 4, after: [4] }],
    });
  });

  it("does not wrap broken JSON meant as an array, nor null", () => {
    for (const before of ['["a", "b"', "[", '  ["a"', '{"a": 1']) {
      assert.deepEqual(repair({ list: before }), { value: { list: before }, repairs: [] }, before);
    }
    assert.deepEqual(repair({ list: null }), { value: { list: null }, repairs: [] });
    assert.deepEqual(repair({ list: ["a"] }), { value: { list: ["a"] }, repairs: [] });
  });

  it("changes nothing else: strings stay strings, unknown keys stay, the input is not mutated", () => {
    const input = {
      text: "12",
      count: 3,
      flag: true,
      extra: "true",
      list: ["x"],
      options: { depth: 1 },
    };
    const copy = structuredClone(input);
    const result = repair(input);
    assert.deepEqual(result, { value: copy, repairs: [] });
    assert.deepEqual(input, copy);
    assert.notEqual(result.value, input);
  });

  it("does not mutate the input when it repairs", () => {
    const input = { count: "3", list: "a" };
    repair(input);
    assert.deepEqual(input, { count: "3", list: "a" });
  });

  it("does not add missing keys (defaults are validation's business)", () => {
    assert.deepEqual(repair({}), { value: {}, repairs: [] });
  });

  it("reports several repairs in schema order, each with path, kind, before and after", () => {
    const result = repair({ list: "a", flag: "false", count: "-1.5", options: '{"depth": 0}', text: "keep" });
    assert.deepEqual(result.value, {
      list: ["a"],
      flag: false,
      count: -1.5,
      options: { depth: 0 },
      text: "keep",
    });
    assert.deepEqual(result.repairs, [
      { path: "count", kind: "number from string", before: "-1.5", after: -1.5 },
      { path: "flag", kind: "boolean from string", before: "false", after: false },
      { path: "list", kind: "lone value to array", before: "a", after: ["a"] },
      { path: "options", kind: "stringified JSON", before: '{"depth": 0}', after: { depth: 0 } },
    ]);
  });

  it("repairs the real tools' arguments", () => {
    assert.deepEqual(
      repairArguments({ command: "sleep 1", timeout_ms: "5000", background: "true" }, shellTool.schema),
      {
        value: { command: "sleep 1", timeout_ms: 5000, background: true },
        repairs: [
          { path: "timeout_ms", kind: "number from string", before: "5000", after: 5000 },
          { path: "background", kind: "boolean from string", before: "true", after: true },
        ],
      },
    );
    assert.deepEqual(
      repairArguments({ path: "a", old_string: "1", new_string: "true", replace_all: "false" }, editTool.schema),
      {
        value: { path: "a", old_string: "1", new_string: "true", replace_all: false },
        repairs: [{ path: "replace_all", kind: "boolean from string", before: "false", after: false }],
      },
    );
  });
});
