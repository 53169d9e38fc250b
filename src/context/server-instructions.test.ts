import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SERVER_INSTRUCTION_CHARS, serverInstructionFiles, serverInstructionsChange } from "./server-instructions.js";

describe("MCP server instructions", () => {
  it("each server's instructions are one block, cut at the bound and saying so; empty ones add nothing", () => {
    const files = serverInstructionFiles([
      { server: "a", text: "use a" },
      { server: "b", text: "x".repeat(SERVER_INSTRUCTION_CHARS + 5) },
      { server: "c", text: "  " },
    ]);
    assert.deepEqual(
      files.map((f) => f.path),
      ["MCP server a", "MCP server b"],
    );
    assert.equal(files[0]?.content, "use a");
    assert.match(files[1]?.content ?? "", /\n\[… cut at 4000 of 4005 characters\]$/);
    assert.equal(files[1]?.note, "cut at 4000 of 4005 chars");
  });

  it("a server started again with other instructions is a context.instructions decision; the same ones, none", () => {
    assert.equal(serverInstructionsChange("a", "use a", "use a"), undefined);
    assert.equal(serverInstructionsChange("a", undefined, "  "), undefined);
    const changed = serverInstructionsChange("a", "use a", "use a twice");
    assert.equal(changed?.seat, "context.instructions");
    assert.equal(changed?.holder, "code");
    assert.deepEqual(changed?.answer, ["MCP server a"]);
    assert.match(
      changed?.reasons[0]?.detail ?? "",
      /changed \(11 chars, were 5\): in the system prompt from the next step/,
    );
    const gone = serverInstructionsChange("a", "use a", undefined);
    assert.deepEqual(gone?.answer, []);
    assert.match(gone?.reasons[0]?.detail ?? "", /gives no instructions now \(were 5 chars\)/);
  });
});
