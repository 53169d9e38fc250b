import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { streamAttempt } from "./attempt.js";
import { nativeSearchKind, nativeSearchTool } from "./native-search.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

describe("the provider's own web search", () => {
  it("is Anthropic's, or OpenAI's on the Responses API; no other provider has one bosun sends", () => {
    const of = (type: string, api?: "chat" | "responses") => nativeSearchKind({ provider: { type, api } as never });
    assert.equal(of("anthropic"), "anthropic");
    assert.equal(of("openai"), "openai");
    assert.equal(of("openai", "chat"), undefined);
    assert.equal(of("openai-compatible"), undefined);
    assert.equal(of("google"), undefined);
  });

  it("a search the provider ran is not a call for bosun to run; the answer after it is the reply", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: "stream-start", warnings: [] },
            {
              type: "tool-call",
              toolCallId: "srv_1",
              toolName: "websearch",
              input: JSON.stringify({ query: "bosun" }),
              providerExecuted: true,
            },
            {
              type: "tool-result",
              toolCallId: "srv_1",
              toolName: "websearch",
              result: [{ type: "web_search_result", url: "https://bosun.example", title: "Bosun" }],
            },
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Bosun is a coding agent." },
            { type: "text-end", id: "t" },
            { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, usage },
          ],
        }),
      }),
    });
    const outcome = await streamAttempt({
      model,
      messages: [{ role: "user", content: "what is bosun?" }],
      tools: { websearch: await nativeSearchTool("anthropic") },
    });
    assert.equal(outcome.status, "complete", JSON.stringify(outcome));
    assert.deepEqual(outcome.toolCalls, []);
    assert.equal(outcome.text, "Bosun is a coding agent.");
  });
});
