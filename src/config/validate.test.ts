import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../errors.js";
import { parseJsonc } from "./jsonc.js";
import { ConfigSchema } from "./schema.js";
import { describeValue, type LayerSource, PROBLEMS_LISTED, UNKNOWN_KEYS_LISTED, validateLayer } from "./validate.js";

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
  it("redteam: a shell timeout past what a Node timer can wait is bad config, naming the key", () => {
    const shown = fromFile('{\n  "shell": { "max_timeout_ms": 3000000000 }\n}');
    assert.match(shown.join("\n"), /shell\.max_timeout_ms/);
    assert.match(shown.join("\n"), /bosun\.json:2/);
  });

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
      'layer: key "provider.p.models.m.tools": expected true, false, "native", "text" or "none", received string ("yes")',
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

describe("validateLayer: huge layers", () => {
  it("lists a few of 160,000 unknown keys and says how many more, in linear time", () => {
    const keys = Array.from({ length: 160_000 }, (_, i) => `  "unknown-${i}": 1`);
    const started = performance.now();
    const lines = fromFile(`{\n  "model": "a/b",\n${keys.join(",\n")}\n}`);
    assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
    assert.equal(lines.length, UNKNOWN_KEYS_LISTED + 1);
    assert.match(lines[0] ?? "", /^bosun\.json:3: unknown key "unknown-0" \(known keys here: \$schema, model, /);
    // The known keys are listed once.
    assert.equal(lines[1], 'bosun.json:4: unknown key "unknown-1"');
    assert.equal(
      lines[UNKNOWN_KEYS_LISTED - 1],
      `bosun.json:${UNKNOWN_KEYS_LISTED + 2}: unknown key "unknown-${UNKNOWN_KEYS_LISTED - 1}"`,
    );
    assert.equal(
      lines[UNKNOWN_KEYS_LISTED],
      `bosun.json:1: and ${160_000 - UNKNOWN_KEYS_LISTED} more unknown keys at the top level`,
    );
  });

  it("counts the unknown keys of a nested object, after the ones listed", () => {
    const shell = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, "allow"]));
    const lines = problems({
      retry: { ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x${i}`, 1])) },
      permission: { shell },
    });
    assert.equal(lines.length, UNKNOWN_KEYS_LISTED + 1);
    assert.equal(lines[UNKNOWN_KEYS_LISTED], `layer: and ${9 - UNKNOWN_KEYS_LISTED} more unknown keys in "retry"`);
  });

  it(`lists the first ${PROBLEMS_LISTED} problems in file order and counts the rest`, () => {
    const headers = Array.from({ length: 50_000 }, (_, i) => `    "X-${i}": ${i}`);
    const lines = fromFile(`{\n  "provider": { "p": { "headers": {\n${headers.join(",\n")}\n  } } }\n}`);
    assert.equal(lines.length, PROBLEMS_LISTED + 1);
    assert.equal(lines[0], 'bosun.json:3: key "provider.p.headers.X-0": expected string, received number');
    assert.match(lines[PROBLEMS_LISTED - 1] ?? "", new RegExp(`^bosun\\.json:${PROBLEMS_LISTED + 2}: `));
    assert.equal(lines[PROBLEMS_LISTED], `bosun.json: and ${50_000 - PROBLEMS_LISTED} more problems`);
  });

  it("cuts a long unknown key and suggests nothing for it", () => {
    const key = `model${"x".repeat(1_000_000)}`;
    const started = performance.now();
    const [line, ...rest] = problems({ [key]: 1 });
    assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(rest, []);
    assert.ok((line ?? "").length < 500, line);
    assert.match(line ?? "", /^layer: unknown key "\["modelx+…"\]" \(known keys here: /);
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
