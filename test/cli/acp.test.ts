import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { startAcp } from "../support/acp-client.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario, waitFor } from "../support/scenario.js";

const NOTES_SERVER = fileURLToPath(new URL("../support/mcp-notes-server.mjs", import.meta.url));

const writing = (id: string, path: string) => ({
  match: { lastMessage: `write ${path}`, tool: "write" },
  reply: { toolCalls: [{ id, name: "write", arguments: { path, content: `${path}\n` } }] },
  times: 1,
});

const calls = (...list: Array<{ id: string; name: string; arguments: Record<string, unknown> }>) => ({
  toolCalls: list,
});

/** The updates of one kind, in order. */
function ofKind<K extends SessionUpdate["sessionUpdate"]>(updates: Array<{ update: SessionUpdate }>, kind: K) {
  return updates
    .map((n) => n.update)
    .filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}

describe("bosun acp: an editor drives a whole task over ACP", () => {
  it("prompt with streamed updates, an ask allowed and one rejected (the person's, through the editor), cancel, then session/load replays it", async () => {
    const s = await startScenario({
      rules: [
        // `tool`: the title request offers no tools, so it never takes these.
        {
          match: { lastMessage: "write hello", tool: "write" },
          reply: calls(
            {
              id: "plan-1",
              name: "todo",
              arguments: { items: [{ content: "write hello.txt", status: "in_progress" }] },
            },
            { id: "w-hello", name: "write", arguments: { path: "hello.txt", content: "hello\n" } },
          ),
          times: 1,
        },
        {
          match: { lastMessage: "write secret", tool: "write" },
          reply: calls({ id: "w-secret", name: "write", arguments: { path: "secret.txt", content: "x\n" } }),
          times: 1,
        },
        { match: { lastMessage: "hang", tool: "write" }, reply: { hang: true } },
        { reply: { text: "Done." } },
      ],
    });
    const editor = startAcp(s);
    let sessionId = "";
    try {
      try {
        const init = await editor.agent.request(methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        });
        assert.equal(init.protocolVersion, 1);
        assert.equal(init.agentCapabilities?.loadSession, true);

        const created = await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] });
        sessionId = created.sessionId;
        assert.equal(created.modes?.currentModeId, "approve");
        assert.deepEqual(created.modes?.availableModes.map((m) => m.id).sort(), ["approve", "auto", "chat", "smart"]);

        // 1. An ask allowed once: the file is written, the plan and the call stream to the editor.
        editor.answer = () => ({ outcome: { outcome: "selected", optionId: "allow-once" } });
        const first = await editor.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "write hello" }],
        });
        assert.equal(first.stopReason, "end_turn");
        assert.equal(readFileSync(join(s.ws.dir, "hello.txt"), "utf8"), "hello\n");
        const [ask] = editor.asked;
        assert.equal(ask?.toolCall.toolCallId, "w-hello");
        assert.equal(ask?.toolCall.kind, "edit");
        assert.deepEqual(ask?.toolCall.content?.[0], {
          type: "diff",
          path: join(s.ws.dir, "hello.txt"),
          oldText: null,
          newText: "hello\n",
        });
        // The terminal's "always" options (this file, its folder), then reject.
        assert.deepEqual(
          ask?.options.map((o) => o.kind),
          ["allow_once", "allow_always", "allow_always", "reject_once"],
        );
        assert.match(ask?.options[1]?.name ?? "", /^Always allow /);
        const started = ofKind(editor.updates, "tool_call").find((u) => u.toolCallId === "w-hello");
        assert.equal(started?.kind, "edit");
        assert.equal(started?.title, "write hello.txt");
        assert.deepEqual(started?.locations, [{ path: join(s.ws.dir, "hello.txt") }]);
        assert.deepEqual(started?.content?.[0], {
          type: "diff",
          path: join(s.ws.dir, "hello.txt"),
          oldText: null,
          newText: "hello\n",
        });
        // Allowed in the editor, it runs, then it is done.
        const ends = ofKind(editor.updates, "tool_call_update").filter((u) => u.toolCallId === "w-hello");
        assert.deepEqual(
          ends.map((u) => u.status),
          ["in_progress", "completed"],
        );
        assert.deepEqual(ofKind(editor.updates, "plan").at(-1)?.entries, [
          { content: "write hello.txt", priority: "medium", status: "in_progress" },
        ]);
        assert.equal(ofKind(editor.updates, "tool_call").find((u) => u.toolCallId === "plan-1")?.kind, "think");
        const text = ofKind(editor.updates, "agent_message_chunk")
          .map((u) => (u.content.type === "text" ? u.content.text : ""))
          .join("");
        assert.match(text, /Done\./);

        // 2. An ask rejected: nothing written, the call failed, the turn ends as usual.
        editor.answer = () => ({ outcome: { outcome: "selected", optionId: "reject" } });
        const second = await editor.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "write secret" }],
        });
        assert.equal(second.stopReason, "end_turn");
        assert.equal(existsSync(join(s.ws.dir, "secret.txt")), false);
        assert.equal(
          ofKind(editor.updates, "tool_call_update").find((u) => u.toolCallId === "w-secret")?.status,
          "failed",
        );

        // 3. Cancel: a turn waiting on the model stops, and answers cancelled.
        const requests = s.server.requests.length;
        const hung = editor.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "hang" }],
        });
        await waitFor(() => (s.server.requests.length > requests ? true : undefined));
        await editor.agent.notify(methods.agent.session.cancel, { sessionId });
        assert.equal((await hung).stopReason, "cancelled");
      } finally {
        assert.equal(await editor.close(), 0, editor.stderr());
      }

      // The ledger: both answers are the person's, through the editor.
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      try {
        const decisions = readDecisions(store, sessionId);
        const allowed = expectDecision(decisions, "call.approval", "person", "allow-once");
        assert.match(JSON.stringify(allowed.reasons), /answered through.*the editor \(ACP\)/);
        const denied = expectDecision(decisions, "call.approval", "person", "deny");
        assert.match(JSON.stringify(denied.reasons), /the editor \(ACP\)/);
      } finally {
        store.close();
      }

      // 4. Another editor loads the session: its history comes back as updates before load answers.
      const again = startAcp(s);
      try {
        await again.agent.request(methods.agent.initialize, { protocolVersion: 1 });
        const loaded = await again.agent.request(methods.agent.session.load, {
          sessionId,
          cwd: s.ws.dir,
          mcpServers: [],
        });
        assert.equal(loaded?.modes?.currentModeId, "approve");
        const listed = await again.agent.request(methods.agent.session.list, { cwd: s.ws.dir });
        assert.deepEqual(
          listed.sessions.map((l) => l.sessionId),
          [sessionId],
        );
        const said = ofKind(again.updates, "user_message_chunk").map((u) =>
          u.content.type === "text" ? u.content.text : "",
        );
        assert.deepEqual(said, ["write hello", "write secret", "hang"]);
        const replayed = ofKind(again.updates, "tool_call").map((u) => u.toolCallId);
        assert.deepEqual(replayed, ["plan-1", "w-hello", "w-secret"]);
        const ends = ofKind(again.updates, "tool_call_update");
        assert.equal(ends.find((u) => u.toolCallId === "w-hello")?.status, "completed");
        assert.equal(ends.find((u) => u.toolCallId === "w-secret")?.status, "failed");
        assert.ok(ofKind(again.updates, "plan").length > 0);
        assert.ok(
          ofKind(again.updates, "agent_message_chunk").some(
            (u) => u.content.type === "text" && u.content.text === "Done.",
          ),
        );
        assert.ok(again.updates.every((n) => n.sessionId === sessionId));
      } finally {
        assert.equal(await again.close(), 0, again.stderr());
      }
    } finally {
      editor.child.kill();
      await s.close();
    }
  });

  it("the editor's MCP server is the session's; set_mode is the person's; allow always is saved; a disconnect mid-ask is a deny by code", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "list notes", tool: "mcp__notes__notes_list" },
          reply: calls({ id: "n-1", name: "mcp__notes__notes_list", arguments: {} }),
          times: 1,
        },
        writing("w-auto", "auto.txt"),
        writing("w-always", "always.txt"),
        { ...writing("w-again", "always.txt"), match: { lastMessage: "write again", tool: "write" } },
        writing("w-cancel", "cancel.txt"),
        writing("w-late", "late.txt"),
        { reply: { text: "Done." } },
      ],
    });
    const editor = startAcp(s);
    let sessionId = "";
    try {
      await editor.agent.request(methods.agent.initialize, { protocolVersion: 1 });
      const created = await editor.agent.request(methods.agent.session.new, {
        cwd: s.ws.dir,
        mcpServers: [{ name: "notes", command: process.execPath, args: [NOTES_SERVER], env: [] }],
      });
      sessionId = created.sessionId;
      const prompt = (text: string) =>
        editor.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

      assert.equal((await prompt("list notes")).stopReason, "end_turn");
      const listed = ofKind(editor.updates, "tool_call_update").find((u) => u.toolCallId === "n-1");
      assert.equal(listed?.status, "completed", JSON.stringify(listed));

      // The person picks auto in the editor: nobody is asked about the write.
      await editor.agent.request(methods.agent.session.setMode, { sessionId, modeId: "auto" });
      assert.equal(ofKind(editor.updates, "current_mode_update").at(-1)?.currentModeId, "auto");
      assert.equal((await prompt("write auto.txt")).stopReason, "end_turn");
      assert.equal(readFileSync(join(s.ws.dir, "auto.txt"), "utf8"), "auto.txt\n");
      assert.equal(editor.asked.length, 0);

      // Back to approve; "always" for the file is saved as the terminal saves it: the next write does not ask.
      await editor.agent.request(methods.agent.session.setMode, { sessionId, modeId: "approve" });
      editor.answer = () => ({ outcome: { outcome: "selected", optionId: "allow-always-0" } });
      await prompt("write always.txt");
      assert.equal(editor.asked.length, 1);
      await prompt("write again");
      assert.equal(editor.asked.length, 1);
      assert.equal(readFileSync(join(s.ws.dir, "always.txt"), "utf8"), "always.txt\n");

      // The person cancels while the ask waits: the editor answers it cancelled, the turn stops.
      editor.answer = async () => {
        await editor.agent.notify(methods.agent.session.cancel, { sessionId });
        return { outcome: { outcome: "cancelled" } };
      };
      assert.equal((await prompt("write cancel.txt")).stopReason, "cancelled");
      assert.equal(existsSync(join(s.ws.dir, "cancel.txt")), false);

      // The editor goes away while an ask waits: nobody answered, a deny by code.
      editor.answer = () => {
        editor.child.stdin?.end();
        return new Promise(() => {});
      };
      await prompt("write late.txt").catch(() => undefined);
      assert.equal(await editor.close(), 0, editor.stderr());
      assert.equal(existsSync(join(s.ws.dir, "late.txt")), false);

      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      try {
        const decisions = readDecisions(store, sessionId);
        const mode = expectDecision(decisions, "permission.mode", "person", "auto");
        assert.deepEqual([mode.reasons[0]?.rule, mode.reasons[0]?.source], ["session/set_mode", "the editor (ACP)"]);
        const always = expectDecision(decisions, "call.approval", "person", "allow-always");
        assert.match(JSON.stringify(always.reasons), /the editor \(ACP\)/);
        const approvals = decisions.filter((d) => d.seat === "call.approval");
        const cancelled = approvals.find((d) => d.subject?.call === "w-cancel");
        assert.equal(cancelled?.holder, "person");
        assert.equal(cancelled?.answer, "deny");
        const late = approvals.at(-1);
        assert.equal(late?.holder, "code");
        assert.equal(late?.answer, "deny");
        assert.match(JSON.stringify(late?.reasons), /the editor disconnected/);
      } finally {
        store.close();
      }
    } finally {
      editor.child.kill();
      await s.close();
    }
  });

  it("an editor that draws forms is asked the question tool's questions: the answer goes to the model", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "ask me", tool: "question" },
          reply: calls({
            id: "q-1",
            name: "question",
            arguments: { question: "Which colour?", options: ["red", "blue"] },
          }),
          times: 1,
        },
        { match: { lastMessage: "blue" }, reply: { text: "Blue it is." }, times: 1 },
        { reply: { text: "Done." } },
      ],
    });
    const editor = startAcp(s);
    try {
      await editor.agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: { elicitation: { form: {} } },
      });
      const { sessionId } = await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] });
      editor.fill = () => ({ action: "accept", content: { choice: "blue" } });
      const answered = await editor.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "ask me" }],
      });
      assert.equal(answered.stopReason, "end_turn");
      const [form] = editor.forms;
      assert.match(form?.message ?? "", /Which colour\?/);
      assert.equal((form as { sessionId?: string } | undefined)?.sessionId, sessionId);
      const said = ofKind(editor.updates, "agent_message_chunk")
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join("");
      assert.match(said, /Blue it is\./);
      assert.equal(await editor.close(), 0, editor.stderr());
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      try {
        expectDecision(readDecisions(store, sessionId), "call.question", "person", "answered");
      } finally {
        store.close();
      }
    } finally {
      editor.child.kill();
      await s.close();
    }
  });
});
