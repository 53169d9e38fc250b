import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allKnownKeys, descriptionAt, knownKeysAt, schemaAt, typeName } from "./schema-walk.js";

describe("schema walk", () => {
  it("finds the schema node of a key path, through records", () => {
    assert.equal(typeName(schemaAt(["model"])), "string");
    assert.equal(typeName(schemaAt(["max_steps"])), "number");
    assert.equal(typeName(schemaAt(["retry"])), "object");
    assert.equal(typeName(schemaAt(["provider", "anything", "models", "gpt-4.1", "images"])), "boolean");
    assert.equal(typeName(schemaAt(["fallback", 0])), "string");
    assert.equal(schemaAt(["nope"]), undefined);
    assert.equal(schemaAt(["model", "deeper"]), undefined);
    assert.equal(typeName(undefined), "unknown");
  });

  it("lists the fixed keys of an object, none for a record", () => {
    assert.deepEqual(knownKeysAt(["retry"]), ["max_attempts", "max_delay_ms"]);
    assert.deepEqual(knownKeysAt(["provider", "x"]), [
      "type",
      "npm",
      "resourceName",
      "apiVersion",
      "region",
      "project",
      "location",
      "api",
      "baseURL",
      "apiKey",
      "headers",
      "models",
      "any_model",
      "timeout_ms",
      "idle_ms",
    ]);
    assert.deepEqual(knownKeysAt(["provider"]), []);
    assert.deepEqual(knownKeysAt(["model"]), []);
    assert.ok(knownKeysAt([]).includes("model"));
  });

  it("lists every leaf key, * for free record keys", () => {
    const keys = allKnownKeys().map((path) => path.join("."));
    for (const key of [
      "$schema",
      "model",
      "fallback",
      "max_steps",
      "retry.max_attempts",
      "retry.max_delay_ms",
      "provider.*.apiKey",
      "provider.*.headers.*",
      "provider.*.models.*.context",
    ]) {
      assert.ok(keys.includes(key), key);
    }
    assert.equal(keys.includes("retry"), false);
  });

  it("finds the description written for a key, through optional wrappers and records", () => {
    assert.equal(descriptionAt(["model"]), 'Default model as "provider/model", e.g. "anthropic/claude-sonnet-4-5"');
    assert.equal(descriptionAt(["retry", "max_attempts"]), "Attempts per model request, the first included");
    assert.equal(descriptionAt(["retry"]), "Retry of failed model requests");
    assert.equal(descriptionAt(["provider", "any-name"]), "A model provider");
    assert.equal(
      descriptionAt(["provider", "any-name", "apiKey"]),
      'API key; write "{env:NAME}" to read it from the environment',
    );
    assert.equal(descriptionAt(["provider", "p", "models", "gpt-4.1", "context"]), "Context window in tokens");
    assert.equal(descriptionAt(["nope"]), undefined);
    assert.equal(descriptionAt(["model", "deeper"]), undefined);
  });
});
