import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { leafPaths, mergeInto } from "./merge.js";

function merge(...layers: Record<string, unknown>[]): { value: Record<string, unknown>; leaves: string[][] } {
  const value: Record<string, unknown> = {};
  const leaves: string[][] = [];
  layers.forEach((layer, index) => {
    mergeInto(value, layer, (key) => leaves.push([String(index), key]));
  });
  return { value, leaves };
}

describe("mergeInto", () => {
  it("merges objects key by key, a later layer winning per leaf", () => {
    const { value } = merge(
      { a: 1, nested: { x: 1, y: { deep: "low" } } },
      { b: 2, nested: { y: { deep: "high", more: true } } },
    );
    assert.deepEqual(value, { a: 1, b: 2, nested: { x: 1, y: { deep: "high", more: true } } });
  });

  it("replaces arrays whole", () => {
    assert.deepEqual(merge({ list: [1, 2, 3] }, { list: [9] }).value, { list: [9] });
  });

  it("lets an object replace a scalar and a scalar replace an object", () => {
    assert.deepEqual(merge({ a: 1 }, { a: { b: 2 } }).value, { a: { b: 2 } });
    assert.deepEqual(merge({ a: { b: 2 } }, { a: 1 }).value, { a: 1 });
  });

  it("skips undefined values, leaving the lower value", () => {
    assert.deepEqual(merge({ a: 1 }, { a: undefined }).value, { a: 1 });
  });

  it("reports each leaf a layer sets, with its printed key", () => {
    const { leaves } = merge({ a: 1, m: { "gpt-4.1": { context: 1 } } }, { list: [1], a: 2 });
    assert.deepEqual(leaves, [
      ["0", "a"],
      ["0", 'm["gpt-4.1"].context'],
      ["1", "list"],
      ["1", "a"],
    ]);
  });

  it("does not alias the layer's objects into the target", () => {
    const layer = { nested: { x: 1 } };
    const { value } = merge(layer, { nested: { y: 2 } });
    assert.deepEqual(layer, { nested: { x: 1 } });
    assert.notEqual(value.nested, layer.nested);
  });
});

describe("leafPaths", () => {
  it("lists leaf paths in document order, arrays being leaves", () => {
    assert.deepEqual(leafPaths({ a: 1, b: { c: [1, 2], d: { e: null } } }), [["a"], ["b", "c"], ["b", "d", "e"]]);
  });

  it("lists no leaves for empty objects", () => {
    assert.deepEqual(leafPaths({}), []);
    assert.deepEqual(leafPaths({ a: {} }), []);
  });
});
