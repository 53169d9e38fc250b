import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveToolName } from "./names.js";

const TOOLS = ["read", "list", "glob", "grep", "edit", "write", "shell"];

describe("resolveToolName", () => {
  it("takes an exact name as it is, with no repair", () => {
    for (const name of TOOLS) assert.deepEqual(resolveToolName(name, TOOLS), { name });
  });

  it("strips a functions., tool. or tools. prefix and says what it was", () => {
    assert.deepEqual(resolveToolName("functions.read", TOOLS), { name: "read", repairedFrom: "functions.read" });
    assert.deepEqual(resolveToolName("tool.shell", TOOLS), { name: "shell", repairedFrom: "tool.shell" });
    assert.deepEqual(resolveToolName("tools.grep", TOOLS), { name: "grep", repairedFrom: "tools.grep" });
    assert.deepEqual(resolveToolName("Functions.edit", TOOLS), { name: "edit", repairedFrom: "Functions.edit" });
  });

  it("strips only one known prefix, only at the start", () => {
    assert.equal(resolveToolName("function.read", TOOLS), undefined);
    assert.equal(resolveToolName("functions.tools.read", TOOLS), undefined);
    assert.equal(resolveToolName("my.read", TOOLS), undefined);
    assert.equal(resolveToolName("read.functions", TOOLS), undefined);
    assert.equal(resolveToolName("functions.", TOOLS), undefined);
  });

  it("repairs letter case when one tool matches", () => {
    assert.deepEqual(resolveToolName("Read", TOOLS), { name: "read", repairedFrom: "Read" });
    assert.deepEqual(resolveToolName("SHELL", TOOLS), { name: "shell", repairedFrom: "SHELL" });
    assert.deepEqual(resolveToolName("functions.Read", TOOLS), { name: "read", repairedFrom: "functions.Read" });
  });

  it("refuses a case-only match that is ambiguous among the tools", () => {
    const tools = ["read", "Read", "list"];
    assert.equal(resolveToolName("READ", tools), undefined);
    assert.equal(resolveToolName("rEAD", tools), undefined);
    assert.equal(resolveToolName("functions.READ", tools), undefined);
    // The exact names themselves still resolve.
    assert.deepEqual(resolveToolName("Read", tools), { name: "Read" });
    assert.deepEqual(resolveToolName("read", tools), { name: "read" });
  });

  it("takes a prefixed exact name even when another tool differs from it only in case", () => {
    const tools = ["read", "Read"];
    assert.deepEqual(resolveToolName("functions.read", tools), { name: "read", repairedFrom: "functions.read" });
    assert.deepEqual(resolveToolName("tools.Read", tools), { name: "Read", repairedFrom: "tools.Read" });
  });

  it("prefers a tool whose real name carries the prefix", () => {
    const tools = ["tools.read", "read"];
    assert.deepEqual(resolveToolName("tools.read", tools), { name: "tools.read" });
  });

  it("returns undefined for an unknown name, and for no tools at all", () => {
    assert.equal(resolveToolName("browse", TOOLS), undefined);
    assert.equal(resolveToolName("reads", TOOLS), undefined);
    assert.equal(resolveToolName("", TOOLS), undefined);
    assert.equal(resolveToolName("read", []), undefined);
  });
});
