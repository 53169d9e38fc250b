import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { InstructionFile } from "../context/instructions.js";
import type { Decision } from "../contracts/decisions.js";
import type { RunContext } from "../loop/step-context.js";
import { followServerInstructions, reconnectFollowed } from "./server-context.js";

/** Servers whose instructions the test sets, counting how often they are asked. */
function servers(text: string) {
  const state = { text, version: 0, asked: 0 };
  return {
    state,
    mcp: {
      now: () => ({ version: state.version, tools: [] }),
      instructions: () => {
        state.asked++;
        return [{ server: "docs", text: state.text }];
      },
      reconnect: async () => {
        state.version++;
        return { ok: true as const, entry: {} as never };
      },
    },
  };
}

const file = (path: string, origin: InstructionFile["origin"], content: string): InstructionFile => ({
  path,
  origin,
  content,
});

describe("the MCP servers' part of the instructions", () => {
  it("follows a restart; the servers are asked again only when the tool set's version moved", () => {
    const { state, mcp } = servers("use docs");
    const context = {
      instructions: [file("AGENTS.md", "project", "be brief"), file("MCP server docs", "mcp", "use docs")],
    } as RunContext;
    followServerInstructions(context, mcp);
    const first = context.instructions;
    assert.equal(context.instructions, first, "the same array while nothing changed");
    assert.equal(state.asked, 0);
    state.text = "use docs v2";
    state.version = 1;
    assert.deepEqual(
      context.instructions.map((f) => [f.path, f.content]),
      [
        ["AGENTS.md", "be brief"],
        ["MCP server docs", "use docs v2"],
      ],
    );
    void context.instructions;
    assert.equal(state.asked, 1, "asked once for the new version");
  });

  it("a reconnect that changed what the server says is recorded (seat context.instructions); one that did not, not", async () => {
    const { state, mcp } = servers("use docs");
    const recorded: Decision[] = [];
    const reconnect = reconnectFollowed(mcp, (d) => recorded.push(d));
    await reconnect("docs");
    assert.equal(recorded.length, 0);
    mcp.reconnect = async () => {
      state.text = "use docs v2";
      return { ok: true as const, entry: {} as never };
    };
    await reconnect("docs");
    assert.deepEqual(
      recorded.map((d) => [d.seat, d.subject?.server]),
      [["context.instructions", "docs"]],
    );
  });
});
