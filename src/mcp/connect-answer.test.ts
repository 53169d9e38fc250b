import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { connectAnswer, failureText, reconnectRefusal } from "./connect-answer.js";
import { listAllTools } from "./list-tools.js";
import { STDERR_LINES, StderrTail } from "./stderr-tail.js";
import { transportKinds } from "./transport-kinds.js";

describe("mcp.connect", () => {
  const failed = {
    ok: false as const,
    message: "Connection closed",
    stderr: ["fatal: no token"],
    transport: "stdio x",
  };

  it('a server asking for OAuth with nothing stored: "needs sign-in", saying what to run', () => {
    const message = "needs sign-in: run `bosun mcp login docs`";
    const answer = connectAnswer("docs", { ...failed, stderr: [], message, signIn: true }, { required: false });
    assert.deepEqual([answer.holder, answer.answer], ["code", "needs sign-in"]);
    assert.deepEqual(answer.reasons[1], { rule: "sign-in", detail: message, decisive: true });
    assert.match(
      failureText("docs", { ...failed, stderr: [], message }, false),
      /needs sign-in: run `bosun mcp login docs`/,
    );
  });

  it("a connected server says how many tools; a failed one is code's unless required", () => {
    assert.equal(
      connectAnswer("gh", { ok: true, tools: 12, transport: "stdio x" }, { required: false }).answer,
      "connected · 12 tools",
    );
    const soft = connectAnswer("gh", failed, { required: false });
    assert.deepEqual([soft.holder, soft.answer], ["code", "failed"]);
    assert.equal(soft.reasons.find((r) => r.rule === "stderr")?.detail, "fatal: no token");
    const hard = connectAnswer("gh", failed, { required: true, where: "/h/bosun.json:3" });
    assert.equal(hard.holder, "config");
    assert.deepEqual(
      hard.reasons.find((r) => r.decisive),
      { rule: "required", detail: "the run stops", source: "/h/bosun.json:3", key: "mcp.gh.required", decisive: true },
    );
    assert.match(failureText("gh", failed, true), /mcp\.gh\.required.*run stops\n {2}fatal: no token$/);
  });

  it("the stderr tail keeps only the last lines, each bounded", () => {
    const tail = new StderrTail();
    for (let i = 0; i < 100; i++) tail.push(`line ${i}\n`);
    tail.push(`${"x".repeat(2000)}\npart`);
    tail.push("ial");
    const lines = tail.lines();
    assert.equal(lines.length, STDERR_LINES);
    assert.equal(lines.at(-1), "partial");
    assert.ok((lines.at(-2)?.length ?? 0) <= 501);
    assert.equal(lines[0], "line 82");
  });

  it("lists every page of tools, and stops on a repeated cursor", async () => {
    const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
      "": { tools: [{ name: "a" }], nextCursor: "2" },
      "2": { tools: [{ name: "b" }], nextCursor: "3" },
      "3": { tools: [{ name: "c" }], nextCursor: "3" },
    };
    const seen: Array<string | undefined> = [];
    const tools = await listAllTools(
      {
        listTools: async (params) => {
          seen.push(params?.cursor);
          return pages[params?.cursor ?? ""] ?? { tools: [] };
        },
      },
      1000,
    );
    assert.deepEqual(
      tools.map((t) => t.name),
      ["a", "b", "c"],
    );
    assert.deepEqual(seen, [undefined, "2", "3"]);
  });

  it("a command is stdio; a url is Streamable HTTP then SSE; a given type alone", () => {
    assert.deepEqual(transportKinds({ command: "x" }), ["stdio"]);
    assert.deepEqual(transportKinds({ url: "http://h/mcp" }), ["http", "sse"]);
    assert.deepEqual(transportKinds({ url: "http://h/mcp", type: "sse" }), ["sse"]);
  });

  it("a refused reconnect is the person's request answered refused by code's rule, the refusal decisive", () => {
    const answer = reconnectRefusal("turn running", "not while a turn runs");
    assert.equal(answer.holder, "code");
    assert.equal(answer.answer, "refused");
    assert.deepEqual(
      answer.reasons.filter((r) => r.decisive),
      [{ rule: "turn running", detail: "not while a turn runs", decisive: true }],
    );
  });
});
