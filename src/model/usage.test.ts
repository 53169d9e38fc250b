import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addUsage, costOf, fromSdkUsage } from "./usage.js";

describe("usage", () => {
  it("reads the AI SDK's usage, cache reads and writes included", () => {
    const usage = fromSdkUsage({
      inputTokens: 1000,
      inputTokenDetails: { noCacheTokens: 200, cacheReadTokens: 700, cacheWriteTokens: 100 },
      outputTokens: 50,
      outputTokenDetails: { textTokens: 50, reasoningTokens: 0 },
      totalTokens: 1050,
    });
    assert.deepEqual(usage, { input: 1000, output: 50, cacheRead: 700, cacheWrite: 100 });
    assert.deepEqual(fromSdkUsage(undefined), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  });

  it("adds", () => {
    assert.deepEqual(
      addUsage(
        { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
        { input: 10, output: 20, cacheRead: 30, cacheWrite: 40 },
      ),
      {
        input: 11,
        output: 22,
        cacheRead: 33,
        cacheWrite: 44,
      },
    );
  });

  it("prices plain input, output, cache reads and writes at their own rates", () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const cost = costOf({ input: 1_000_000, output: 100_000, cacheRead: 500_000, cacheWrite: 100_000 }, { price });
    // 400k plain input at $3/M + 100k output at $15/M + 500k read at $0.30/M + 100k written at $3.75/M
    assert.equal(cost?.toFixed(4), (1.2 + 1.5 + 0.15 + 0.375).toFixed(4));
  });

  it("is unknown without prices", () => {
    assert.equal(costOf({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, {}), undefined);
  });
});
