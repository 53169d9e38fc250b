import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ApprovalRequest } from "../permission/gate/approval.js";
import { editorServers } from "./mcp-servers.js";
import { modeState } from "./modes.js";
import { permissionOptions, replyOf, VIA_EDITOR } from "./permission.js";
import { planOf } from "./plan.js";
import { messageOf } from "./prompt.js";
import { formMessage, formOf, questionReplyOf } from "./question.js";
import { sessionPage } from "./session-list.js";
import { turnEnd } from "./stop-reason.js";
import { toolCallView, toolResultUpdate } from "./tool-call.js";
import { toolKind } from "./tool-kind.js";

describe("acp mapping", () => {
  it("gives each built-in tool its ACP kind, and anything else other", () => {
    const kinds = Object.fromEntries(
      ["read", "list", "glob", "grep", "edit", "write", "apply_patch", "shell", "webfetch", "websearch", "todo"].map(
        (name) => [name, toolKind(name)],
      ),
    );
    assert.deepEqual(kinds, {
      read: "read",
      list: "read",
      glob: "search",
      grep: "search",
      edit: "edit",
      write: "edit",
      apply_patch: "edit",
      shell: "execute",
      webfetch: "fetch",
      websearch: "search",
      todo: "think",
    });
    assert.equal(toolKind("mcp__github__create_issue"), "other");
    assert.equal(toolKind("task"), "other");
  });

  it("shows a call with its title, absolute locations and an edit's diff", () => {
    const edit = toolCallView("edit", { path: "src/a.ts", old_string: "a", new_string: "b" }, "/w");
    assert.equal(edit.title, "edit src/a.ts");
    assert.deepEqual(edit.locations, [{ path: "/w/src/a.ts" }]);
    assert.deepEqual(edit.content, [{ type: "diff", path: "/w/src/a.ts", oldText: "a", newText: "b" }]);
    const write = toolCallView("write", { path: "/abs/b.txt", content: "new" }, "/w", "old");
    assert.deepEqual(write.content, [{ type: "diff", path: "/abs/b.txt", oldText: "old", newText: "new" }]);
    assert.deepEqual(toolCallView("write", { path: "n.txt", content: "new" }, "/w", null).content, [
      { type: "diff", path: "/w/n.txt", oldText: null, newText: "new" },
    ]);
    // Not known what the file held: no diff, rather than one saying the file is new.
    assert.equal(toolCallView("write", { path: "n.txt", content: "new" }, "/w").content, undefined);
    assert.deepEqual(toolCallView("read", { path: "a.ts", offset: 40 }, "/w").locations, [
      { path: "/w/a.ts", line: 40 },
    ]);
    assert.equal(toolCallView("shell", { command: "npm test\nmore" }, "/w").title, "shell npm test");
    const patch = toolCallView(
      "apply_patch",
      { patch: "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n*** Add File: c.ts\n*** End Patch" },
      "/w",
    );
    assert.deepEqual(patch.locations, [{ path: "/w/a.ts" }, { path: "/w/b.ts" }, { path: "/w/c.ts" }]);
    assert.equal(toolCallView("shell", { command: "x".repeat(300) }, "/w").title.length, 120);
  });

  it("ends a call completed or failed, keeping an edit's diff above bosun's words", () => {
    const started = toolCallView("edit", { path: "a", old_string: "x", new_string: "y" }, "/w");
    const done = toolResultUpdate("c1", { summary: "edit a (+1 -1)", isError: false }, started);
    assert.equal(done.status, "completed");
    assert.equal(done.content?.[0]?.type, "diff");
    assert.deepEqual(done.content?.[1], { type: "content", content: { type: "text", text: "edit a (+1 -1)" } });
    assert.equal(toolResultUpdate("c2", { summary: "denied by the user", isError: true }).status, "failed");
  });

  it("makes a todo call's list the editor's plan, and ignores what the tool would not take", () => {
    assert.deepEqual(
      planOf({
        items: [
          { content: "a", status: "done" },
          { content: "b", status: "in_progress" },
          { content: "c", status: "pending" },
        ],
      }),
      [
        { content: "a", priority: "medium", status: "completed" },
        { content: "b", priority: "medium", status: "in_progress" },
        { content: "c", priority: "medium", status: "pending" },
      ],
    );
    assert.deepEqual(planOf({ items: [] }), []);
    assert.equal(planOf({ items: [{ content: "a", status: "later" }] }), undefined);
    assert.equal(planOf("nonsense"), undefined);
  });

  it("maps a turn's outcome to a stop reason: cancelled always wins, refusal only for a blocked prompt", () => {
    const outcome = (status: "done" | "limit" | "repeat" | "failed" | "cancelled" | "blocked", denied = 0) => ({
      status,
      steps: 1,
      denied,
      message: "why",
    });
    assert.deepEqual(turnEnd(outcome("done"), false), { stopReason: "end_turn" });
    // Denied calls stay in the conversation: not a refusal (ACP: a refused prompt is dropped from it).
    assert.deepEqual(turnEnd(outcome("done", 2), false), { stopReason: "end_turn" });
    assert.deepEqual(turnEnd(outcome("limit"), false), { stopReason: "max_turn_requests" });
    assert.deepEqual(turnEnd(outcome("blocked"), false), { stopReason: "refusal" });
    assert.deepEqual(turnEnd(outcome("cancelled"), false), { stopReason: "cancelled" });
    assert.deepEqual(turnEnd(outcome("failed"), false), { error: "why" });
    assert.deepEqual(turnEnd(outcome("failed"), true), { stopReason: "cancelled" });
  });

  it("offers allow once, the terminal's always options and reject, and reads the answer as the person's through the editor", () => {
    const option = { label: "write to a.txt", rules: [{ action: "edit", pattern: "/w/a.txt" }] };
    const request = {
      tool: "write",
      callId: "c1",
      input: {},
      outcomes: [],
      always: { options: [option] },
    } as unknown as ApprovalRequest;
    assert.deepEqual(
      permissionOptions(request).map((o) => [o.optionId, o.kind]),
      [
        ["allow-once", "allow_once"],
        ["allow-always-0", "allow_always"],
        ["reject", "reject_once"],
      ],
    );
    const picked = (optionId: string) => replyOf(request, { outcome: "selected", optionId });
    assert.deepEqual(picked("allow-once"), { kind: "once", via: VIA_EDITOR });
    assert.deepEqual(picked("allow-always-0"), { kind: "always", option, via: VIA_EDITOR });
    assert.deepEqual(picked("reject"), { kind: "deny", via: VIA_EDITOR });
    assert.deepEqual(replyOf(request, { outcome: "cancelled" }), { kind: "cancel", via: VIA_EDITOR });
    // Not an option offered: nobody's answer, a deny by code.
    assert.equal(picked("allow-always-7").kind, "unanswered");
    assert.equal(picked("yes please").kind, "unanswered");
    const none = { ...request, always: { options: [], unavailable: "a command bosun cannot name" } };
    assert.deepEqual(
      permissionOptions(none).map((o) => o.kind),
      ["allow_once", "reject_once"],
    );
  });

  it("takes the editor's MCP servers as bosun config, names made bosun's, a second of one name left out", () => {
    const { flags, notes } = editorServers([
      { name: "notes", command: "/usr/bin/notes", args: ["--x"], env: [{ name: "K", value: "v" }] },
      { type: "http", name: "My Server", url: "https://example.com/mcp", headers: [{ name: "A", value: "b" }] },
      { type: "sse", name: "My Server?", url: "https://example.com/sse", headers: [] },
    ]);
    assert.deepEqual(
      flags.map((f) => [f.path, f.value]),
      [
        [["mcp", "notes"], { command: "/usr/bin/notes", args: ["--x"], env: { K: "v" } }],
        [["mcp", "My_Server"], { url: "https://example.com/mcp", type: "http", headers: { A: "b" } }],
      ],
    );
    assert.equal(notes.length, 2);
    assert.match(notes[1] ?? "", /left out/);
  });

  it("reads a prompt's text, links, embedded files and images into the person's message", () => {
    const message = messageOf([
      { type: "text", text: "look at" },
      { type: "resource_link", uri: "file:///w/a.ts", name: "a.ts" },
      { type: "resource", resource: { uri: "file:///w/b.ts", text: "const b = 1;" } },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "audio", mimeType: "audio/wav", data: "AAAA" },
    ]);
    assert.equal(message.text, "look at\n@/w/a.ts\n[audio content was left out: bosun does not take it]");
    assert.deepEqual(message.files, [
      { path: "/w/b.ts", content: "const b = 1;" },
      { path: "image-2", content: "", image: { mediaType: "image/png", data: "AAAA" } },
    ]);
  });

  it("pages the editor's session history by cursor", () => {
    const sessions = Array.from({ length: 60 }, (_, n) => ({
      id: `S${n}`,
      title: `t${n}`,
      directory: "/w",
      parentId: null,
      created: 0,
      updated: Date.UTC(2026, 0, 1),
    }));
    const first = sessionPage(sessions);
    assert.equal(first.sessions.length, 50);
    assert.deepEqual(first.sessions[0], {
      sessionId: "S0",
      cwd: "/w",
      title: "t0",
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    const second = sessionPage(sessions, first.nextCursor);
    assert.equal(second.sessions.length, 10);
    assert.equal(second.nextCursor, undefined);
    assert.equal(sessionPage(sessions, "nonsense").sessions[0]?.sessionId, "S0");
  });

  it("puts a question to the editor as a form, and takes back only the fields asked", () => {
    const question = {
      from: "The agent",
      message: "Which colour?",
      note: "Your answer goes to the model.",
      fields: [
        {
          name: "choice",
          label: "Pick one",
          kind: "choice" as const,
          options: [{ value: "red", label: "red" }],
          required: false,
        },
        { name: "own_words", label: "Or in your own words", kind: "text" as const, required: true, max: 100 },
        { name: "n", label: "How many", kind: "integer" as const, required: false, min: 1 },
      ],
    };
    assert.deepEqual(formOf(question), {
      type: "object",
      properties: {
        choice: { type: "string", title: "Pick one", oneOf: [{ const: "red", title: "red" }] },
        own_words: { type: "string", title: "Or in your own words", maxLength: 100 },
        n: { type: "integer", title: "How many", minimum: 1 },
      },
      required: ["own_words"],
    });
    assert.equal(formMessage(question), "The agent asks: Which colour?\n\nYour answer goes to the model.");
    assert.deepEqual(
      questionReplyOf(question, { action: "accept", content: { choice: "red", extra: "x", n: { a: 1 } } }),
      {
        action: "accept",
        values: { choice: "red" },
      },
    );
    assert.deepEqual(questionReplyOf(question, { action: "decline" }), { action: "decline" });
    assert.deepEqual(questionReplyOf(question, { action: "cancel" }), { action: "cancel" });
  });

  it("offers bosun's four modes, the session's selected", () => {
    const state = modeState("smart");
    assert.equal(state.currentModeId, "smart");
    assert.deepEqual(state.availableModes.map((m) => m.id).sort(), ["approve", "auto", "chat", "smart"]);
    assert.ok(state.availableModes.every((m) => typeof m.description === "string" && m.description.length > 0));
  });
});
