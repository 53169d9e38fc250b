import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelMessage } from "ai";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { StoredEvent } from "../store/session-store.js";
import { projectConversation } from "./conversation.js";
import { type AssistantMessage, EV, type UserMessage } from "./events.js";

/** A session log built step by step, the way the loop appends it. */
function log() {
  const events: StoredEvent[] = [];
  const add = (type: string, data: unknown) => {
    events.push({ sessionId: "S", seq: events.length + 1, type, data, at: 1_700_000_000_000 + events.length });
  };
  const api = {
    events,
    user: (text: string, files?: UserMessage["files"]) => {
      add(EV.user, { text, ...(files ? { files } : {}) });
      return api;
    },
    assistant: (text: string, toolCalls: ModelToolCall[] = [], reasoning?: AssistantMessage["reasoning"]) => {
      const data: AssistantMessage = {
        text,
        toolCalls,
        finish: "stop",
        model: "p/m",
        step: 1,
        status: "complete",
        ...(reasoning ? { reasoning } : {}),
      };
      add(EV.assistant, data);
      return api;
    },
    finished: (id: string, output: string, isError = false) => {
      add(EV.callFinished, { id, name: "read", output, isError, summary: "s" });
      return api;
    },
    started: (id: string) => {
      add(EV.callStarted, { id, name: "read", input: {}, step: 1 });
      return api;
    },
    interrupted: (id: string) => {
      add(EV.callInterrupted, { id, name: "read" });
      return api;
    },
    cancelled: (id: string) => {
      add(EV.callCancelled, { id, name: "read" });
      return api;
    },
    notice: (text: string) => {
      add(EV.notice, { text });
      return api;
    },
    other: (type: string) => {
      add(type, {});
      return api;
    },
    project: (): ModelMessage[] => projectConversation(events),
  };
  return api;
}

const call = (id: string, input: unknown = { path: `${id}.txt` }, name = "read"): ModelToolCall => ({
  id,
  name,
  input,
});
const toolResults = (messages: ModelMessage[]) =>
  messages.flatMap((m) => (m.role === "tool" ? m.content : [])) as Array<{
    toolCallId: string;
    toolName: string;
    output: { type: string; value: string };
  }>;

describe("projectConversation", () => {
  it("projects nothing from an empty log", () => {
    assert.deepEqual(projectConversation([]), []);
  });

  it("sends a user message as its text", () => {
    assert.deepEqual(log().user("fix the bug").project(), [{ role: "user", content: "fix the bug" }]);
  });

  it("appends attached files to the user's text, each in a file element", () => {
    const messages = log()
      .user("summarize", [
        { path: "a.txt", content: "AAA" },
        { path: "dir/b.md", content: "B\nB" },
      ])
      .project();
    assert.deepEqual(messages, [
      {
        role: "user",
        content: 'summarize\n\n<file path="a.txt">\nAAA\n</file>\n\n<file path="dir/b.md">\nB\nB\n</file>',
      },
    ]);
  });

  it("sends only the files when the text is empty", () => {
    const [message] = log()
      .user("", [{ path: "a.txt", content: "A" }])
      .project();
    assert.equal(message?.content, '<file path="a.txt">\nA\n</file>');
  });

  it("sends an assistant reply's text", () => {
    assert.deepEqual(log().user("hi").assistant("Hello.").project(), [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "Hello." }] },
    ]);
  });

  it("sends an assistant's tool calls with its text, then one tool message with their results in call order", () => {
    const messages = log()
      .user("go")
      .assistant("Let me look.", [call("c1"), call("c2", { pattern: "x" }, "grep")])
      .started("c2")
      .started("c1")
      .finished("c2", "no matches")
      .finished("c1", "1: hello")
      .project();
    assert.deepEqual(messages, [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "c1.txt" } },
          { type: "tool-call", toolCallId: "c2", toolName: "grep", input: { pattern: "x" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "1: hello" } },
          { type: "tool-result", toolCallId: "c2", toolName: "grep", output: { type: "text", value: "no matches" } },
        ],
      },
    ]);
  });

  it("sends tool calls without a text part when the assistant wrote no text", () => {
    const [, assistant] = log()
      .user("go")
      .assistant("", [call("c1")])
      .finished("c1", "ok")
      .project();
    assert.deepEqual(assistant, {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "c1.txt" } }],
    });
  });

  it("gives each kind of outcome its result: finished, error, interrupted, cancelled, none recorded", () => {
    const messages = log()
      .user("go")
      .assistant("", [call("ok"), call("bad"), call("crash"), call("stop"), call("lost")])
      .finished("ok", "fine")
      .finished("bad", "Cannot read bad.txt: not found", true)
      .started("crash")
      .interrupted("crash")
      .cancelled("stop")
      .project();
    assert.deepEqual(
      toolResults(messages).map((r) => [r.toolCallId, r.output]),
      [
        ["ok", { type: "text", value: "fine" }],
        ["bad", { type: "error-text", value: "Cannot read bad.txt: not found" }],
        [
          "crash",
          {
            type: "error-text",
            value:
              "Interrupted: bosun stopped before this call finished. It was not run again; check its effects before repeating it.",
          },
        ],
        ["stop", { type: "error-text", value: "Cancelled by the user before it finished." }],
        ["lost", { type: "error-text", value: "No result was recorded for this call." }],
      ],
    );
  });

  it("gives exactly one result per call, even for an empty output", () => {
    const messages = log()
      .user("go")
      .assistant("", [call("c1")])
      .finished("c1", "")
      .project();
    assert.deepEqual(toolResults(messages), [
      { type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "" } },
    ]);
  });

  it("skips empty assistant messages (no text, no calls)", () => {
    const messages = log().user("go").assistant("").notice("Your last reply was empty.").assistant("Done.").project();
    assert.deepEqual(messages, [
      { role: "user", content: "go" },
      { role: "user", content: "[bosun] Your last reply was empty." },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ]);
  });

  it("replays a call whose arguments were unreadable (or not an object) with no arguments", () => {
    const messages = log()
      .user("go")
      .assistant("", [
        call("c1", '{"path": "a'),
        { id: "c2", name: "read", input: undefined },
        call("c3", null),
        call("c4", [1, 2]),
      ])
      .project();
    const assistant = messages[1] as { content: Array<{ input?: unknown }> };
    assert.deepEqual(
      assistant.content.map((part) => part.input),
      [{}, {}, {}, {}],
    );
  });

  it("replays the model's reasoning first, with the metadata its provider needs back", () => {
    const messages = log()
      .user("go")
      .assistant("reading", [call("c1")], [{ text: "think", metadata: { anthropic: { signature: "sig" } } }])
      .finished("c1", "ok")
      .project();
    const assistant = messages[1] as { content: Array<Record<string, unknown>> };
    assert.deepEqual(assistant.content[0], {
      type: "reasoning",
      text: "think",
      providerOptions: { anthropic: { signature: "sig" } },
    });
    assert.deepEqual(
      assistant.content.map((part) => part.type),
      ["reasoning", "text", "tool-call"],
    );
  });

  it("sends notices as user messages marked [bosun], where they happened", () => {
    const messages = log()
      .user("go")
      .assistant("", [call("c1")])
      .finished("c1", "ok")
      .notice("Background job j1 finished with exit code 0.")
      .assistant("Done.")
      .project();
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "tool", "user", "assistant"],
    );
    assert.deepEqual(messages[3], { role: "user", content: "[bosun] Background job j1 finished with exit code 0." });
  });

  it("keeps the order of several turns, and ignores events that are not conversation", () => {
    const messages = log()
      .other("session.created")
      .user("first")
      .assistant("", [call("c1")])
      .other("decision")
      .started("c1")
      .finished("c1", "one")
      .assistant("First done.")
      .other(EV.turnEnded)
      .user("second")
      .assistant("", [call("c2")])
      .finished("c2", "two")
      .assistant("Second done.")
      .project();
    assert.deepEqual(
      messages.map((m) => [m.role, typeof m.content === "string" ? m.content : m.content.length]),
      [
        ["user", "first"],
        ["assistant", 1],
        ["tool", 1],
        ["assistant", 1],
        ["user", "second"],
        ["assistant", 1],
        ["tool", 1],
        ["assistant", 1],
      ],
    );
    assert.deepEqual(
      toolResults(messages).map((r) => r.output.value),
      ["one", "two"],
    );
  });

  it("gives each step its own result when a provider reuses a call id", () => {
    const messages = log()
      .user("go")
      .assistant("", [call("call_0", { path: "a" })])
      .finished("call_0", "contents of a")
      .assistant("", [call("call_0", { path: "b" })])
      .finished("call_0", "contents of b")
      .assistant("", [call("call_0", { path: "c" })])
      .project();
    assert.deepEqual(
      toolResults(messages).map((r) => r.output.value),
      ["contents of a", "contents of b", "No result was recorded for this call."],
    );
  });

  it("matches an outcome to the latest call with its id when an earlier one never got one", () => {
    const messages = log()
      .user("go")
      .assistant("", [call("c1")]) // the stream broke: no outcome was ever recorded
      .assistant("", [call("c1")])
      .started("c1")
      .interrupted("c1")
      .project();
    assert.deepEqual(
      toolResults(messages).map((r) => r.output.value.split(":")[0]),
      ["No result was recorded for this call.", "Interrupted"],
    );
  });

  it("ignores an outcome for a call no assistant message made", () => {
    const messages = log().user("go").finished("ghost", "boo").assistant("Done.").project();
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant"],
    );
  });
});

describe("replayName", () => {
  it("keeps valid names and makes others acceptable to providers", async () => {
    const { replayName } = await import("./conversation.js");
    assert.equal(replayName("read"), "read");
    assert.equal(replayName("my-tool_2"), "my-tool_2");
    assert.equal(replayName("functions.Read"), "functions_Read");
    assert.equal(replayName(""), "unknown_tool");
    assert.equal(replayName("x".repeat(80)).length, 64);
  });
});
