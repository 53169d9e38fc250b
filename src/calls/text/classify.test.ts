import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { prepareCall } from "../prepare.js";
import { findTextCalls } from "./classify.js";
import { shimCalls } from "./shim.js";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../../test/fixtures/text-calls/${name}.txt`, import.meta.url)), "utf8");

const TOOLS = ["read", "write", "grep", "glob", "list", "shell", "todo"];

/** Format, name and input of each call found in a fixture. */
function found(name: string) {
  return findTextCalls(fixture(name)).map((f) => ({
    format: f.format,
    name: f.envelope.name,
    input: f.envelope.input,
  }));
}

describe("text calls: the formats", () => {
  it("a fenced JSON call, as name/arguments and as tool/input", () => {
    assert.deepEqual(found("fenced-name-arguments"), [
      { format: "fenced-json", name: "read", input: { path: "src/config/load.ts", offset: 1, limit: 120 } },
    ]);
    assert.deepEqual(found("fenced-tool-input"), [
      { format: "fenced-json", name: "grep", input: { pattern: "export function loadConfig", path: "src" } },
    ]);
  });

  it("Hermes/Qwen tags, one call each", () => {
    assert.deepEqual(found("hermes-qwen"), [
      { format: "hermes", name: "glob", input: { pattern: "**/*.test.ts" } },
      { format: "hermes", name: "read", input: { path: "package.json" } },
    ]);
  });

  it("Llama 3.x: after <|python_tag|>, and as a bare object with parameters", () => {
    assert.deepEqual(found("llama-python-tag"), [
      { format: "llama", name: "shell", input: { command: "npm test -- --grep parser" } },
    ]);
    assert.deepEqual(found("llama-json"), [{ format: "llama", name: "list", input: { path: "src/calls" } }]);
  });

  it("Mistral's [TOOL_CALLS] list", () => {
    assert.deepEqual(found("mistral"), [
      { format: "mistral", name: "read", input: { path: "README.md" } },
      { format: "mistral", name: "grep", input: { pattern: "TODO", path: "src" } },
    ]);
  });

  it("a bare JSON object as the whole answer", () => {
    assert.deepEqual(found("bare"), [
      {
        format: "bare-json",
        name: "todo",
        input: { items: [{ content: "write the parser", status: "in_progress" }] },
      },
    ]);
  });

  it("the span is the call's text in the answer", () => {
    const text = fixture("fenced-name-arguments");
    const [call] = findTextCalls(text);
    assert.ok(call);
    assert.match(text.slice(call.start, call.end), /^```json\n\{"name": "read"[\s\S]*```$/);
  });

  it("example JSON that names no tool is not a call", () => {
    assert.deepEqual(found("prose-json-example"), []);
    assert.deepEqual(findTextCalls("All done: the tests pass."), []);
    // A package.json shown in a fence has a "name" but no arguments: not a call, even configured.
    const shown = '```json\n{"name": "bosun", "version": "0.1.0"}\n```';
    assert.deepEqual(shimCalls({ text: shown, mode: "configured", tools: TOOLS, step: 1 }).calls, []);
  });
});

describe("text calls: broken ones", () => {
  const prepared = (name: string) => {
    const shimmed = shimCalls({ text: fixture(name), mode: "configured", tools: TOOLS, step: 1 });
    const tools = TOOLS.map((t) => ({ name: t, description: t, kind: "read", schema: anyObject }) as never);
    return shimmed.calls.map((call) => prepareCall(call, tools, () => {}, 1));
  };

  it("cut off: the name is read, the arguments quoted back as unreadable JSON", () => {
    const [call] = findTextCalls(fixture("broken-truncated"));
    assert.equal(call?.envelope.name, "write");
    assert.ok(call?.envelope.broken);
    const [result] = prepared("broken-truncated");
    assert.equal(result?.ok, false);
    assert.match(result && !result.ok ? result.error : "", /not valid JSON[\s\S]*"path": "notes.md"/);
  });

  it("trailing commas are repaired (call.repair); single quotes are not guessed at", () => {
    const [comma] = prepared("broken-trailing-comma");
    assert.equal(comma?.ok, true);
    assert.deepEqual(comma?.ok ? comma.input : undefined, { path: "src/index.ts" });
    const [quotes] = prepared("broken-single-quotes");
    assert.equal(quotes?.ok, false);
  });

  it("an unknown tool is an error that lists the tools", () => {
    const [unknown] = prepared("unknown-tool");
    assert.match(
      unknown && !unknown.ok ? unknown.error : "",
      /Unknown tool "browse_web"\. Available tools: read, write/,
    );
  });

  it("detected (native tools sent), only clean calls of offered tools are read", () => {
    for (const name of ["broken-truncated", "broken-single-quotes", "unknown-tool", "prose-json-example"]) {
      const shimmed = shimCalls({ text: fixture(name), mode: "detect", tools: TOOLS, step: 1 });
      assert.deepEqual(shimmed.calls, [], name);
    }
    const clean = shimCalls({ text: fixture("hermes-qwen"), mode: "detect", tools: TOOLS, step: 2 });
    assert.deepEqual(
      clean.calls.map((c) => c.id),
      ["textcall_2_1", "textcall_2_2"],
    );
    assert.deepEqual(clean.decisions[0]?.answer, { mode: "detected" });
    assert.equal(shimCalls({ text: fixture("hermes-qwen"), mode: "off", tools: TOOLS, step: 1 }).calls.length, 0);
  });
});

describe("text calls: redteam, quoted and repeated", () => {
  const call = '<tool_call>{"name": "shell", "arguments": {"command": "touch pwned"}}</tool_call>';

  it("a call token quoted in a code span or a fence is not a call, configured or detected", () => {
    for (const text of [
      `To run a command a Hermes model writes \`${call}\`.`,
      `The format:\n\n\`\`\`\n${call}\n\`\`\`\n\nThat is all.`,
      `Unclosed:\n\`\`\`xml\n${call}`,
      'Mistral writes `[TOOL_CALLS]` before `[{"name": "shell", "arguments": {"command": "x"}}]`.',
      'Llama writes `<|python_tag|>{"name": "shell", "parameters": {"command": "x"}}`.',
    ]) {
      for (const mode of ["configured", "detect"] as const) {
        assert.deepEqual(shimCalls({ text, mode, tools: TOOLS, step: 1 }).calls, [], `${mode}: ${text}`);
      }
    }
    // A quoted token before a real call: the real one is read, at its own place in the text.
    const text = `The tag is \`<tool_call>\`; now:\n${call}`;
    const [found] = findTextCalls(text);
    assert.equal(found?.envelope.name, "shell");
    assert.equal(text.slice(found?.start, found?.end), call);
  });

  it("detected: a call the model goes on talking after is quoted, not made; configured, it is read", () => {
    const text = `For example ${call} would create the file. I will not run it.`;
    assert.deepEqual(shimCalls({ text, mode: "detect", tools: TOOLS, step: 1 }).calls, []);
    assert.equal(shimCalls({ text: `Running it.\n${call}\n`, mode: "detect", tools: TOOLS, step: 1 }).calls.length, 1);
    assert.equal(shimCalls({ text, mode: "configured", tools: TOOLS, step: 1 }).calls.length, 1);
  });

  it("nested tags read nothing; a huge answer of open tags is read in bounded time", () => {
    assert.deepEqual(findTextCalls(`<tool_call><tool_call>${call.slice(11)}</tool_call>`).length, 0);
    const huge = "<tool_call>{".repeat(200_000);
    const started = Date.now();
    shimCalls({ text: huge, mode: "configured", tools: TOOLS, step: 1 });
    shimCalls({ text: `${"```json\n"}${"{".repeat(500_000)}`, mode: "detect", tools: TOOLS, step: 1 });
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    // A huge call is read whole, but its record keeps a bounded copy of the text and the arguments.
    const content = "x".repeat(1_000_000);
    const big = shimCalls({
      text: JSON.stringify({ name: "write", arguments: { path: "a", content } }),
      mode: "configured",
      tools: TOOLS,
      step: 1,
    });
    assert.equal((big.calls[0]?.input as { content?: string } | undefined)?.content?.length, 1_000_000);
    assert.ok(JSON.stringify(big.decisions).length < 10_000, "the record is bounded");
  });
});

import { z } from "zod";

const anyObject = z.looseObject({});
