import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";

/** Two reads, then done: three requests of one turn, each a longer prefix of the last. */
const script = {
  rules: [
    { match: { request: 1 }, reply: { toolCalls: [{ id: "r1", name: "read", arguments: { path: "a.txt" } }] } },
    { match: { request: 2 }, reply: { toolCalls: [{ id: "r2", name: "read", arguments: { path: "b.txt" } }] } },
    { reply: { text: "Done." } },
  ],
};

/** Every cache_control mark in a request body, with where it sits. */
function marks(body: unknown, path = "$"): string[] {
  if (Array.isArray(body)) return body.flatMap((item, i) => marks(item, `${path}[${i}]`));
  if (!body || typeof body !== "object") return [];
  return Object.entries(body).flatMap(([key, value]) =>
    key === "cache_control" ? [path] : marks(value, `${path}.${key}`),
  );
}

describe("prompt caching", () => {
  it("Anthropic: the system prompt (after the tools) and the newest two messages are breakpoints, never more than 4", async () => {
    const s = await startScenario(script, { protocol: "anthropic" });
    try {
      s.ws.write("a.txt", "a\n");
      s.ws.write("b.txt", "b\n");
      const run = await s.run(["run", "read both"]);
      assert.equal(run.code, 0, run.stderr);
      for (const n of [1, 2, 3]) {
        const body = s.server.request(n).json as { system: unknown; messages: unknown[] };
        const found = marks(body);
        assert.ok(found.length <= 4, `request ${n}: ${found.join(", ")}`);
        assert.ok(
          found.some((m) => m.startsWith("$.system")),
          `request ${n}: the system prompt is marked`,
        );
        const last = body.messages.length - 1;
        assert.ok(
          found.some((m) => m.startsWith(`$.messages[${last}]`)),
          `request ${n}: the newest message is marked`,
        );
      }
      // The third request's messages begin as the second's did: the cached prefix is sent unchanged.
      const second = (s.server.request(2).json as { messages: unknown[] }).messages;
      const third = (s.server.request(3).json as { messages: unknown[] }).messages;
      const strip = (m: unknown) => JSON.stringify(m).replaceAll(/,?"cache_control":\{"type":"ephemeral"\}/g, "");
      assert.deepEqual(third.slice(0, second.length).map(strip), second.map(strip));
    } finally {
      await s.close();
    }
  });

  it("OpenAI: one cache key for the session's requests, and nothing marked; other providers get neither", async () => {
    const openai = await startScenario(script, { protocol: "openai" });
    try {
      openai.ws.write("a.txt", "a\n");
      openai.ws.write("b.txt", "b\n");
      const run = await openai.run(["run", "read both"]);
      assert.equal(run.code, 0, run.stderr);
      const keys = [1, 2, 3].map(
        (n) => (openai.server.request(n).json as { prompt_cache_key?: string }).prompt_cache_key,
      );
      assert.equal(keys[0], `bosun-${openai.latest().id}`);
      assert.deepEqual(new Set(keys).size, 1);
      assert.deepEqual(marks(openai.server.request(2).json), []);
    } finally {
      await openai.close();
    }
    const other = await startScenario(script, { protocol: "openai-compatible" });
    try {
      other.ws.write("a.txt", "a\n");
      other.ws.write("b.txt", "b\n");
      assert.equal((await other.run(["run", "read both"])).code, 0);
      const body = other.server.request(2).json as Record<string, unknown>;
      assert.equal(body.prompt_cache_key, undefined);
      assert.deepEqual(marks(body), []);
    } finally {
      await other.close();
    }
  });
});
