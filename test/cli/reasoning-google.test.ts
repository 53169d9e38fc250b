import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { checkedStream } from "../support/run-stream.js";
import { startScenario } from "../support/scenario.js";

/**
 * A local Gemini (streamGenerateContent over SSE), as the scripted model server does not speak
 * Google's protocol: the first request thinks and calls read with a signed call, the second answers.
 */
async function startGemini() {
  const bodies: Array<Record<string, unknown>> = [];
  const answers = [
    {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "I should read a.txt first.", thought: true },
              { functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: "sig-gemini" },
            ],
          },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 22 },
    },
    {
      candidates: [{ content: { role: "model", parts: [{ text: "Done." }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 2, totalTokenCount: 22 },
    },
  ];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (!(req.url ?? "").includes(":streamGenerateContent")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.url}` } }));
        return;
      }
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      const answer = answers[Math.min(bodies.length - 1, answers.length - 1)];
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(answer)}\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`;
  return { url, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("reasoning over Google's protocol", () => {
  it("a thinking budget is sent as thinkingConfig, thoughts stream as reasoning, the call's signature goes back", async () => {
    const gemini = await startGemini();
    const s = await startScenario({ rules: [{ reply: { text: "unused" } }] });
    try {
      s.setUserConfig({
        model: "gem/gemini-test",
        provider: {
          gem: {
            type: "google",
            baseURL: gemini.url,
            apiKey: "test-key",
            models: { "gemini-test": { context: 100000, output: 8000, reasoning: { budget_tokens: 2048 } } },
          },
        },
      });
      s.ws.write("a.txt", "a\n");
      const run = await s.run(["run", "--format", "json", "read it"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(gemini.bodies.length, 2);
      const first = gemini.bodies[0] as { generationConfig?: { thinkingConfig?: unknown } };
      assert.deepEqual(first.generationConfig?.thinkingConfig, { thinkingBudget: 2048, includeThoughts: true });
      // The signed call goes back as the model made it: Gemini refuses a call without its signature.
      const second = gemini.bodies[1] as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> };
      const model = second.contents.find((c) => c.role === "model");
      const call = model?.parts.find((p) => p.functionCall !== undefined);
      assert.equal(call?.thoughtSignature, "sig-gemini");
      const lines = checkedStream(run.stdout);
      assert.ok(lines.some((line) => line.type === "reasoning" && String(line.text).includes("read a.txt")));
      const decision = expectDecision(s.latest().decisions, "model.options", "config");
      assert.deepEqual(decision.answer, {
        reasoning: { budget_tokens: 2048, effort: "low" },
        sent: { google: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } },
      });
      assert.equal(decision.reasons[0]?.key, "provider.gem.models.gemini-test.reasoning");
    } finally {
      await s.close();
      await gemini.close();
    }
  });
});
