import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { startAcp } from "../support/acp-client.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const call = (word: string, id: string, name: string, args: Record<string, unknown>) => ({
  match: { lastMessage: word, tool: name },
  reply: { toolCalls: [{ id, name, arguments: args }] },
  times: 1,
});

describe("bosun acp: the editor's buffers (fs) and terminal", () => {
  it("reads and edits go through the editor's buffers after the gate; a denied or outside path never reaches it; no fs: the disk", async () => {
    const s = await startScenario({
      rules: [
        call("look buffer", "r-1", "read", { path: "a.txt" }),
        call("change buffer", "e-1", "edit", { path: "a.txt", old_string: "buffer line", new_string: "edited line" }),
        call("change again", "e-2", "edit", { path: "a.txt", old_string: "edited line", new_string: "x" }),
        call("make denied", "w-1", "write", { path: "b.txt", content: "no\n" }),
        call("peek outside", "r-2", "read", { path: "../outside.txt" }),
        call("look disk", "r-3", "read", { path: "a.txt" }),
        { reply: { text: "Done." } },
      ],
    });
    writeFileSync(join(s.ws.dir, "a.txt"), "disk line\n");
    writeFileSync(join(s.ws.dir, "..", "outside.txt"), "outside\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const outside = join(realpathSync(join(s.ws.dir, "..")), "outside.txt");
    const lastSent = () => JSON.stringify(s.server.requests.at(-1));
    const editor = startAcp(s);
    let sessionId = "";
    try {
      await editor.agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      });
      sessionId = (await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] })).sessionId;
      const prompt = (text: string) =>
        editor.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
      editor.buffers.set(a, "buffer line\n");

      // 1. The model sees the unsaved buffer, not the disk.
      assert.equal((await prompt("look buffer")).stopReason, "end_turn");
      assert.deepEqual(editor.fsReads, [a]);
      assert.match(lastSent(), /buffer line/);
      assert.doesNotMatch(lastSent(), /disk line/);

      // 2. An edit of the buffer, allowed by the person: through fs/write_text_file; the disk untouched.
      editor.answer = () => ({ outcome: { outcome: "selected", optionId: "allow-once" } });
      assert.equal((await prompt("change buffer")).stopReason, "end_turn");
      assert.deepEqual(editor.fsWrites, [{ path: a, content: "edited line\n" }]);
      assert.equal(readFileSync(a, "utf8"), "disk line\n");
      assert.match(lastSent(), /Edited a\.txt/);

      // The person typed in the buffer since: the edit is checked against the buffer, and refused.
      editor.buffers.set(a, "edited line\ntyped by the person\n");
      await prompt("change again");
      assert.equal(editor.fsWrites.length, 1);
      assert.match(lastSent(), /changed in the editor since you last read it/);

      // 3. A write the person denies never reaches the editor.
      editor.answer = () => ({ outcome: { outcome: "selected", optionId: "reject" } });
      await prompt("make denied");
      assert.equal(editor.fsWrites.length, 1);
      assert.equal(existsSync(join(s.ws.dir, "b.txt")), false);

      // 4. A path outside the workspace is judged by bosun first: the editor is never asked for it.
      await prompt("peek outside");
      assert.equal(editor.fsReads.includes(outside), false, JSON.stringify(editor.fsReads));
      assert.doesNotMatch(lastSent(), /"outside\\n"/);
    } finally {
      assert.equal(await editor.close(), 0, editor.stderr());
    }
    const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
    try {
      // The editor's terminal is never used (seat exec.terminal); the results say where the text came from.
      const decision = expectDecision(readDecisions(store, sessionId), "exec.terminal", "code", "bosun");
      assert.match(JSON.stringify(decision.reasons), /confinement/);
    } finally {
      store.close();
    }
    assert.match(JSON.stringify(s.latest().events), /the editor \(ACP fs\)/);

    // 5. An editor that offers no fs: the disk, as at the terminal.
    const plain = startAcp(s);
    try {
      await plain.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const other = await plain.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] });
      plain.buffers.set(a, "never asked\n");
      await plain.agent.request(methods.agent.session.prompt, {
        sessionId: other.sessionId,
        prompt: [{ type: "text", text: "look disk" }],
      });
      assert.deepEqual(plain.fsReads, []);
      assert.match(lastSent(), /disk line/);
    } finally {
      assert.equal(await plain.close(), 0, plain.stderr());
      await s.close();
    }
  });

  it("undo: a write the editor saved is in the turn's snapshot and undone; one it kept unsaved never reached the disk", async () => {
    const s = await startScenario({
      rules: [
        call("look", "r-1", "read", { path: "a.txt" }),
        call("change", "e-1", "edit", { path: "a.txt", old_string: "one", new_string: "two" }),
        { reply: { text: "Done." } },
      ],
    });
    writeFileSync(join(s.ws.dir, "a.txt"), "one\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const editor = startAcp(s);
    let sessionId = "";
    try {
      await editor.agent.request(methods.agent.initialize, {
        protocolVersion: 1,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
      });
      sessionId = (await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] })).sessionId;
      const prompt = (text: string) =>
        editor.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
      editor.saveWrites = true;
      editor.answer = () => ({ outcome: { outcome: "selected", optionId: "allow-once" } });
      await prompt("look");
      await prompt("change");
      assert.deepEqual(editor.fsWrites, [{ path: a, content: "two\n" }]);
      assert.equal(readFileSync(a, "utf8"), "two\n", "the editor saved it");
    } finally {
      assert.equal(await editor.close(), 0, editor.stderr());
    }
    try {
      const undone = await s.run(["undo", sessionId]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.equal(readFileSync(a, "utf8"), "one\n", "the saved write was in the turn's end snapshot");
    } finally {
      await s.close();
    }
  });
});
