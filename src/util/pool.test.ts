import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { batches, mapLimit } from "./pool.js";

/** A worker that records how many run at once; item i takes delays[i] ms. */
function tracked<T>(delay: (item: T, index: number) => number) {
  const state = { running: 0, peak: 0, started: [] as number[] };
  const worker = async (item: T, index: number) => {
    state.started.push(index);
    state.running++;
    state.peak = Math.max(state.peak, state.running);
    await sleep(delay(item, index));
    state.running--;
    return { item, index };
  };
  return { state, worker };
}

describe("mapLimit", () => {
  it("keeps input order in the results, whatever order the work finishes in", async () => {
    const items = [30, 5, 20, 1, 10];
    const results = await mapLimit(items, 3, async (ms, i) => {
      await sleep(ms);
      return `${i}:${ms}`;
    });
    assert.deepEqual(results, ["0:30", "1:5", "2:20", "3:1", "4:10"]);
  });

  it("never runs more than the limit at once, and does reach it", async () => {
    for (const limit of [1, 2, 3]) {
      const { state, worker } = tracked((_: number, i: number) => 5 + (i % 3) * 3);
      const items = Array.from({ length: 10 }, (_, i) => i);
      const results = await mapLimit(items, limit, worker);
      assert.equal(state.peak, limit, `limit ${limit}`);
      assert.equal(state.running, 0);
      assert.deepEqual(
        results.map((r) => r.item),
        items,
      );
    }
  });

  it("runs one at a time, in order, with limit 1", async () => {
    const { state, worker } = tracked(() => 2);
    await mapLimit(["a", "b", "c"], 1, worker);
    assert.deepEqual(state.started, [0, 1, 2]);
    assert.equal(state.peak, 1);
  });

  it("runs everything at once when the limit is larger than the list", async () => {
    const { state, worker } = tracked(() => 10);
    const results = await mapLimit(["a", "b", "c"], 8, worker);
    assert.equal(state.peak, 3);
    assert.deepEqual(
      results.map((r) => r.item),
      ["a", "b", "c"],
    );
  });

  it("returns an empty list for no items, without calling the worker", async () => {
    let calls = 0;
    const results = await mapLimit([], 4, async () => {
      calls++;
    });
    assert.deepEqual(results, []);
    assert.equal(calls, 0);
  });

  it("passes each item with its index, once", async () => {
    const seen: Array<[string, number]> = [];
    await mapLimit(["x", "y", "z"], 2, async (item, index) => {
      seen.push([item, index]);
    });
    assert.deepEqual(
      seen.sort((a, b) => a[1] - b[1]),
      [
        ["x", 0],
        ["y", 1],
        ["z", 2],
      ],
    );
  });

  it("still runs every item, one at a time, when the limit is below one or not a number", async () => {
    for (const limit of [0, -2, 0.5, Number.NaN]) {
      const { state, worker } = tracked(() => 1);
      const results = await mapLimit([1, 2, 3], limit, worker);
      assert.deepEqual(
        results.map((r) => r.item),
        [1, 2, 3],
        `limit ${limit}`,
      );
      assert.equal(state.peak, 1, `limit ${limit}`);
    }
  });

  it("rounds a fractional limit down", async () => {
    const { state, worker } = tracked(() => 5);
    await mapLimit([1, 2, 3, 4], 2.9, worker);
    assert.equal(state.peak, 2);
  });

  it("on a failure starts nothing new, waits for the running work, and throws the first error", async () => {
    const { state, worker } = tracked((_: number, i: number) => (i === 1 ? 20 : 5));
    const failing = async (item: number, index: number) => {
      if (index === 0) {
        await sleep(1);
        throw new Error("boom 0");
      }
      if (index === 1) {
        await worker(item, index);
        throw new Error("boom 1");
      }
      return worker(item, index);
    };
    await assert.rejects(mapLimit([0, 1, 2, 3, 4, 5], 2, failing), /boom 0/);
    // Item 1 was running when item 0 failed: it was awaited, not abandoned; nothing after it started.
    assert.deepEqual(state.started, [1]);
    assert.equal(state.running, 0);
  });
});

describe("batches", () => {
  it("groups neighbours that may share a run; an exclusive item runs alone, in order", () => {
    const split = batches(["r1", "r2", "W1", "r3", "W2", "W3", "r4"], (x) => x.startsWith("W"));
    assert.deepEqual(split, [["r1", "r2"], ["W1"], ["r3"], ["W2"], ["W3"], ["r4"]]);
    assert.deepEqual(
      batches([], () => true),
      [],
    );
    assert.deepEqual(
      batches(["a", "b"], () => false),
      [["a", "b"]],
    );
  });
});
