import assert from "node:assert/strict";
import { it } from "node:test";
import type { ModelMessage } from "ai";
import { textCallsAsText } from "./text-results.js";

it("results of calls written as text go back as one [bosun] user message; native calls stay as they are", () => {
  const messages: ModelMessage[] = [
    { role: "user", content: "read it" },
    {
      role: "assistant",
      content: [
        { type: "text", text: '<tool_call>{"name":"read","arguments":{"path":"a"}}</tool_call>' },
        { type: "tool-call", toolCallId: "textcall_1_1", toolName: "read", input: { path: "a" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "textcall_1_1", toolName: "read", output: { type: "text", value: "A" } },
      ],
    },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "c9", toolName: "list", input: {} }] },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c9", toolName: "list", output: { type: "error-text", value: "no" } },
      ],
    },
  ];
  const out = textCallsAsText(messages);
  assert.deepEqual(out[1], {
    role: "assistant",
    content: [{ type: "text", text: '<tool_call>{"name":"read","arguments":{"path":"a"}}</tool_call>' }],
  });
  assert.deepEqual(out[2], {
    role: "user",
    content: '[bosun] Results of your tool calls:\n<tool_result name="read" call="textcall_1_1">\nA\n</tool_result>',
  });
  assert.deepEqual(out.slice(3), messages.slice(3));
});
