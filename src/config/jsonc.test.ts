import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../errors.js";
import { lineAndColumn, parseJsonc } from "./jsonc.js";

function syntaxError(text: string, source = "f.json"): string {
  try {
    parseJsonc(text, source);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(text)} to be rejected`);
}

describe("parseJsonc", () => {
  it("accepts line and block comments and trailing commas", () => {
    const doc = parseJsonc('// head\n{ /* a */ "a": [1, 2,], "b": { "c": true, }, }\n', "f.json");
    assert.deepEqual(doc.data, { a: [1, 2], b: { c: true } });
  });

  it("names source, line and column of a syntax error", () => {
    assert.equal(syntaxError('{\n  "a": 1\n  "b": 2\n}'), "f.json:3:3: syntax error: comma expected");
    assert.equal(
      syntaxError('{\n  "a": \n}', "BOSUN_CONFIG_CONTENT"),
      "BOSUN_CONFIG_CONTENT:3:1: syntax error: value expected",
    );
  });

  it("reads a file that starts with a byte-order mark, plain JSON and JSONC alike, lines kept", () => {
    const plain = parseJsonc('\ufeff{\n  "model": "a/b"\n}', "f.json");
    assert.deepEqual(plain.data, { model: "a/b" });
    assert.equal(plain.lineOf(["model"]), 2);
    assert.deepEqual(parseJsonc('\ufeff// c\n{ "a": 1, }', "f.json").data, { a: 1 });
    assert.equal(syntaxError('\ufeff{\n  "a": 1\n  "b": 2\n}'), "f.json:3:3: syntax error: comma expected");
  });

  it("counts columns from the start of the line with CRLF line ends", () => {
    assert.equal(syntaxError('{\r\n  "a": 1\r\n  "b": 2\r\n}'), "f.json:3:3: syntax error: comma expected");
  });

  it("lists at most five errors", () => {
    const message = syntaxError('{ "a" "b" "c" "d" "e" "f" "g" "h" }');
    assert.ok(message.split("\n").length <= 5);
    assert.match(message, /^f\.json:1:\d+: syntax error: /);
  });

  it("rejects an empty or comment-only text", () => {
    assert.equal(syntaxError(""), "f.json:1:1: syntax error: value expected");
    assert.match(syntaxError("// nothing\n"), /^f\.json:2:1: syntax error: value expected$/);
  });
});

describe("ParsedDocument.lineOf", () => {
  const text = [
    "{", // 1
    '  "model": "a/b",', // 2
    "  // comment", // 3
    '  "provider": {', // 4
    '    "openai": {', // 5
    '      "models": { "gpt-4.1": { "context": 5 } }', // 6
    "    }", // 7
    "  },", // 8
    '  "fallback": ["x", "y"]', // 9
    "}", // 10
  ].join("\n");
  const doc = parseJsonc(text, "f.json");

  it("gives the line of a key's property", () => {
    assert.equal(doc.lineOf(["model"]), 2);
    assert.equal(doc.lineOf(["provider"]), 4);
    assert.equal(doc.lineOf(["provider", "openai"]), 5);
    assert.equal(doc.lineOf(["provider", "openai", "models", "gpt-4.1", "context"]), 6);
    assert.equal(doc.lineOf(["fallback"]), 9);
    assert.equal(doc.lineOf(["fallback", 1]), 9);
  });

  it("falls back to the deepest existing parent for a key that is not there", () => {
    assert.equal(doc.lineOf(["provider", "openai", "nope", "deeper"]), 5);
    assert.equal(doc.lineOf(["nope"]), 1);
  });

  it("points a repeated key at its last occurrence, whose value parse keeps", () => {
    const repeated = parseJsonc('{\n  "a": { "b": 1 },\n  "c": 0,\n  "a": { "b": 2 }\n}', "f.json");
    assert.deepEqual(repeated.data, { a: { b: 2 }, c: 0 });
    assert.equal(repeated.lineOf(["a"]), 4);
    assert.equal(repeated.lineOf(["a", "b"]), 4);
  });
});

describe("lineAndColumn", () => {
  it("is 1-based and restarts columns after each newline", () => {
    assert.deepEqual(lineAndColumn("abc", 0), { line: 1, column: 1 });
    assert.deepEqual(lineAndColumn("ab\ncd", 4), { line: 2, column: 2 });
    assert.deepEqual(lineAndColumn("a\n\nb", 3), { line: 3, column: 1 });
  });
});
