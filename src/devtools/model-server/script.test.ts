import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { RuleBook, textMatcher } from "./match.js";
import {
  type ItemMemory,
  type NormalizedRequest,
  normalizeAnthropic,
  normalizeChat,
  normalizeResponses,
} from "./normalize.js";
import { argumentPieces, planReply, textPieces } from "./plan.js";
import { loadScriptFile, parseScript, type Script } from "./script.js";

const dir = mkdtempSync(join(tmpdir(), "bosun-model-script-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function request(overrides: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return {
    protocol: "openai-chat",
    model: "m",
    system: "",
    messages: [{ role: "user", text: "hello" }],
    tools: [],
    stream: true,
    maxTokens: undefined,
    ...overrides,
  };
}

describe("script validation", () => {
  const invalid = (input: unknown, pattern: RegExp) => assert.throws(() => parseScript(input, "test.json"), pattern);

  test("accepts a full script", () => {
    const script = parseScript(
      {
        rules: [
          {
            match: { lastMessage: "/^go/i", anyMessage: "x", system: "s", tool: "bash", request: 2 },
            reply: [
              { text: "a", usage: { input: 10, output: 2, cacheRead: 5, cacheWrite: 5 }, delayMs: 0 },
              { toolCalls: [{ name: "bash", arguments: "{broken", id: "call_1" }], finish: "tool_calls" },
              { error: { status: 429, headers: { "retry-after": "1" }, body: { any: "thing" } }, delayMs: 5 },
            ],
            times: 4,
          },
          { reply: { text: "cut", cutAfterChunks: 2 } },
        ],
        models: ["a"],
      },
      "test.json",
    );
    assert.equal(script.rules.length, 2);
  });

  test("names the source, the rule index and the field", () => {
    invalid(
      { rules: [{ reply: { text: "ok" } }, { match: {} }] },
      /invalid model script test\.json:\n {2}rules\[1\]\.reply: /,
    );
    invalid({ rules: [{ reply: { text: 5 } }] }, /rules\[0\]\.reply/);
    invalid(
      { rules: [{ reply: [{ text: "a" }, { toolCalls: [{ arguments: {} }] }] }] },
      /rules\[0\]\.reply\[1\]\.toolCalls\[0\]\.name/,
    );
  });

  test("refuses unknown keys, so typos are not silently ignored", () => {
    invalid({ rules: [{ match: { lastMesage: "x" }, reply: {} }] }, /rules\[0\]\.match: Unrecognized key.*lastMesage/);
    invalid({ rules: [], extra: 1 }, /\(script\): Unrecognized key/);
  });

  test("refuses a bad regular expression", () => {
    invalid(
      { rules: [{ match: { system: "/(unclosed/" }, reply: {} }] },
      /rules\[0\]\.match\.system: invalid regular expression/,
    );
  });

  test("refuses an error reply with content, bad numbers and empty reply arrays", () => {
    invalid({ rules: [{ reply: { error: { status: 500 }, text: "x" } }] }, /rules\[0\]\.reply\.text: an error reply/);
    invalid({ rules: [{ reply: { error: { status: 200 } } }] }, /rules\[0\]\.reply\.error\.status/);
    invalid({ rules: [{ reply: { text: "x" }, times: 0 }] }, /rules\[0\]\.times/);
    invalid({ rules: [{ reply: [] }] }, /rules\[0\]\.reply/);
    invalid({ rules: [{ match: { request: 0 }, reply: {} }] }, /rules\[0\]\.match\.request/);
    invalid(
      { rules: [{ reply: { usage: { input: 10, cacheRead: 8, cacheWrite: 8 } } }] },
      /rules\[0\]\.reply\.usage\.input: input is the total/,
    );
    invalid("rules", /\(script\)/);
  });

  test("hang and garbage replies take nothing else; a reply stalls or is cut, not both", () => {
    assert.equal(parseScript({ rules: [{ reply: { hang: true, delayMs: 5 } }] }, "t").rules.length, 1);
    invalid({ rules: [{ reply: { hang: true, text: "x" } }] }, /rules\[0\]\.reply\.text: a hang reply takes only/);
    invalid({ rules: [{ reply: { hang: false } }] }, /rules\[0\]\.reply\.hang/);
    invalid(
      { rules: [{ reply: { garbage: "<html>", error: { status: 500 } } }] },
      /rules\[0\]\.reply\.error: a garbage reply takes only/,
    );
    invalid({ rules: [{ reply: { garbage: "" } }] }, /rules\[0\]\.reply\.garbage/);
    invalid(
      { rules: [{ reply: { text: "x", stallAfterBytes: 3, cutAfterChunks: 1 } }] },
      /rules\[0\]\.reply\.stallAfterBytes: a reply either stalls or is cut/,
    );
    invalid({ rules: [{ reply: { error: { status: 500 }, stallAfterBytes: 1 } }] }, /stallAfterBytes: an error reply/);
  });

  test("loadScriptFile reads JSON and names the file in every error", () => {
    const good = join(dir, "good.json");
    writeFileSync(good, JSON.stringify({ rules: [{ reply: { text: "hi" } }] }));
    assert.equal(loadScriptFile(good).rules.length, 1);
    const notJson = join(dir, "bad.json");
    writeFileSync(notJson, "{ rules: ");
    assert.throws(() => loadScriptFile(notJson), /model script .*bad\.json is not valid JSON/);
    const wrong = join(dir, "wrong.json");
    writeFileSync(wrong, JSON.stringify({ rules: [{}] }));
    assert.throws(() => loadScriptFile(wrong), /invalid model script .*wrong\.json:\n {2}rules\[0\]\.reply/);
    assert.throws(() => loadScriptFile(join(dir, "missing.json")), /cannot read model script .*missing\.json/);
  });
});

describe("rule matching", () => {
  const book = (script: Script) => new RuleBook(script.rules);

  test("substring and /regex/flags matchers", () => {
    assert.equal(textMatcher("lo w")("hello world"), true);
    assert.equal(textMatcher("/^HELLO/i")("hello world"), true);
    assert.equal(textMatcher("/^world/")("hello world"), false);
    const global = textMatcher("/o/g");
    assert.equal(global("foo"), true);
    assert.equal(global("foo"), true, "a g flag does not make matching stateful");
  });

  test("each matcher: lastMessage, anyMessage, system, tool, request", () => {
    const rules = book({
      rules: [
        { match: { request: 3 }, reply: { text: "third" } },
        { match: { tool: "bash" }, reply: { text: "has bash" } },
        { match: { system: "/careful/" }, reply: { text: "careful" } },
        { match: { anyMessage: "earlier" }, reply: { text: "any" } },
        { match: { lastMessage: "tool_result" }, reply: { text: "last" } },
      ],
    });
    const conversation = request({
      messages: [
        { role: "user", text: "earlier question" },
        { role: "assistant", text: "tool_call bash {}" },
        { role: "tool", text: "tool_result call_1: ok" },
      ],
    });
    assert.equal(rules.pick(request({ tools: ["bash_x"] }), 1), undefined, "tool names match exactly");
    assert.equal(rules.pick(request({ tools: ["bash"] }), 2)?.value.text, "has bash");
    assert.equal(rules.pick(request(), 3)?.value.text, "third");
    assert.equal(rules.pick(request({ system: "Be careful." }), 4)?.value.text, "careful");
    assert.equal(rules.pick(conversation, 5)?.value.text, "any");
    assert.equal(rules.pick({ ...conversation, messages: conversation.messages.slice(1) }, 6)?.value.text, "last");
  });

  test("all matchers of a rule must hold", () => {
    const rules = book({ rules: [{ match: { lastMessage: "a", system: "b" }, reply: { text: "both" } }] });
    assert.equal(rules.pick(request({ messages: [{ role: "user", text: "a" }] }), 1), undefined);
    assert.equal(rules.pick(request({ messages: [{ role: "user", text: "a" }], system: "b" }), 2)?.value.text, "both");
  });

  test("successive replies, times, and the first rule with replies left", () => {
    const rules = book({
      rules: [
        { reply: [{ text: "1" }, { text: "2" }] },
        { reply: [{ text: "3" }, { text: "4" }], times: 3 },
        { reply: { text: "5" }, times: 1 },
        { match: { lastMessage: "never" }, reply: { text: "x" } },
      ],
    });
    const picks = [1, 2, 3, 4, 5, 6].map((n) => rules.pick(request(), n));
    assert.deepEqual(
      picks.map((pick) => pick?.value.text),
      ["1", "2", "3", "4", "4", "5"],
    );
    assert.deepEqual(
      picks.map((pick) => [pick?.rule, pick?.reply]),
      [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [1, 1],
        [2, 0],
      ],
    );
    assert.equal(rules.pick(request(), 7), undefined);
    assert.match(rules.remaining(), /^rule 3 \(unlimited\)/);
  });

  test("a single reply without times answers forever", () => {
    const rules = book({ rules: [{ reply: { text: "again" } }] });
    for (let n = 1; n <= 50; n++) assert.equal(rules.pick(request(), n)?.value.text, "again");
  });
});

describe("request normalization", () => {
  test("chat completions: system, tool calls and tool results as text", () => {
    const normalized = normalizeChat({
      model: "gpt",
      stream: true,
      max_tokens: 100,
      messages: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "read a" },
            { type: "image_url", image_url: { url: "x" } },
          ],
        },
        {
          role: "assistant",
          content: "Reading.",
          tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "contents of a" },
      ],
      tools: [{ type: "function", function: { name: "read", parameters: {} } }],
    });
    assert.deepEqual(normalized, {
      protocol: "openai-chat",
      model: "gpt",
      system: "Be brief.",
      messages: [
        { role: "user", text: "read a\n[image_url]" },
        { role: "assistant", text: 'Reading.\ntool_call read {"path":"a"}' },
        { role: "tool", text: "tool_result c1: contents of a" },
      ],
      tools: ["read"],
      stream: true,
      maxTokens: 100,
    });
  });

  test("anthropic: system blocks, tool_use and tool_result blocks", () => {
    const normalized = normalizeAnthropic({
      model: "claude",
      max_tokens: 64,
      system: [{ type: "text", text: "Be brief." }],
      messages: [
        { role: "user", content: "read a" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading." },
            { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "contents" }] },
            { type: "text", text: "thanks" },
          ],
        },
      ],
      tools: [{ name: "read", input_schema: {} }],
    });
    assert.equal(normalized.system, "Be brief.");
    assert.deepEqual(normalized.messages, [
      { role: "user", text: "read a" },
      { role: "assistant", text: 'Reading.\ntool_call read {"path":"a"}' },
      { role: "tool", text: "tool_result t1: contents" },
      { role: "user", text: "thanks" },
    ]);
    assert.deepEqual(normalized.tools, ["read"]);
    assert.equal(normalized.stream, false);
    assert.equal(normalized.maxTokens, 64);
  });

  test("responses: instructions, developer items, function calls, outputs and remembered item references", () => {
    const memory: ItemMemory = new Map([["msg_1", { role: "assistant", text: "Reading." }]]);
    const normalized = normalizeResponses(
      {
        model: "gpt",
        instructions: "Top.",
        max_output_tokens: 50,
        input: [
          { role: "developer", content: "Be brief." },
          { role: "user", content: [{ type: "input_text", text: "read a" }] },
          { type: "item_reference", id: "msg_1" },
          { type: "function_call", call_id: "c1", name: "read", arguments: '{"path":"a"}' },
          { type: "function_call_output", call_id: "c1", output: "contents" },
          { type: "item_reference", id: "unknown" },
        ],
        tools: [
          { type: "function", name: "read" },
          { type: "namespace", name: "ns", tools: [{ type: "function", name: "inner" }] },
          { type: "web_search" },
        ],
      },
      memory,
    );
    assert.equal(normalized.system, "Top.\n\nBe brief.");
    assert.deepEqual(normalized.messages, [
      { role: "user", text: "read a" },
      { role: "assistant", text: 'Reading.\ntool_call read {"path":"a"}' },
      { role: "tool", text: "tool_result c1: contents" },
      { role: "assistant", text: "[item_reference unknown]" },
    ]);
    assert.deepEqual(normalized.tools, ["read", "inner", "web_search"]);
    assert.equal(normalized.maxTokens, 50);
    assert.deepEqual(normalizeResponses({ input: "just text" }, memory).messages, [
      { role: "user", text: "just text" },
    ]);
  });
});

describe("reply planning", () => {
  test("defaults: finish from tool calls, usage estimated and never zero, ids per protocol", () => {
    const plan = planReply(
      { toolCalls: [{ name: "read", arguments: { path: "a" } }] },
      request({ protocol: "anthropic" }),
      7,
      0,
    );
    assert.equal(plan.finish, "tool_calls");
    assert.equal(plan.toolCalls[0]?.id, "toolu_7_0");
    assert.equal(plan.toolCalls[0]?.arguments, '{"path":"a"}');
    assert.equal(plan.usage.input, 1);
    assert.ok(plan.usage.output >= 1);
    assert.equal(planReply({ text: "hi" }, request(), 1, 400).usage.input, 100);
    assert.equal(planReply({}, request(), 1, 10).finish, "stop");
    assert.equal(planReply({ usage: { cacheRead: 500 } }, request(), 1, 10).usage.input, 500);
  });

  test("text streams word by word and arguments in a few pieces, losslessly", () => {
    assert.deepEqual(textPieces("The quick  brown\nfox"), ["The ", "quick  ", "brown\n", "fox"]);
    assert.deepEqual(textPieces(""), []);
    const args = JSON.stringify({ path: "some/long/path/to/a/file.ts", content: "x".repeat(40) });
    const pieces = argumentPieces(args);
    assert.equal(pieces.length, 3);
    assert.equal(pieces.join(""), args);
  });
});
