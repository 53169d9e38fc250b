import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, type LanguageModel, stepCountIs, streamText, type TextStreamPart, tool } from "ai";
import { z } from "zod";
import { assertNoFailures, startModelServer, withModelServer } from "../../../test/support/model-server.js";
import type { Script } from "./index.js";

// Wire compatibility with the real AI SDK providers, over real HTTP on loopback.

globalThis.AI_SDK_LOG_WARNINGS = false;

interface ProtocolCase {
  name: string;
  model(baseURL: string): LanguageModel;
  /** SSE chunks before the second text delta of "one two three four five six", for a cut after two words. */
  cutAfterTwoWords: number;
  /** Whether the provider reports cache-write tokens. */
  reportsCacheWrite: boolean;
  /** The header that carries the API key, and its value. */
  auth: [string, string];
}

const PROTOCOLS: ProtocolCase[] = [
  {
    name: "openai-compatible chat",
    model: (baseURL) =>
      createOpenAICompatible({ name: "scripted", baseURL, apiKey: "test-key", includeUsage: true }).chatModel(
        "test-model",
      ),
    cutAfterTwoWords: 3,
    reportsCacheWrite: false,
    auth: ["authorization", "Bearer test-key"],
  },
  {
    name: "anthropic messages",
    model: (baseURL) => createAnthropic({ baseURL, apiKey: "test-key" })("test-model"),
    cutAfterTwoWords: 5,
    reportsCacheWrite: true,
    auth: ["x-api-key", "test-key"],
  },
  {
    name: "openai chat",
    model: (baseURL) => createOpenAI({ baseURL, apiKey: "test-key" }).chat("test-model"),
    cutAfterTwoWords: 3,
    reportsCacheWrite: true,
    auth: ["authorization", "Bearer test-key"],
  },
  {
    name: "openai responses",
    model: (baseURL) => createOpenAI({ baseURL, apiKey: "test-key" })("test-model"),
    cutAfterTwoWords: 6,
    reportsCacheWrite: true,
    auth: ["authorization", "Bearer test-key"],
  },
];

const tools = {
  read_file: tool({ description: "Read a file", inputSchema: z.object({ path: z.string() }) }),
  weather: tool({ description: "Weather for a city", inputSchema: z.object({ city: z.string() }) }),
};

type Part = TextStreamPart<typeof tools>;

/** Drains a stream: its parts, and what the iteration threw, if anything. */
async function drain(result: { fullStream: AsyncIterable<Part> }) {
  const parts: Part[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.fullStream) parts.push(part);
  } catch (error) {
    thrown = error;
  }
  const of = <T extends Part["type"]>(type: T) =>
    parts.filter((part): part is Extract<Part, { type: T }> => part.type === type);
  return {
    parts,
    thrown,
    text: of("text-delta")
      .map((part) => part.text)
      .join(""),
    deltas: of("text-delta").length,
    toolCalls: of("tool-call"),
    toolErrors: of("tool-error"),
    errors: of("error").map((part) => part.error),
    finish: of("finish")[0],
    aborted: of("abort").length > 0,
  };
}

function stream(
  protocol: ProtocolCase,
  baseURL: string,
  prompt: string,
  extra: { system?: string; signal?: AbortSignal } = {},
) {
  return drain(
    streamText({
      model: protocol.model(baseURL),
      prompt,
      tools,
      maxRetries: 0,
      ...(extra.system ? { system: extra.system } : {}),
      ...(extra.signal ? { abortSignal: extra.signal } : {}),
      onError: () => {},
    }),
  );
}

async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const protocol of PROTOCOLS) {
  describe(`scripted model server with ${protocol.name}`, () => {
    test("streams text in several chunks, finishes with stop, reports usage", async () => {
      await withModelServer({ rules: [{ reply: { text: "The quick brown fox jumps." } }] }, async (server) => {
        const result = await stream(protocol, server.baseURL, "hello");
        assert.equal(result.thrown, undefined);
        assert.deepEqual(result.errors, []);
        assert.equal(result.text, "The quick brown fox jumps.");
        assert.ok(result.deltas >= 3, `expected several text deltas, got ${result.deltas}`);
        assert.equal(result.finish?.finishReason, "stop");
        assert.ok((result.finish?.totalUsage.inputTokens ?? 0) > 0, "input tokens are never zero");
        assert.ok((result.finish?.totalUsage.outputTokens ?? 0) > 0, "output tokens are never zero");
      });
    });

    test("delivers scripted usage numbers, cache included", async () => {
      const script: Script = {
        rules: [{ reply: { text: "ok", usage: { input: 1200, output: 34, cacheRead: 1000, cacheWrite: 100 } } }],
      };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "hello");
        const usage = result.finish?.totalUsage;
        assert.equal(usage?.inputTokens, 1200);
        assert.equal(usage?.outputTokens, 34);
        assert.equal(usage?.inputTokenDetails.cacheReadTokens, 1000);
        assert.equal(usage?.inputTokenDetails.cacheWriteTokens, protocol.reportsCacheWrite ? 100 : undefined);
        const generated = await generateText({ model: protocol.model(server.baseURL), prompt: "again", maxRetries: 0 });
        assert.equal(generated.usage.inputTokens, 1200);
        assert.equal(generated.usage.outputTokens, 34);
      });
    });

    test("streams one tool call with its arguments", async () => {
      const script: Script = {
        rules: [{ reply: { text: "Reading.", toolCalls: [{ name: "read_file", arguments: { path: "src/a.ts" } }] } }],
      };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "read it");
        assert.equal(result.text, "Reading.");
        assert.equal(result.toolCalls.length, 1);
        assert.equal(result.toolCalls[0]?.toolName, "read_file");
        assert.deepEqual(result.toolCalls[0]?.input, { path: "src/a.ts" });
        assert.equal(result.finish?.finishReason, "tool-calls");
        assert.deepEqual(server.request(1).normalized?.tools.sort(), ["read_file", "weather"]);
      });
    });

    test("streams several tool calls in one response, keeping scripted ids", async () => {
      const script: Script = {
        rules: [
          {
            reply: {
              toolCalls: [
                { name: "read_file", arguments: { path: "a.txt" }, id: "call_first" },
                { name: "weather", arguments: { city: "Oslo" }, id: "call_second" },
                { name: "read_file", arguments: { path: "b.txt" } },
              ],
            },
          },
        ],
      };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "do three things");
        assert.deepEqual(
          result.toolCalls.map((call) => [call.toolName, call.input]),
          [
            ["read_file", { path: "a.txt" }],
            ["weather", { city: "Oslo" }],
            ["read_file", { path: "b.txt" }],
          ],
        );
        assert.equal(result.toolCalls[0]?.toolCallId, "call_first");
        assert.equal(result.toolCalls[1]?.toolCallId, "call_second");
        assert.equal(new Set(result.toolCalls.map((call) => call.toolCallId)).size, 3);
        assert.equal(result.finish?.finishReason, "tool-calls");
      });
    });

    test("broken tool-call JSON reaches the SDK raw and is marked invalid", async () => {
      const script: Script = {
        rules: [{ reply: { toolCalls: [{ name: "read_file", arguments: '{"path": "a.txt"' }] } }],
      };
      await withModelServer(script, async (server) => {
        const streamed = await stream(protocol, server.baseURL, "read");
        assert.equal(streamed.toolCalls.length, 1);
        assert.equal(streamed.toolCalls[0]?.invalid, true);
        assert.equal(streamed.toolErrors.length, 1);
        const generated = await generateText({
          model: protocol.model(server.baseURL),
          prompt: "read",
          tools,
          maxRetries: 0,
        });
        assert.equal(generated.toolCalls.length, 1);
        assert.equal(generated.toolCalls[0]?.invalid, true);
      });
    });

    test("finish length becomes finishReason length", async () => {
      await withModelServer({ rules: [{ reply: { text: "cut short by the", finish: "length" } }] }, async (server) => {
        const result = await stream(protocol, server.baseURL, "long answer please");
        assert.equal(result.text, "cut short by the");
        assert.equal(result.finish?.finishReason, "length");
        const generated = await generateText({ model: protocol.model(server.baseURL), prompt: "again", maxRetries: 0 });
        assert.equal(generated.finishReason, "length");
      });
    });

    test("HTTP 429 arrives as an error part with status, retry-after and a realistic body", async () => {
      const script: Script = { rules: [{ reply: { error: { status: 429, headers: { "retry-after": "7" } } } }] };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "hello");
        assert.equal(result.thrown, undefined);
        assert.equal(result.errors.length, 1);
        const error = result.errors[0];
        assert.ok(APICallError.isInstance(error), `expected APICallError, got ${String(error)}`);
        assert.equal(error.statusCode, 429);
        assert.equal(error.isRetryable, true);
        assert.equal(error.responseHeaders?.["retry-after"], "7");
        const body = JSON.parse(error.responseBody ?? "{}");
        if (protocol.name.startsWith("anthropic")) {
          assert.equal(body.type, "error");
          assert.equal(body.error.type, "rate_limit_error");
        } else {
          assert.equal(body.error.code, "rate_limit_exceeded");
        }
        assert.equal(error.message, body.error.message);
        assert.equal(server.request(1).outcome, "error");
      });
    });

    test("an error reply sends a scripted raw body and status", async () => {
      const script: Script = { rules: [{ reply: { error: { status: 502, body: "<html>bad gateway</html>" } } }] };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "hello");
        const error = result.errors[0];
        assert.ok(APICallError.isInstance(error));
        assert.equal(error.statusCode, 502);
        assert.equal(error.responseBody, "<html>bad gateway</html>");
      });
    });

    test("a cut stream reports an error after partial text", async () => {
      const script: Script = {
        rules: [{ reply: { text: "one two three four five six", cutAfterChunks: protocol.cutAfterTwoWords } }],
      };
      await withModelServer(script, async (server) => {
        const result = await stream(protocol, server.baseURL, "hello");
        assert.equal(result.text, "one two ");
        // AI SDK 6: a connection lost mid-stream throws from the stream, not an error part.
        const error = result.thrown ?? result.errors[0];
        assert.ok(error, "the cut must surface as an error");
        assert.equal(result.finish?.finishReason ?? "error", "error");
        assert.equal(server.request(1).outcome, "cut");
      });
    });

    test("a delayed reply is cancelled promptly through AbortSignal", async () => {
      await withModelServer({ rules: [{ reply: { text: "too late", delayMs: 10_000 } }] }, async (server) => {
        const started = Date.now();
        const result = await stream(protocol, server.baseURL, "hello", { signal: AbortSignal.timeout(100) });
        assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
        assert.equal(result.text, "");
        assert.ok(result.aborted || result.thrown !== undefined || result.errors.length > 0);
        await waitFor(() => server.request(1).outcome === "aborted");
      });
    });

    test("generateText gets text and tool calls from a non-streaming reply", async () => {
      const script: Script = {
        rules: [{ reply: { text: "Looking.", toolCalls: [{ name: "weather", arguments: { city: "Lima" } }] } }],
      };
      await withModelServer(script, async (server) => {
        const result = await generateText({
          model: protocol.model(server.baseURL),
          prompt: "weather?",
          tools,
          maxRetries: 0,
        });
        assert.equal(result.text, "Looking.");
        assert.deepEqual(
          result.toolCalls.map((call) => [call.toolName, call.input]),
          [["weather", { city: "Lima" }]],
        );
        assert.equal(result.finishReason, "tool-calls");
        assert.ok((result.usage.inputTokens ?? 0) > 0);
        assert.equal(server.request(1).normalized?.stream, false);
      });
    });

    test("a tool loop sees the tool result and earlier turns as text", async () => {
      const script: Script = {
        rules: [
          {
            match: { lastMessage: "/^tool_result \\S+: sunny$/", anyMessage: "Checking the weather." },
            reply: { text: "It is sunny in Paris." },
          },
          {
            match: { lastMessage: "weather in Paris" },
            reply: { text: "Checking the weather.", toolCalls: [{ name: "weather", arguments: { city: "Paris" } }] },
          },
        ],
      };
      await withModelServer(script, async (server) => {
        const result = await generateText({
          model: protocol.model(server.baseURL),
          prompt: "What is the weather in Paris?",
          tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => "sunny" }) },
          stopWhen: stepCountIs(3),
          maxRetries: 0,
        });
        assert.equal(result.text, "It is sunny in Paris.");
        const second = server.request(2).normalized;
        assert.deepEqual(
          second?.messages.map((message) => message.role),
          ["user", "assistant", "tool"],
        );
        assert.match(second?.messages[1]?.text ?? "", /^Checking the weather\.\ntool_call weather \{"city":"Paris"\}$/);
        if (protocol.name === "openai responses") {
          // The SDK refers to the earlier message by id; the server remembers what it sent.
          assert.match(server.request(2).body, /"type":"item_reference"/);
        }
      });
    });

    test("a request no rule matches fails loudly with HTTP 500 and a recorded failure", async () => {
      const server = await startModelServer({
        rules: [{ match: { lastMessage: "something else" }, reply: { text: "x" } }],
      });
      try {
        const result = await stream(protocol, server.baseURL, "unexpected question");
        const error = result.errors[0];
        assert.ok(APICallError.isInstance(error));
        assert.equal(error.statusCode, 400);
        assert.match(error.message, /request 1 .*no rule matches.*unexpected question/);
        assert.equal(server.failures.length, 1);
        assert.match(server.failures[0] ?? "", /request 1 .*user: unexpected question/);
        assert.throws(() => assertNoFailures(server), /no rule matches/);
      } finally {
        await server.close();
      }
    });

    test("a scripted call to a tool the request did not advertise fails loudly", async () => {
      const server = await startModelServer({
        rules: [{ reply: { toolCalls: [{ name: "delete_everything", arguments: {} }] } }],
      });
      try {
        const result = await stream(protocol, server.baseURL, "hello");
        assert.equal((result.errors[0] as APICallError | undefined)?.statusCode, 400);
        assert.equal(server.failures.length, 1);
        assert.match(server.failures[0] ?? "", /"delete_everything".*advertised read_file, weather/);
      } finally {
        await server.close();
      }
    });

    test("records headers, raw body, normalized view and the answering rule", async () => {
      const script: Script = {
        rules: [
          { match: { system: "never" }, reply: { text: "no" } },
          { match: { system: "You are terse." }, reply: { text: "yes" } },
        ],
      };
      await withModelServer(script, async (server) => {
        await stream(protocol, server.baseURL, "hi there", { system: "You are terse." });
        const request = server.request(1);
        assert.equal(request.method, "POST");
        assert.equal(request.headers[protocol.auth[0]], protocol.auth[1]);
        assert.equal((JSON.parse(request.body) as { model: string }).model, "test-model");
        assert.equal(request.normalized?.model, "test-model");
        assert.equal(request.normalized?.system, "You are terse.");
        assert.deepEqual(request.normalized?.messages, [{ role: "user", text: "hi there" }]);
        assert.equal(request.normalized?.stream, true);
        assert.equal(request.rule, 1);
        assert.equal(request.outcome, "replied");
      });
    });
  });
}

describe("scripted model server, protocol-independent behaviour", () => {
  const protocol = PROTOCOLS[0] as ProtocolCase;

  test("rules match by lastMessage, anyMessage, system, tool, request number and regex", async () => {
    const script: Script = {
      rules: [
        { match: { request: 1 }, reply: { text: "first request" } },
        { match: { tool: "weather", lastMessage: "/^forecast/i" }, reply: { text: "tool and regex" } },
        { match: { system: "pirate" }, reply: { text: "arr" } },
        { match: { anyMessage: "needle" }, reply: { text: "found" } },
        { reply: { text: "fallback" } },
      ],
    };
    await withModelServer(script, async (server) => {
      const ask = async (prompt: string, system?: string) =>
        (await stream(protocol, server.baseURL, prompt, system ? { system } : {})).text;
      assert.equal(await ask("FORECAST for Oslo"), "first request");
      assert.equal(await ask("FORECAST for Oslo"), "tool and regex");
      assert.equal(await ask("hello", "You are a pirate."), "arr");
      assert.equal(await ask("a needle in a haystack"), "found");
      assert.equal(await ask("anything"), "fallback");
      assert.deepEqual(
        server.requests.map((request) => request.rule),
        [0, 1, 2, 3, 4],
      );
    });
  });

  test("successive replies are used in order; a used-up rule gives way to the next", async () => {
    const script: Script = {
      rules: [
        { reply: [{ text: "one" }, { text: "two" }] },
        { reply: { text: "limited" }, times: 1 },
        { reply: [{ text: "repeat a" }, { text: "repeat b" }], times: 3 },
      ],
    };
    const server = await startModelServer(script);
    try {
      const texts: string[] = [];
      for (let i = 0; i < 7; i++) texts.push((await stream(protocol, server.baseURL, `turn ${i}`)).text);
      assert.deepEqual(texts, ["one", "two", "limited", "repeat a", "repeat b", "repeat b", ""]);
      assert.equal(server.failures.length, 1);
      assert.match(server.failures[0] ?? "", /request 7 .*every rule is used up/);
    } finally {
      await server.close();
    }
  });

  test("frameDelayMs paces the stream: the text arrives piece by piece, spaced out", async () => {
    await withModelServer({ rules: [{ reply: { text: "one two three", frameDelayMs: 60 } }] }, async (server) => {
      const arrivals: number[] = [];
      const started = Date.now();
      const result = streamText({ model: protocol.model(server.baseURL), prompt: "hello", onError: () => {} });
      let text = "";
      for await (const part of result.fullStream) {
        if (part.type !== "text-delta") continue;
        text += part.text;
        arrivals.push(Date.now() - started);
      }
      assert.equal(text, "one two three");
      assert.equal(arrivals.length, 3);
      assert.ok((arrivals[2] ?? 0) - (arrivals[0] ?? 0) >= 100, `pieces spaced out: ${arrivals.join(", ")} ms`);
    });
  });

  test("a cut non-streaming reply makes generateText fail", async () => {
    await withModelServer({ rules: [{ reply: { text: "never whole", cutAfterChunks: 0 } }] }, async (server) => {
      await assert.rejects(generateText({ model: protocol.model(server.baseURL), prompt: "hello", maxRetries: 0 }));
      assert.equal(server.request(1).outcome, "cut");
    });
  });

  test("openai-compatible without includeUsage gets no usage, as from the real API", async () => {
    await withModelServer({ rules: [{ reply: { text: "hi" } }] }, async (server) => {
      const model = createOpenAICompatible({ name: "scripted", baseURL: server.baseURL, apiKey: "k" }).chatModel("m");
      const result = await drain(streamText({ model, prompt: "hello", onError: () => {} }));
      assert.equal(result.text, "hi");
      assert.equal(result.finish?.totalUsage.inputTokens, undefined);
      assert.equal(server.request(1).normalized?.stream, true);
    });
  });

  test("GET /v1/models lists the script's models in a shape OpenAI and Anthropic clients read", async () => {
    await withModelServer({ rules: [], models: ["alpha", "beta"] }, async (server) => {
      const response = await fetch(`${server.baseURL}/models`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { object: string; data: Array<{ id: string; type: string }> };
      assert.equal(body.object, "list");
      assert.deepEqual(
        body.data.map((model) => [model.id, model.type]),
        [
          ["alpha", "model"],
          ["beta", "model"],
        ],
      );
      assert.equal(server.requests.length, 0);
    });
  });

  test("an unknown path or a non-JSON body is a recorded failure", async () => {
    const server = await startModelServer({ rules: [{ reply: { text: "x" } }] });
    try {
      const missing = await fetch(`${server.baseURL}/embeddings`, { method: "POST", body: "{}" });
      assert.equal(missing.status, 404);
      const broken = await fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: "{not json" });
      assert.equal(broken.status, 400);
      assert.match(((await broken.json()) as { error: { message: string } }).error.message, /not JSON/);
      assert.equal(server.failures.length, 2);
      assert.match(server.failures[0] ?? "", /POST \/v1\/embeddings/);
    } finally {
      await server.close();
    }
  });

  const chat = (server: { baseURL: string }, signal?: AbortSignal) =>
    fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], stream: true }),
      ...(signal ? { signal } : {}),
    });
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  test("hang: the request is accepted and never answered, until the client leaves", async () => {
    await withModelServer({ rules: [{ reply: { hang: true } }] }, async (server) => {
      const client = new AbortController();
      let answered = false;
      const response = chat(server, client.signal).then(() => {
        answered = true;
      });
      await until(() => server.requests[0]?.outcome === "pending");
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(answered, false, "no status, no headers");
      client.abort();
      await assert.rejects(response, { name: "AbortError" });
      await until(() => server.request(1).outcome === "aborted");
      assert.equal(server.request(1).status, 0);
    });
  });

  test("stallAfterBytes: exactly that much of the stream, then silence with the connection open", async () => {
    await withModelServer({ rules: [{ reply: { text: "one two three", stallAfterBytes: 60 } }] }, async (server) => {
      const client = new AbortController();
      const response = await chat(server, client.signal);
      assert.equal(response.status, 200);
      const reader = response.body?.getReader();
      assert.ok(reader);
      let got = Buffer.alloc(0);
      while (got.length < 60) {
        const chunk = await reader.read();
        assert.equal(chunk.done, false, "the stream stays open");
        got = Buffer.concat([got, chunk.value as Uint8Array]);
      }
      assert.equal(got.length, 60);
      assert.match(got.toString(), /^data: /);
      const next = reader.read();
      const quiet = await Promise.race([next.then(() => "more"), new Promise((r) => setTimeout(() => r("quiet"), 50))]);
      assert.equal(quiet, "quiet");
      client.abort();
      await assert.rejects(next);
      await until(() => server.request(1).outcome === "aborted");
    });
  });

  test("garbage: a 200 whose body is not the protocol", async () => {
    await withModelServer({ rules: [{ reply: { garbage: "<html>502 Bad Gateway</html>" } }] }, async (server) => {
      const response = await chat(server);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
      assert.equal(await response.text(), "<html>502 Bad Gateway</html>");
    });
  });

  test("an invalid inline script is refused before the server starts", async () => {
    await assert.rejects(
      startModelServer({ rules: [{ reply: { text: "x", delayMs: -1 } }] } as Script),
      /rules\[0\]\.reply\.delayMs/,
    );
  });

  test("configFor builds a bosun.json provider for each protocol", async () => {
    await withModelServer({ rules: [] }, async (server) => {
      assert.deepEqual(server.configFor("anthropic"), {
        model: "scripted/test-model",
        provider: { scripted: { type: "anthropic", baseURL: server.baseURL, apiKey: "test-key" } },
      });
      assert.deepEqual(server.configFor("openai-chat", "gpt-x").provider.scripted, {
        type: "openai",
        api: "chat",
        baseURL: server.baseURL,
        apiKey: "test-key",
      });
      assert.equal(server.configFor("openai-compatible", "m").model, "scripted/m");
    });
  });
});
