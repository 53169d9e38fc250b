import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startServe } from "../support/serve.js";

/**
 * Red team, round 7: text from elsewhere reaching the person's terminal raw (escape sequences),
 * the server's Host and Origin, ACP sessions, instruction files that are not plain files, check
 * floods and delegates writing bosun's own data — through the real binary.
 */

const ESC = "\u001b";
const CLIP = `${ESC}]52;c;cHduZWQ=\u0007`;
const CLEAR = `${ESC}[2J`;

/** Whether `text` holds anything that drives a terminal (ESC, BEL, CSI as one code point, CR). */
function drives(text: string): boolean {
  return [...text].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== "\n" && c !== "\t") || (code >= 0x7f && code <= 0x9f);
  });
}

describe("red team round 7: terminal escapes", () => {
  it("bosun run (text): the model's words, a file name, a call's summary and refusal cannot drive the terminal", async () => {
    const name = `n${CLEAR}x.txt`;
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { name: "read", arguments: { path: name } },
              { name: "shell", arguments: { command: `echo ${CLIP} > out${ESC}[8m.txt` } },
            ],
          },
        },
        { reply: { text: `all fine ${CLIP}${CLEAR}\r\u009b2J\ndone\tok\n` } },
      ],
    });
    try {
      s.ws.write(name, `inside ${CLIP}\n`);
      const result = await s.run(["run", "go"]);
      assert.ok(!drives(result.stdout), JSON.stringify(result.stdout));
      assert.ok(!drives(result.stderr), JSON.stringify(result.stderr));
      assert.match(result.stdout, /all fine/);
      assert.match(result.stdout, /done\tok/);
      const why = await s.run(["why", "--last"]);
      assert.equal(why.code, 0, why.stderr);
      assert.ok(!drives(why.stdout), JSON.stringify(why.stdout));
      const tree = await s.run(["why", "--last", "--all", "--tree"]);
      assert.ok(!drives(tree.stdout), JSON.stringify(tree.stdout));
      const list = await s.run(["sessions"]);
      assert.ok(!drives(list.stdout), JSON.stringify(list.stdout));
      // JSON stays exact: the escape is there, escaped by JSON.
      const json = await s.run(["why", "--last", "--json"]);
      assert.ok(!drives(json.stdout));
      assert.ok(JSON.stringify(JSON.parse(json.stdout)).includes("\\u001b[2J"));
    } finally {
      await s.close();
    }
  });
});

/** A GET with headers fetch will not send as given (Host): status and body. */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("red team round 7: bosun serve", () => {
  it("DNS rebinding and cross-site pages: a foreign Host or Origin is 403 even with the token; the server's own is answered", async () => {
    const s = await startScenario({ rules: [] });
    const serve = await startServe(s);
    try {
      const own = new URL(serve.base).host;
      const auth = { authorization: `Bearer ${serve.token}` };
      const ok = await rawGet(serve.base, "/sessions", { ...auth, host: own });
      assert.equal(ok.status, 200, ok.body);
      assert.equal(
        (await rawGet(serve.base, "/sessions", { ...auth, host: own, origin: `http://${own}` })).status,
        200,
      );
      for (const host of [`evil.example:${new URL(serve.base).port}`, "localhost.evil.example", "127.0.0.1.nip.io"]) {
        const got = await rawGet(serve.base, "/sessions", { ...auth, host });
        assert.equal(got.status, 403, `${host}: ${got.body}`);
        assert.doesNotMatch(got.body, /\[|session/i);
      }
      for (const origin of ["http://evil.example", "null", `http://localhost:1`]) {
        const got = await rawGet(serve.base, "/sessions", { ...auth, host: own, origin });
        assert.equal(got.status, 403, `${origin}: ${got.body}`);
      }
    } finally {
      await serve.stop();
      await s.close();
    }
  });
});

describe("red team round 7: bosun's own folders", () => {
  it("auto: neither the parent nor its delegate writes BOSUN_HOME (the person's bosun.json, agents, data), by tool or shell", async () => {
    // BOSUN_HOME is the repository's sibling (../home): where a model would find it.
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "go" },
            reply: {
              toolCalls: [
                {
                  id: "p1",
                  name: "write",
                  arguments: { path: "../home/agents/yolo.md", content: "---\nmode: auto\n---\nx" },
                },
                { id: "p2", name: "shell", arguments: { command: "echo '{}' >> ../home/bosun.json" } },
                { id: "p3", name: "write", arguments: { path: "../home/data/planted.txt", content: "x" } },
                { id: "p4", name: "task", arguments: { agent: "builder", prompt: "BUILD: now" } },
              ],
            },
          },
          {
            match: { lastMessage: "BUILD:" },
            reply: {
              toolCalls: [
                { id: "k1", name: "write", arguments: { path: "../home/agents/kid.md", content: "x" } },
                { id: "k2", name: "shell", arguments: { command: "echo x > ../home/kid-shell.txt" } },
              ],
            },
          },
          { match: { lastMessage: "denied" }, reply: { text: "kid done" }, times: 3 },
          { reply: { text: "done" }, times: 5 },
        ],
      },
      { global: { mode: "auto", agent: { builder: { description: "writes files" } } } },
    );
    try {
      const before = readFileSync(join(s.ws.home, "bosun.json"), "utf8");
      const result = await s.run(["run", "go"]);
      assert.equal(readFileSync(join(s.ws.home, "bosun.json"), "utf8"), before, result.stderr);
      for (const file of ["agents", "kid-shell.txt", "data/planted.txt"]) {
        assert.equal(existsSync(join(s.ws.home, file)), false, `${file}: ${result.stderr}`);
      }
      const denied = s.latest().decisions.filter((d) => d.seat === "call.permission" && d.answer === "deny");
      assert.ok(denied.length >= 3, JSON.stringify(denied));
      for (const d of denied) assert.equal(d.holder, "code");
      expectDecision(s.latest().decisions, "call.permission", "code", "deny");
    } finally {
      await s.close();
    }
  });
});
