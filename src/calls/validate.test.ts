import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { editTool } from "../tools/edit.js";
import { readTool } from "../tools/read.js";
import { shellTool } from "../tools/shell.js";
import { validateArguments } from "./validate.js";

describe("validateArguments", () => {
  it("accepts valid arguments and returns the parsed value", () => {
    assert.deepEqual(validateArguments({ path: "a.txt", offset: 2 }, readTool.schema), {
      ok: true,
      value: { path: "a.txt", offset: 2 },
    });
    assert.deepEqual(validateArguments({ command: "ls" }, shellTool.schema), { ok: true, value: { command: "ls" } });
  });

  it("returns what the schema makes of the value (defaults filled in)", () => {
    const schema = z.object({ n: z.number().default(7) });
    assert.deepEqual(validateArguments({}, schema), { ok: true, value: { n: 7 } });
  });

  it("lists a missing argument with its name", () => {
    const result = validateArguments({}, readTool.schema);
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.problems, ["path: Invalid input: expected string, received undefined"]);
  });

  it("lists unknown arguments together, at the arguments level", () => {
    const result = validateArguments({ path: "a", file: "a", lines: 3 }, readTool.schema);
    assert.deepEqual(!result.ok && result.problems, ["(arguments): unknown argument(s) file, lines"]);
  });

  it("lists every problem at once: missing, wrong-typed, out of range, extra", () => {
    const result = validateArguments({ file: "a.txt", offset: "x", limit: 0 }, readTool.schema);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.problems.length, 4);
    assert.match(result.problems[0] ?? "", /^path: .*expected string/);
    assert.match(result.problems[1] ?? "", /^offset: .*expected number, received string/);
    assert.match(result.problems[2] ?? "", /^limit: .*>=1/);
    assert.equal(result.problems[3], "(arguments): unknown argument(s) file");
  });

  it("names wrong types of the real tools", () => {
    const shell = validateArguments({ command: "ls", background: "yes", timeout_ms: 1.5 }, shellTool.schema);
    assert.deepEqual(!shell.ok && shell.problems.map((p) => p.split(":")[0]), ["timeout_ms", "background"]);
    const edit = validateArguments({ path: "a", old_string: 1, new_string: "b" }, editTool.schema);
    assert.deepEqual(!edit.ok && edit.problems, ["old_string: Invalid input: expected string, received number"]);
  });

  it("joins nested paths with dots, array indexes included", () => {
    const schema = z.object({ o: z.object({ x: z.number() }), a: z.array(z.number()) });
    const result = validateArguments({ o: { x: "1" }, a: [1, "b"] }, schema);
    assert.deepEqual(!result.ok && result.problems.map((p) => p.split(":")[0]), ["o.x", "a.1"]);
  });

  it("reports arguments that are not an object at all", () => {
    for (const value of ["str", [1], null, 3]) {
      const result = validateArguments(value, readTool.schema);
      assert.equal(result.ok, false);
      assert.match(!result.ok ? (result.problems[0] ?? "") : "", /^\(arguments\): .*expected object/);
    }
  });
});
