import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../errors.js";
import { parseJsonc } from "./jsonc.js";
import { ConfigSchema } from "./schema.js";
import { describeValue, type LayerSource, validateLayer } from "./validate.js";

function problems(data: unknown, source: LayerSource = { label: "layer" }, asWritten: unknown = data): string[] {
  try {
    validateLayer(data, source, asWritten);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.exitCode, 2);
    return error.message.split("\n");
  }
  assert.fail("expected the layer to be rejected");
}

function fromFile(text: string): string[] {
  const doc = parseJsonc(text, "bosun.json");
  return problems(doc.data, { label: "bosun.json", lineOf: doc.lineOf });
}

describe("validateLayer", () => {
  it("returns a valid layer unchanged", () => {
    const layer = {
      $schema: "./schema/bosun.schema.json",
      model: "a/b",
      fallback: ["c/d"],
      max_steps: 5,
      retry: { max_attempts: 1, max_delay_ms: 0 },
      provider: {
        local: {
          type: "openai-compatible",
          baseURL: "http://127.0.0.1:11434/v1",
          apiKey: "x",
          headers: { "X-A": "b" },
          models: { "llama3.1:8b": { context: 8192, output: 1024, tools: true, images: false } },
        },
      },
    };
    assert.deepEqual(validateLayer(layer, { label: "layer" }), layer);
  });

  it("names the unknown key and the closest known one, at every depth", () => {
    assert.deepEqual(problems({ modle: "a" }), ['layer: unknown key "modle" — did you mean "model"?']);
    assert.deepEqual(problems({ retry: { max_atempts: 1 } }), [
      'layer: unknown key "retry.max_atempts" — did you mean "retry.max_attempts"?',
    ]);
    assert.deepEqual(problems({ provider: { x: { baseUrl: "u" } } }), [
      'layer: unknown key "provider.x.baseUrl" — did you mean "provider.x.baseURL"?',
    ]);
    assert.deepEqual(problems({ provider: { x: { models: { "gpt-4.1": { tool: true } } } } }), [
      'layer: unknown key "provider.x.models["gpt-4.1"].tool" — did you mean "provider.x.models["gpt-4.1"].tools"?',
    ]);
  });

  it("lists the known keys when no key is close", () => {
    assert.deepEqual(problems({ qqqqqqqqqqqq: 1 }), [
      `layer: unknown key "qqqqqqqqqqqq" (known keys here: ${Object.keys(ConfigSchema.shape).join(", ")})`,
    ]);
  });

  it("names the key, the type expected and the type received", () => {
    assert.deepEqual(problems({ model: 5 }), ['layer: key "model": expected string, received number (5)']);
    assert.deepEqual(problems({ max_steps: "ten" }), [
      'layer: key "max_steps": expected integer, received string ("ten")',
    ]);
    assert.deepEqual(problems({ max_steps: 2.5 }), ['layer: key "max_steps": expected integer, received number (2.5)']);
    assert.deepEqual(problems({ retry: [] }), ['layer: key "retry": expected object, received array']);
    assert.deepEqual(problems({ fallback: [1] }), ['layer: key "fallback[0]": expected string, received number (1)']);
    assert.deepEqual(problems({ provider: { p: { models: { m: { tools: "yes" } } } } }), [
      'layer: key "provider.p.models.m.tools": expected boolean, received string ("yes")',
    ]);
    assert.deepEqual(problems({ provider: { p: null } }), ['layer: key "provider.p": expected object, received null']);
  });

  it("shortens a long received string", () => {
    const [line] = problems({ max_steps: "x".repeat(100) });
    assert.equal(line, `layer: key "max_steps": expected integer, received string ("${"x".repeat(40)}…")`);
  });

  it("never quotes a value under a secret-looking key or in headers", () => {
    const secret = "Authorization: Bearer sk-live-LEAKED-123";
    const lines = problems({ provider: { a: { headers: secret, apiKey: 42 } } });
    assert.deepEqual(lines.sort(), [
      `layer: key "provider.a.apiKey": expected string, received number`,
      `layer: key "provider.a.headers": expected record, received string of ${secret.length} characters`,
    ]);
    assert.ok(!lines.join("\n").includes("LEAKED"));
  });

  it("quotes values as written, not as resolved", () => {
    const lines = problems({ max_steps: "resolved-secret" }, { label: "layer" }, { max_steps: "{env:STEPS}" });
    assert.deepEqual(lines, ['layer: key "max_steps": expected integer, received string ("{env:STEPS}")']);
  });

  it("lists every problem with its line, in file order", () => {
    const lines = fromFile(
      ["{", '  "retry": {', '    "max_attempts": "3"', "  },", '  "modle": "a",', '  "max_steps": -1', "}"].join("\n"),
    );
    assert.equal(lines.length, 3);
    assert.equal(lines[0], 'bosun.json:3: key "retry.max_attempts": expected integer, received string ("3")');
    assert.equal(lines[1], 'bosun.json:5: unknown key "modle" — did you mean "model"?');
    assert.match(lines[2] ?? "", /^bosun\.json:6: key "max_steps": Too small/);
  });
});

describe("describeValue", () => {
  it("names the type and shows short values", () => {
    assert.equal(describeValue(null), "null");
    assert.equal(describeValue([1]), "array");
    assert.equal(describeValue("a"), 'string ("a")');
    assert.equal(describeValue(3), "number (3)");
    assert.equal(describeValue(false), "boolean (false)");
    assert.equal(describeValue({}), "object");
    assert.equal(describeValue(undefined), "undefined");
  });
});
