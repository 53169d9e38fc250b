import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkAnswer, decideElicitation, questionFromElicitation } from "./elicit.js";

// The shapes of the MCP spec's elicitation examples (2025-06-18 and the titled enums of 2025-11-25).
const form = {
  message: "Please provide your GitHub details",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Display name", minLength: 2, maxLength: 20 },
      email: { type: "string", format: "email", description: "Your work email" },
      age: { type: "integer", minimum: 18 },
      subscribe: { type: "boolean", default: false },
      color: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
      size: {
        type: "string",
        oneOf: [
          { const: "s", title: "Small" },
          { const: "l", title: "Large" },
        ],
      },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 2 },
    },
    required: ["name", "email"],
  },
};

describe("MCP elicitation", () => {
  it("turns every field type of the spec into a question field", () => {
    const asked = questionFromElicitation("github", form);
    assert.ok(asked.ok);
    const q = asked.question;
    assert.equal(q.from, "MCP server github");
    assert.deepEqual(
      q.fields.map((f) => [f.name, f.kind, f.required]),
      [
        ["name", "text", true],
        ["email", "text", true],
        ["age", "integer", false],
        ["subscribe", "boolean", false],
        ["color", "choice", false],
        ["size", "choice", false],
        ["tags", "choices", false],
      ],
    );
    assert.equal(q.fields[0]?.label, "Display name");
    assert.deepEqual(q.fields[4]?.options, [
      { value: "r", label: "Red" },
      { value: "g", label: "Green" },
    ]);
    assert.deepEqual(q.fields[5]?.options?.[1], { value: "l", label: "Large" });
    assert.equal(q.fields[3]?.default, false);
    assert.equal(q.fields[6]?.max, 2);
  });

  it("refuses a URL elicitation and a nested field, with the reason", () => {
    const url = questionFromElicitation("x", { mode: "url", message: "go", requestedSchema: {} });
    assert.deepEqual(url, { ok: false, reason: "a url elicitation (bosun answers forms only)" });
    const nested = questionFromElicitation("x", {
      message: "m",
      requestedSchema: { type: "object", properties: { deep: { type: "object" } } },
    });
    assert.equal(nested.ok, false);
    assert.match((nested as { reason: string }).reason, /deep.*cannot ask/);
  });

  it("reads a terminal's text answers into the schema's types and checks them", () => {
    const asked = questionFromElicitation("github", form);
    assert.ok(asked.ok);
    const good = checkAnswer(asked.question, {
      name: "Ada",
      email: "ada@example.com",
      age: "36",
      subscribe: "yes",
      color: "g",
      tags: ["a", "c"],
      extra: "not asked for",
    });
    assert.deepEqual(good, {
      ok: true,
      values: { name: "Ada", email: "ada@example.com", age: 36, subscribe: true, color: "g", tags: ["a", "c"] },
    });
    const bad = checkAnswer(asked.question, {
      name: "A",
      email: "nope",
      age: "17.5",
      color: "blue",
      tags: ["a", "b", "c"],
    });
    assert.equal(bad.ok, false);
    assert.deepEqual((bad as { problems: string[] }).problems, [
      "Display name: 2 characters or more",
      "email: not a valid email",
      "age: a whole number is needed",
      "color: not one of the choices",
      "tags: pick 2 at most",
    ]);
    assert.deepEqual((checkAnswer(asked.question, {}) as { problems: string[] }).problems, [
      "Display name: needed",
      "email: needed",
    ]);
  });

  it("decides: nobody there declines (code), the person's answer is the person's, a bad answer declines", () => {
    const asked = questionFromElicitation("github", form);
    const nobody = decideElicitation({ server: "github", asked, nobody: "no terminal" });
    assert.equal(nobody.holder, "code");
    assert.deepEqual(nobody.result, { action: "decline" });
    assert.match(JSON.stringify(nobody.reasons), /nobody can answer.*no terminal/);

    const yes = decideElicitation({
      server: "github",
      asked,
      reply: { action: "accept", values: { name: "Ada", email: "a@b.c" } },
    });
    assert.equal(yes.holder, "person");
    assert.deepEqual(yes.result, { action: "accept", content: { name: "Ada", email: "a@b.c" } });
    assert.doesNotMatch(JSON.stringify(yes.reasons), /a@b\.c/, "the values stay out of the ledger");

    const no = decideElicitation({ server: "github", asked, reply: { action: "decline" } });
    assert.deepEqual([no.holder, no.answer], ["person", "decline"]);
    const left = decideElicitation({ server: "github", asked, reply: { action: "cancel" } });
    assert.deepEqual([left.holder, left.result], ["person", { action: "cancel" }]);

    const wrong = decideElicitation({ server: "github", asked, reply: { action: "accept", values: { name: "Ada" } } });
    assert.deepEqual([wrong.holder, wrong.result], ["code", { action: "decline" }]);

    const url = decideElicitation({ server: "g", asked: questionFromElicitation("g", { mode: "url" }) });
    assert.deepEqual([url.holder, url.answer], ["code", "decline"]);
  });
});
