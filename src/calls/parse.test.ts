import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArguments, RAW_QUOTE_LIMIT } from "./parse.js";

describe("parseArguments", () => {
  it("passes an already parsed object through unchanged (the same object)", () => {
    const input = { path: "a.txt", nested: { n: 1 } };
    const parsed = parseArguments(input);
    assert.equal(parsed.ok, true);
    assert.equal(parsed.ok && parsed.value, input);
  });

  it("reads undefined and null as no arguments", () => {
    assert.deepEqual(parseArguments(undefined), { ok: true, value: {} });
    assert.deepEqual(parseArguments(null), { ok: true, value: {} });
  });

  it("passes other non-strings through for validation to judge", () => {
    assert.deepEqual(parseArguments([1, 2]), { ok: true, value: [1, 2] });
    assert.deepEqual(parseArguments(42), { ok: true, value: 42 });
  });

  it("parses a JSON string", () => {
    assert.deepEqual(parseArguments('{"path": "a.txt", "limit": 3}'), { ok: true, value: { path: "a.txt", limit: 3 } });
    assert.deepEqual(parseArguments(" [1] "), { ok: true, value: [1] });
  });

  it("returns an error that quotes broken JSON in full", () => {
    const broken = '{"path": "a.txt"';
    const parsed = parseArguments(broken);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.quote, broken);
    assert.ok(parsed.error.length > 0);
    assert.match(parsed.error, /JSON/);
  });

  it("quotes exactly the limit without a note", () => {
    const broken = `{${"x".repeat(RAW_QUOTE_LIMIT - 1)}`;
    assert.equal(broken.length, RAW_QUOTE_LIMIT);
    const parsed = parseArguments(broken);
    assert.equal(!parsed.ok && parsed.quote, broken);
  });

  it("caps the quote at 2 KB and notes the total length", () => {
    assert.equal(RAW_QUOTE_LIMIT, 2048);
    const broken = `{"content": "${"y".repeat(5000)}`;
    const parsed = parseArguments(broken);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    assert.equal(parsed.quote, `${broken.slice(0, 2048)}… (${broken.length} characters in all)`);
    assert.ok(parsed.quote.startsWith('{"content": "yyy'));
    assert.match(parsed.quote, /… \(5013 characters in all\)$/);
  });

  it("never cuts a character in half at the cap (no lone surrogate sent to a provider)", () => {
    // 2047 ASCII units, then emoji whose surrogate pairs straddle the limit.
    const broken = `{${"a".repeat(RAW_QUOTE_LIMIT - 2)}${"😀".repeat(10)}`;
    const parsed = parseArguments(broken);
    assert.equal(parsed.ok, false);
    if (parsed.ok) return;
    const quoted = parsed.quote.slice(0, parsed.quote.indexOf("…"));
    assert.equal(quoted, broken.slice(0, RAW_QUOTE_LIMIT - 1));
    assert.doesNotMatch(quoted, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
