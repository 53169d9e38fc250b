import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startHttpMcpServer } from "../support/mcp-http-server.js";
import { startScenario } from "../support/scenario.js";

const reads = {
  rules: [
    {
      match: { request: 1 },
      reply: {
        toolCalls: [
          { id: "ls", name: "mcp__remote__list_resources", arguments: {} },
          { id: "txt", name: "mcp__remote__read_resource", arguments: { uri: "remote://readme" } },
          { id: "img", name: "mcp__remote__read_resource", arguments: { uri: "remote://pixel.png" } },
          { id: "none", name: "mcp__remote__read_resource", arguments: { uri: "remote://nope" } },
        ],
      },
    },
    { reply: { text: "Done." } },
  ],
};

describe("MCP resources as tools", () => {
  it("a server with resources is offered list_resources and read_resource, read-only: texts, images and errors reach the model", async () => {
    const remote = await startHttpMcpServer();
    const s = await startScenario(reads, { global: { mcp: { remote: { url: remote.url } } } });
    try {
      const result = await s.run(["run", "read the docs"]);
      assert.equal(result.code, 0, result.stderr);
      const tools = s.server.request(1).normalized?.tools ?? [];
      assert.ok(tools.includes("mcp__remote__list_resources") && tools.includes("mcp__remote__read_resource"));
      const sent =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(sent, /remote:\/\/readme — readme \(text\/plain\): How to use it/);
      assert.match(sent, /remote:\/\/pixel\.png — pixel \(image\/png\)/);
      assert.match(sent, /\[resource remote:\/\/readme \(text\/plain\)\]\nAsk for the weather by city\./);
      assert.match(sent, /\[image 1: follows the results\]/);
      assert.match(sent, /failed to read remote:\/\/nope/);
      const { decisions } = s.latest();
      for (const call of ["ls", "txt", "img"]) {
        const permission = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === call);
        assert.equal(permission?.answer, "allow", call);
        assert.match(permission?.reasons.at(-1)?.detail ?? "", /^mcp:remote\/resources \(read-only\)$/);
      }
    } finally {
      await s.close();
      await remote.close();
    }
  });

  it("a rule denying <server>/resources keeps them from the model", async () => {
    const remote = await startHttpMcpServer();
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      { global: { mcp: { remote: { url: remote.url } }, permission: { mcp: { "remote/resources": "deny" } } } },
    );
    try {
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 0, result.stderr);
      const tools = s.server.request(1).normalized?.tools ?? [];
      assert.ok(tools.includes("mcp__remote__weather"));
      assert.ok(!tools.includes("mcp__remote__read_resource") && !tools.includes("mcp__remote__list_resources"));
    } finally {
      await s.close();
      await remote.close();
    }
  });
});
