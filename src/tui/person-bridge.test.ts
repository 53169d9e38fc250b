import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ApprovalRequest } from "../permission/gate/approval.js";
import { personBridge } from "./person-bridge.js";

const signal = new AbortController().signal;
const loosening = { items: ["allow shell:touch *"], files: ["/w/bosun.json"], fingerprint: "f1" };

describe("the person bridge", () => {
  it("holds questions and warnings from before the app is drawn, then hands them to it in order", async () => {
    const bridge = personBridge();
    const seen: string[] = [];
    const trusted = bridge.forSession("s1").trust.askTrust(loosening, signal);
    const asked = bridge.forSession("s1").prompt.ask({ tool: "mcp" } as ApprovalRequest, signal);
    const questioned = bridge
      .forSession("s1")
      .question.askQuestion({ from: "MCP server x", message: "", fields: [] }, signal);
    bridge.warn("not running mcp.notes");
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(seen.length, 0, "nothing is shown before the app takes it");
    bridge.attach({
      askTrust: async (l) => {
        seen.push(`trust ${l.items[0]}`);
        return "once";
      },
      ask: async (request) => {
        seen.push(`ask ${request.tool}`);
        return { kind: "deny" };
      },
      askQuestion: async (question) => {
        seen.push(`question ${question.from}`);
        return { action: "decline" };
      },
      notice: (text) => seen.push(text),
    });
    assert.equal(await trusted, "once");
    assert.deepEqual(await asked, { kind: "deny" });
    assert.deepEqual(await questioned, { action: "decline" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(seen, [
      "trust allow shell:touch *",
      "ask mcp",
      "question MCP server x",
      "bosun: not running mcp.notes",
    ]);
  });

  it("a question still open when the session ends is answered no, so nothing waits on it", async () => {
    const bridge = personBridge();
    const ended = new AbortController();
    const trusted = bridge.forSession("s1").trust.askTrust(loosening, ended.signal);
    const asked = bridge.forSession("s1").prompt.ask({ tool: "mcp" } as ApprovalRequest, ended.signal);
    const questioned = bridge
      .forSession("s1")
      .question.askQuestion({ from: "MCP server x", message: "", fields: [] }, ended.signal);
    ended.abort();
    assert.equal(await trusted, "no");
    assert.deepEqual(await asked, { kind: "cancel" });
    assert.deepEqual(await questioned, { action: "cancel" });
  });

  it("a question answered for a session is answered the same way when it opens again (a switch); another session is asked", async () => {
    const bridge = personBridge();
    let asked = 0;
    bridge.attach({
      askTrust: async () => {
        asked++;
        return "once";
      },
      ask: async () => {
        asked++;
        return { kind: "once" };
      },
      askQuestion: async () => ({ action: "cancel" }),
      notice: () => {},
    });
    const request = { tool: "mcp", input: { server: "notes" } } as unknown as ApprovalRequest;
    assert.equal(await bridge.forSession("s1").trust.askTrust(loosening, signal), "once");
    assert.equal(await bridge.forSession("s1").trust.askTrust(loosening, signal), "once");
    assert.deepEqual(await bridge.forSession("s1").prompt.ask(request, signal), { kind: "once" });
    assert.deepEqual(await bridge.forSession("s1").prompt.ask(request, signal), { kind: "once" });
    assert.equal(asked, 2);
    assert.equal(await bridge.forSession("s1").trust.askTrust({ ...loosening, fingerprint: "other" }, signal), "once");
    assert.equal(asked, 3, "other content is asked about");
    await bridge.forSession("new 1").trust.askTrust(loosening, signal);
    assert.equal(asked, 4, "another session is asked afresh");
    bridge.alias("new 1", "ses-9");
    await bridge.forSession("ses-9").trust.askTrust(loosening, signal);
    assert.equal(asked, 4, "the session opened under a key keeps its answers under its id");
  });
});
