import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentContext } from "@agentclientprotocol/sdk";
import { EDITOR_TEXT_MAX_CHARS, editorFiles } from "./editor-files.js";

/** An editor that answers every fs request with `answer`. */
function editor(answer: unknown): AgentContext {
  return { request: async () => answer } as unknown as AgentContext;
}

describe("editor files (redteam)", () => {
  const signal = new AbortController().signal;
  const read = (answer: unknown) => {
    const files = editorFiles(editor(answer), () => "s1", { readTextFile: true });
    return files?.read?.("/w/a.txt", signal) ?? Promise.reject(new Error("no read"));
  };

  it("a buffer's text is what the editor answered", async () => {
    assert.equal(await read({ content: "hello\n" }), "hello\n");
  });

  it("an answer that is not text is an error, never a tool's text", async () => {
    for (const answer of [{ content: 42 }, { content: null }, {}, null, { content: ["a"] }]) {
      await assert.rejects(read(answer), /the editor answered for \/w\/a\.txt without text/, JSON.stringify(answer));
    }
  });

  it("a huge buffer is refused, naming the limit", async () => {
    await assert.rejects(
      read({ content: "x".repeat(EDITOR_TEXT_MAX_CHARS + 1) }),
      new RegExp(`more than bosun takes \\(${EDITOR_TEXT_MAX_CHARS}\\)`),
    );
  });
});
