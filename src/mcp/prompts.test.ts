import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { listPrompts, type McpPrompt, promptArguments, promptCommandName, promptText } from "./prompts.js";

const review: McpPrompt = {
  server: "gh",
  name: "review",
  command: "mcp:gh:review",
  arguments: [
    { name: "pr", required: true },
    { name: "focus", description: "what to look at" },
  ],
};

describe("MCP prompts as slash commands", () => {
  it("names the command mcp:<server>:<prompt>, made safe for a command name", () => {
    assert.equal(promptCommandName("gh", "review"), "mcp:gh:review");
    assert.equal(promptCommandName("gh", "code review/v2"), "mcp:gh:code_review_v2");
  });

  it("reads every page of a server's prompts", async () => {
    const pages: Record<string, unknown> = {
      "": { prompts: [{ name: "a", arguments: [{ name: "x", required: true }] }], nextCursor: "p2" },
      p2: { prompts: [{ name: "b", description: "second" }] },
    };
    const seen: Array<string | undefined> = [];
    const client = {
      listPrompts: async (params?: { cursor?: string }) => {
        seen.push(params?.cursor);
        return pages[params?.cursor ?? ""];
      },
      getPrompt: async () => ({}),
    };
    const prompts = await listPrompts("s", client, 1000);
    assert.deepEqual(seen, [undefined, "p2"]);
    assert.deepEqual(
      prompts.map((p) => [p.command, p.arguments.length, p.description]),
      [
        ["mcp:s:a", 1, undefined],
        ["mcp:s:b", 0, "second"],
      ],
    );
  });

  it("matches words to arguments: by name, else in order, the last taking the rest; a missing required one is said", () => {
    assert.deepEqual(promptArguments(review, ["42", "error", "handling"]), {
      ok: true,
      values: { pr: "42", focus: "error handling" },
    });
    assert.deepEqual(promptArguments(review, ["focus=tests", "7"]), { ok: true, values: { pr: "7", focus: "tests" } });
    assert.deepEqual(promptArguments(review, ["focus=tests"]), {
      ok: false,
      problem: "/mcp:gh:review needs pr (pr (required), focus)",
    });
    const none = { ...review, arguments: [] };
    assert.deepEqual(promptArguments(none, []), { ok: true, values: {} });
    assert.equal(promptArguments(none, ["extra"]).ok, false);
  });

  it("turns the server's messages into the text sent: one as it is, several with who says each, resources by text or note", () => {
    assert.equal(
      promptText({ messages: [{ role: "user", content: { type: "text", text: "Review PR 42" } }] }),
      "Review PR 42",
    );
    const many = promptText({
      messages: [
        { role: "user", content: { type: "text", text: "Here is the file" } },
        { role: "user", content: { type: "resource", resource: { uri: "file:///a.ts", text: "const a = 1;" } } },
        { role: "assistant", content: { type: "image", data: "xx", mimeType: "image/png" } },
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: "file:///b.bin", blob: "AA", mimeType: "application/octet-stream" },
          },
        },
      ],
    });
    assert.equal(
      many,
      [
        "user:\nHere is the file",
        "user:\n[resource file:///a.ts]\nconst a = 1;",
        "assistant:\n[image image/png: not shown]",
        "user:\n[resource file:///b.bin: application/octet-stream, not shown]",
      ].join("\n\n"),
    );
    const long = promptText({ messages: [{ role: "user", content: { type: "text", text: "x".repeat(100_010) } }] });
    assert.match(long, /\[cut at 100000 characters\]$/);
  });
});
