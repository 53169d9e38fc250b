import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatKey, getAt, isPlainObject, parseKey } from "./keypath.js";

describe("formatKey", () => {
  it("joins plain segments with dots", () => {
    assert.equal(formatKey(["retry", "max_attempts"]), "retry.max_attempts");
    assert.equal(formatKey(["$schema"]), "$schema");
    assert.equal(formatKey(["provider", "my-llm", "headers", "X-Api-Key"]), "provider.my-llm.headers.X-Api-Key");
  });

  it("quotes a segment that holds a dot, a bracket, a quote, a space or nothing", () => {
    assert.equal(
      formatKey(["provider", "openai", "models", "gpt-4.1", "context"]),
      'provider.openai.models["gpt-4.1"].context',
    );
    assert.equal(formatKey(["a b"]), '["a b"]');
    assert.equal(formatKey(["x", "a]b"]), 'x["a]b"]');
    assert.equal(formatKey(["x", 'say "hi"']), 'x["say \\"hi\\""]');
    assert.equal(formatKey(["x", ""]), 'x[""]');
  });
});

describe("parseKey", () => {
  it("reads dotted and bracketed keys", () => {
    assert.deepEqual(parseKey("model"), ["model"]);
    assert.deepEqual(parseKey("retry.max_attempts"), ["retry", "max_attempts"]);
    assert.deepEqual(parseKey('provider.openai.models["gpt-4.1"].context'), [
      "provider",
      "openai",
      "models",
      "gpt-4.1",
      "context",
    ]);
    assert.deepEqual(parseKey("models[gpt-4.1].context"), ["models", "gpt-4.1", "context"]);
    assert.deepEqual(parseKey('models.["gpt-4.1"]'), ["models", "gpt-4.1"]);
  });

  it("reads back every key formatKey prints", () => {
    const paths = [
      ["model"],
      ["provider", "openai", "models", "gpt-4.1", "context"],
      ["a.b", "c"],
      ["x", "a]b", "y"],
      ["x", "[", "]"],
      ["x", 'q"uote', "back\\slash"],
      ["x", ""],
      ["x", "with space", "ünïcode"],
    ];
    for (const path of paths) assert.deepEqual(parseKey(formatKey(path)), path, formatKey(path));
  });

  it("throws on malformed keys", () => {
    for (const bad of ["", ".", "a..b", ".a", "a.", "a[", 'a["b]', 'a["b"', 'a["b"]c', "a[]", 'a["\\x"]']) {
      assert.throws(() => parseKey(bad), /malformed key/, JSON.stringify(bad));
    }
  });
});

describe("getAt and isPlainObject", () => {
  const value = { a: { "b.c": { d: 1 } }, list: [1, 2], nil: null };

  it("walks object keys, dotted segments included", () => {
    assert.equal(getAt(value, ["a", "b.c", "d"]), 1);
    assert.deepEqual(getAt(value, ["a"]), { "b.c": { d: 1 } });
    assert.equal(getAt(value, []), value);
  });

  it("gives undefined for a missing path and does not index into arrays or null", () => {
    assert.equal(getAt(value, ["a", "nope"]), undefined);
    assert.equal(getAt(value, ["list", "0"]), undefined);
    assert.equal(getAt(value, ["nil", "x"]), undefined);
  });

  it("calls only non-null, non-array objects plain", () => {
    assert.equal(isPlainObject({}), true);
    assert.equal(isPlainObject([]), false);
    assert.equal(isPlainObject(null), false);
    assert.equal(isPlainObject("x"), false);
  });
});
