import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { methods, type RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { type AcpEditor, startAcp } from "../support/acp-client.js";
import { type Scenario, startScenario } from "../support/scenario.js";

const call = (word: string, id: string, name: string, args: Record<string, unknown>) => ({
  match: { lastMessage: word, tool: name },
  reply: { toolCalls: [{ id, name, arguments: args }] },
  times: 1,
});

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** A model offered apply_patch (not edit): OpenAI's, trained on its format. */
const GPT5 = { global: { model: "scripted/gpt-5" } };

const ALLOW = () => ({ outcome: { outcome: "selected" as const, optionId: "allow-once" } });

/** The text of an ask as the editor was shown it: its content blocks, diffs included. */
const askShown = (ask: RequestPermissionRequest | undefined) => JSON.stringify(ask?.toolCall.content ?? []);

/** An editor with fs (both sides) and a session in the scenario's folder; `prompt` runs one turn. */
async function editorSession(s: Scenario, args: string[] = []) {
  const editor = startAcp(s, args);
  await editor.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
  });
  const { sessionId } = await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] });
  const prompt = (text: string) =>
    editor.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  return { editor, prompt };
}

/** The last tool result the model was sent, for a failure's message. */
function lastTool(s: Scenario): string {
  const body = JSON.parse(String(s.server.requests.at(-1)?.body ?? "{}")) as {
    messages?: Array<{ role: string; content: unknown }>;
  };
  return JSON.stringify(body.messages?.filter((m) => m.role === "tool").at(-1));
}

async function closed(editor: AcpEditor) {
  assert.equal(await editor.close(), 0, editor.stderr());
}

describe("bosun acp: apply_patch and asks through the editor's buffers", () => {
  it("apply_patch patches the buffer (its ask's diff is of the buffer), is judged stale against it, and removes nothing it cannot", async () => {
    const s = await startScenario(
      {
        rules: [
          call("look", "r-1", "read", { path: "a.txt" }),
          call("patch it", "p-1", "apply_patch", {
            patch: patch("*** Update File: a.txt", "@@", "-buffer line", "+patched line"),
          }),
          call("patch again", "p-2", "apply_patch", {
            patch: patch("*** Update File: a.txt", "@@", "-patched line", "+x"),
          }),
          call("reread", "r-2", "read", { path: "a.txt" }),
          call("remove it", "p-3", "apply_patch", { patch: patch("*** Delete File: a.txt") }),
          { reply: { text: "Done." } },
        ],
      },
      GPT5,
    );
    writeFileSync(join(s.ws.dir, "a.txt"), "disk line\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const lastSent = () => JSON.stringify(s.server.requests.at(-1));
    const { editor, prompt } = await editorSession(s);
    try {
      editor.buffers.set(a, "buffer line\n");
      editor.answer = ALLOW;
      await prompt("look");
      assert.equal((await prompt("patch it")).stopReason, "end_turn");
      // The ask showed the change of the buffer's text, not the disk's.
      const shown = askShown(editor.asked.at(-1));
      assert.match(shown, /-buffer line/);
      assert.match(shown, /\+patched line/);
      assert.doesNotMatch(shown, /disk line/);
      // Written into the buffer; the disk untouched; the result says so.
      assert.deepEqual(editor.fsWrites, [{ path: a, content: "patched line\n" }]);
      assert.equal(readFileSync(a, "utf8"), "disk line\n");
      assert.match(lastSent(), /Applied the patch to 1 file/);

      // The person typed in the buffer since: stale against the buffer, refused, nothing written.
      editor.buffers.set(a, "patched line\ntyped by the person\n");
      await prompt("patch again");
      assert.equal(editor.fsWrites.length, 1);
      assert.match(lastSent(), /changed in the editor since you last read it/);

      // A removal cannot go through the editor: refused, the file still there.
      await prompt("reread");
      await prompt("remove it");
      assert.match(lastSent(), /cannot delete a file/, lastTool(s));
      assert.equal(existsSync(a), true);
      assert.equal(editor.fsWrites.length, 1);
    } finally {
      await closed(editor);
    }
    try {
      // The result's metadata (and so its record) says the text came from and went to the editor.
      assert.match(JSON.stringify(s.latest().events), /the editor \(ACP fs\)/);
    } finally {
      await s.close();
    }
  });

  it("a write's and an edit's ask show the diff of the buffer, not of the disk", async () => {
    const s = await startScenario({
      rules: [
        call("look", "r-1", "read", { path: "a.txt" }),
        call("replace it", "w-1", "write", { path: "a.txt", content: "whole new\n" }),
        call("look again", "r-2", "read", { path: "a.txt" }),
        call("change it", "e-1", "edit", { path: "a.txt", old_string: "second", new_string: "2nd" }),
        { reply: { text: "Done." } },
      ],
    });
    writeFileSync(join(s.ws.dir, "a.txt"), "disk line\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const { editor, prompt } = await editorSession(s);
    try {
      editor.buffers.set(a, "buffer line\n");
      editor.answer = ALLOW;
      await prompt("look");
      await prompt("replace it");
      const write = editor.asked.at(-1);
      const diff = write?.toolCall.content?.find((c) => c.type === "diff");
      assert.deepEqual(diff && { oldText: diff.oldText, newText: diff.newText }, {
        oldText: "buffer line\n",
        newText: "whole new\n",
      });
      // The call as the editor's thread shows it has the same diff.
      const started = editor.updates
        .map((n) => n.update)
        .find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "w-1");
      const startDiff =
        started?.sessionUpdate === "tool_call" ? started.content?.find((c) => c.type === "diff") : undefined;
      assert.equal(startDiff?.type === "diff" ? startDiff.oldText : undefined, "buffer line\n");
      // The ask's words (the terminal's preview) are of the buffer too.
      assert.match(askShown(write), /-buffer line/);
      assert.doesNotMatch(askShown(write), /disk line/);

      editor.buffers.set(a, "first\nsecond\n");
      await prompt("look again");
      await prompt("change it");
      const edit = askShown(editor.asked.at(-1));
      assert.match(edit, /-second/);
      assert.match(edit, / first/);
      assert.doesNotMatch(edit, /disk line/);
      assert.equal(readFileSync(a, "utf8"), "disk line\n");
    } finally {
      await closed(editor);
      await s.close();
    }
  });

  it("an editor whose fs fails or never answers: the model is told, the disk is not written, the turn ends", async () => {
    const s = await startScenario({
      rules: [
        call("look", "r-1", "read", { path: "a.txt" }),
        call("look broken", "r-2", "read", { path: "a.txt" }),
        call("change broken", "e-1", "edit", { path: "a.txt", old_string: "buffer", new_string: "edited" }),
        call("look slow", "r-3", "read", { path: "a.txt" }),
        call("change slow", "e-2", "edit", { path: "a.txt", old_string: "buffer", new_string: "edited" }),
        { reply: { text: "Done." } },
      ],
    });
    writeFileSync(join(s.ws.dir, "a.txt"), "disk line\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const lastSent = () => JSON.stringify(s.server.requests.at(-1));
    const { editor, prompt } = await editorSession(s, ["--fs-timeout", "400"]);
    try {
      editor.buffers.set(a, "buffer line\n");
      editor.answer = ALLOW;
      await prompt("look");

      // The editor answers its fs requests with an error.
      editor.fsFault = { read: "error" };
      assert.equal((await prompt("look broken")).stopReason, "end_turn");
      assert.match(lastSent(), /Cannot read a\.txt through the editor \(ACP fs\): [^"]*the buffer is locked/);
      editor.fsFault = { write: "error" };
      assert.equal((await prompt("change broken")).stopReason, "end_turn");
      assert.match(lastSent(), /Cannot write a\.txt: [^"]*the buffer is locked[^"]*; a\.txt is as it was/);

      // The editor never answers: each wait ends at --fs-timeout, saying so.
      editor.fsFault = { read: "hang" };
      const started = Date.now();
      assert.equal((await prompt("look slow")).stopReason, "end_turn");
      assert.match(lastSent(), /did not give the file's text within 400 ms/);
      editor.fsFault = { write: "hang" };
      assert.equal((await prompt("change slow")).stopReason, "end_turn");
      assert.match(lastSent(), /did not take the file's text within 400 ms; a\.txt is as it was/);
      assert.ok(Date.now() - started < 20_000, "bounded by --fs-timeout, not the default");

      // Nothing reached the disk behind the editor's back; the buffer is as the person left it.
      assert.equal(readFileSync(a, "utf8"), "disk line\n");
      assert.equal(editor.buffers.get(a), "buffer line\n");
    } finally {
      await closed(editor);
      await s.close();
    }
  });

  it("apply_patch with an editor whose fs fails or never answers: not applied, the model told, nothing on disk", async () => {
    const change = { patch: patch("*** Update File: a.txt", "@@", "-buffer line", "+x") };
    const s = await startScenario(
      {
        rules: [
          call("look", "r-1", "read", { path: "a.txt" }),
          call("patch unread", "p-1", "apply_patch", change),
          call("patch broken", "p-2", "apply_patch", change),
          call("patch slow", "p-3", "apply_patch", change),
          { reply: { text: "Done." } },
        ],
      },
      GPT5,
    );
    writeFileSync(join(s.ws.dir, "a.txt"), "disk line\n");
    const a = join(realpathSync(s.ws.dir), "a.txt");
    const lastSent = () => JSON.stringify(s.server.requests.at(-1));
    const { editor, prompt } = await editorSession(s, ["--fs-timeout", "400"]);
    try {
      editor.buffers.set(a, "buffer line\n");
      editor.answer = ALLOW;
      await prompt("look");
      // The editor cannot give the buffer: the patch is refused before anything is written.
      editor.fsFault = { read: "error" };
      assert.equal((await prompt("patch unread")).stopReason, "end_turn");
      assert.match(lastSent(), /Not applied: the editor did not give a\.txt's text \([^"]*the buffer is locked/);
      assert.equal(editor.fsWrites.length, 0);
      editor.fsFault = { write: "error" };
      assert.equal((await prompt("patch broken")).stopReason, "end_turn");
      assert.match(
        lastSent(),
        /Not applied: cannot write a\.txt: [^"]*the buffer is locked[^"]*; every file is as it was/,
      );
      editor.fsFault = { write: "hang" };
      assert.equal((await prompt("patch slow")).stopReason, "end_turn");
      assert.match(
        lastSent(),
        /Not applied: cannot write a\.txt: the editor did not take the file's text within 400 ms/,
      );
      assert.equal(readFileSync(a, "utf8"), "disk line\n");
      assert.equal(editor.buffers.get(a), "buffer line\n");
    } finally {
      await closed(editor);
      await s.close();
    }
  });

  it("a bad --fs-timeout is a usage error (exit 2)", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const result = await s.run(["acp", "--fs-timeout", "soon"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--fs-timeout must be a positive whole number of milliseconds, not "soon"/);
    } finally {
      await s.close();
    }
  });
});
