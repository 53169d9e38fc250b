import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SERVER_INSTRUCTION_CHARS, serverInstructionFiles } from "./server-instructions.js";

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
});
