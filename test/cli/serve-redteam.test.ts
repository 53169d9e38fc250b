import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Scenario, startScenario, waitFor } from "../support/scenario.js";
import { follow as followStream, type Serve, startServe } from "../support/serve.js";

/*
 * Red team of `bosun serve`: each `it` is one attack, asserting the safe behaviour. Twelve of
 * them once failed against the code as it was (holes since closed); all are kept as guards.
 */

const SOME_ID = "01M8XZDZWEZX9XDZFQS5W9B4P4";
const KNOWN_TOKEN = "A".repeat(43);

/** A request exactly as written: the path is sent as given (fetch would normalise it). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const sized = body !== undefined ? { ...headers, "content-length": String(Buffer.byteLength(body)) } : headers;
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: sized, setHost: true },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const follow = (url: string, token: string, lastEventId?: string) =>
  followStream(url, token, lastEventId !== undefined ? { lastEventId } : {});

const writing = (path: string, content: string) => ({
  toolCalls: [{ id: `w-${path}`, name: "write", arguments: { path, content } }],
});

/** A scenario and a server on it; both closed whatever the test does. */
async function withServe(
  script: Parameters<typeof startScenario>[0],
  body: (s: Scenario, serve: Serve) => Promise<void>,
  options: { flags?: string[]; before?: (s: Scenario) => void; config?: Record<string, unknown> } = {},
) {
  const s = await startScenario(script, options.config ? { config: options.config } : {});
  try {
    options.before?.(s);
    const serve = await startServe(s, options.flags);
    try {
      await body(s, serve);
    } finally {
      await serve.stop();
    }
  } finally {
    await s.close();
  }
}

const newSession = async (serve: Serve, s: Scenario) => {
  const created = await serve.call("POST", "/sessions", { directory: s.ws.dir });
  assert.equal(created.status, 201, created.text);
  return String(created.body.id);
};

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at |at .*\.(js|ts):\d+/);

describe("bosun serve red team: authentication", () => {
  it("no method reaches a route without the token: OPTIONS, HEAD, PUT, PATCH, DELETE, TRACE-like, on every route", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const paths = [
        "/sessions",
        `/sessions/${id}`,
        `/sessions/${id}/events`,
        `/sessions/${id}/messages`,
        `/sessions/${id}/asks`,
        `/sessions/${id}/fork`,
        `/sessions/${id}/cancel`,
        `/sessions/${id}/decisions`,
        "/openapi.json",
        "/doc",
        "/",
      ];
      for (const path of paths) {
        for (const method of ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]) {
          const answer = await raw(
            serve.base,
            method,
            path,
            { "content-type": "application/json" },
            method === "GET" || method === "HEAD" ? undefined : "{}",
          );
          assert.equal(answer.status, 401, `${method} ${path} answered ${answer.status} without the token`);
        }
      }
      // Nothing was done on the way: still one session, not deleted, no turn run.
      assert.equal((await serve.call("GET", `/sessions/${id}`)).status, 200);
      assert.equal(s.server.requests.length, 0);
    });
  });

  it("no path spelling slips past the token: trailing slash, double slash, encoded, case, dot segments, absolute-form, query tricks", async () => {
    await withServe({ rules: [] }, async (_s, serve) => {
      const paths = [
        "/sessions/",
        "//sessions",
        "/sessions//",
        "/%73essions",
        "/SESSIONS",
        "/Sessions",
        "/./sessions",
        "/x/../sessions",
        "/sessions%2f",
        "/sessions?authorization=Bearer%20x",
        "/openapi.json/",
        "/openapi.json%00",
        `/sessions/${SOME_ID}/`,
        `/sessions/${SOME_ID}%2fevents`,
        `/sessions/${SOME_ID}/events/`,
        `${serve.base}/sessions`,
        "*",
      ];
      for (const path of paths) {
        const answer = await raw(serve.base, "GET", path).catch((error: Error) => ({
          status: -1,
          body: error.message,
        }));
        assert.ok(
          answer.status === 401 || answer.status === 400 || answer.status === -1,
          `GET ${path} answered ${answer.status} without the token: ${answer.body.slice(0, 200)}`,
        );
      }
    });
  });

  it("tokens that are almost right are refused: other schemes, case of the token, padding, two headers, a huge header, a query or cookie token", async () => {
    await withServe({ rules: [] }, async (_s, serve) => {
      const t = serve.token;
      const wrong: Array<Record<string, string>> = [
        { authorization: `Basic ${Buffer.from(`x:${t}`).toString("base64")}` },
        { authorization: `Bearer ${t.toUpperCase() === t ? t.toLowerCase() : t.toUpperCase()}` },
        { authorization: `Bearer ${t.slice(0, -1)}` },
        { authorization: `Bearer ${t}=` },
        { authorization: `Bearer  ${t}` },
        { authorization: `Bearer ${t} ${t}` },
        { authorization: `Bearer ${t},Bearer ${t}` },
        { authorization: `Token ${t}` },
        { authorization: `Bearer${t}` },
        { authorization: `Bearer ${"x".repeat(12_000)}` },
        { cookie: `token=${t}` },
        { "x-bosun-token": t },
      ];
      for (const headers of wrong) {
        const answer = await raw(serve.base, "GET", "/sessions", headers).catch(() => ({ status: -1, body: "" }));
        assert.ok(
          answer.status === 401 || answer.status === 431 || answer.status === -1,
          `${JSON.stringify(headers).slice(0, 80)} -> ${answer.status}`,
        );
      }
      const query = await raw(serve.base, "GET", `/sessions?token=${t}&access_token=${t}`);
      assert.equal(query.status, 401);
      // The server lives on and the right token still works.
      assert.equal((await serve.call("GET", "/sessions")).status, 200);
    });
  });

  it("the 401 answer says nothing of the token, the token file or the sessions", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      await newSession(serve, s);
      const answer = await raw(serve.base, "GET", "/sessions", { authorization: `Bearer ${serve.token.slice(0, 20)}` });
      assert.equal(answer.status, 401);
      assert.doesNotMatch(answer.body, new RegExp(serve.token.slice(0, 10)));
      assert.doesNotMatch(answer.body, /server\/token|bosun\.db|01[0-9A-Z]{24}/);
    });
  });
});

describe("bosun serve red team: the token on disk", () => {
  it("a symlink planted at the token path, to a file whose token someone knows, is not taken as the server's token", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const folder = join(s.ws.home, "data", "server");
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const planted = join(s.ws.home, "planted-token");
      writeFileSync(planted, `${KNOWN_TOKEN}\n`, { mode: 0o600 });
      symlinkSync(planted, join(folder, "token"));
      const serve = await startServe(s);
      try {
        const known = await raw(serve.base, "GET", "/sessions", { authorization: `Bearer ${KNOWN_TOKEN}` });
        assert.equal(known.status, 401, "the planted link's token opened the API");
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("a token folder left open to others (0777) is narrowed to 0700, or the server refuses to start", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const folder = join(s.ws.home, "data", "server");
      mkdirSync(folder, { recursive: true });
      // chmod, not mkdir's mode: the umask would narrow that.
      chmodSync(folder, 0o777);
      const { child, result } = s.spawn(["serve", "--port", "0"]);
      let stdout = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const started = await waitFor(() => (/every request needs/.test(stdout) ? true : undefined), 15_000).catch(
        () => false,
      );
      child.kill("SIGTERM");
      await result;
      if (started) {
        assert.equal(statSync(folder).mode & 0o777, 0o700, "others may rename and replace the token file");
      }
    } finally {
      await s.close();
    }
  });

  it("a token file others may read is replaced, not trusted", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const folder = join(s.ws.home, "data", "server");
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      writeFileSync(join(folder, "token"), `${KNOWN_TOKEN}\n`);
      chmodSync(join(folder, "token"), 0o644);
      const serve = await startServe(s);
      try {
        assert.notEqual(serve.token, KNOWN_TOKEN);
        const known = await raw(serve.base, "GET", "/sessions", { authorization: `Bearer ${KNOWN_TOKEN}` });
        assert.equal(known.status, 401);
        assert.equal(statSync(join(folder, "token")).mode & 0o777, 0o600);
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("the token is never written to the session's stream, its ledger, or the server's output after the first start", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await serve.call("POST", `/sessions/${id}/messages`, { text: "hi" });
      await stream.next("done");
      await stream.close();
      assert.doesNotMatch(JSON.stringify(stream.seen), new RegExp(serve.token));
      const ledger = await serve.call("GET", `/sessions/${id}/decisions`);
      assert.doesNotMatch(ledger.text, new RegExp(serve.token));
      assert.doesNotMatch(serve.stderr(), new RegExp(serve.token));
      assert.doesNotMatch(JSON.stringify(s.server.requests.map((r) => r.body ?? r)), new RegExp(serve.token));
      const again = await startServe(s);
      try {
        assert.doesNotMatch(again.stdout() + again.stderr(), new RegExp(serve.token));
      } finally {
        await again.stop();
      }
    });
  });

  it("bosun attach never sends this machine's server token to a loopback port it was not told the token for", async () => {
    const s = await startScenario({ rules: [] });
    const seen: string[] = [];
    // Another local user's listener on a loopback port (or one squatting 4747 before bosun serve starts).
    const squatter = createServer((req, res) => {
      seen.push(req.headers.authorization ?? "");
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"error":"no"}');
    });
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    try {
      const first = await startServe(s);
      const token = first.token;
      await first.stop();
      const port = (squatter.address() as AddressInfo).port;
      const attached = await s.run(["attach", `http://127.0.0.1:${port}`]);
      assert.notEqual(attached.code, 0);
      assert.ok(
        seen.every((header) => !header.includes(token)),
        `the squatter on 127.0.0.1:${port} was sent the server's token`,
      );
    } finally {
      squatter.close();
      await s.close();
    }
  });
});

describe("bosun serve red team: binding", () => {
  it("no --host beyond loopback binds without --expose: IPv6 any, 0, mapped forms, trailing-dot localhost, names", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const hosts = [
        "0",
        "0.0.0.0",
        "::",
        "[::]",
        "::0",
        "0:0:0:0:0:0:0:0",
        "::ffff:0.0.0.0",
        "::ffff:0:0",
        "localhost.",
        "localhost.localdomain",
        "example.com",
        "0177.0.0.1x",
        "",
        " 127.0.0.1",
        "127.0.0.1 0.0.0.0",
      ];
      for (const host of hosts) {
        const answer = await s.run(["serve", "--host", host, "--port", "0"]);
        assert.equal(answer.code, 2, `--host "${host}" exited ${answer.code}: ${answer.stdout}${answer.stderr}`);
        assert.doesNotMatch(answer.stdout, /listening on/, host);
        noStack(answer.stderr);
      }
    } finally {
      await s.close();
    }
  });

  it("the loopback forms it accepts are bound on loopback only", async () => {
    const s = await startScenario({ rules: [] });
    try {
      for (const host of ["127.0.0.2", "::1", "localhost"]) {
        const { child, result } = s.spawn(["serve", "--host", host, "--port", "0"]);
        let stdout = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
        });
        const url = await waitFor(() => /listening on (\S+)/.exec(stdout)?.[1], 15_000).catch(() => undefined);
        child.kill("SIGTERM");
        const ended = await result;
        if (!url) {
          // Refused (no IPv6 here, say) is safe.
          assert.notEqual(ended.code, 0);
          continue;
        }
        const hostname = new URL(url).hostname.replace(/^\[|\]$/g, "");
        assert.ok(["127.0.0.2", "::1", "localhost"].includes(hostname), url);
      }
    } finally {
      await s.close();
    }
  });
});

describe("bosun serve red team: POST /sessions {directory} and its other fields", () => {
  it("a directory that is not an absolute path of a folder is 400, no session made: relative, dot, tilde, a file, a link to a file, missing, NUL, a FIFO", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      writeFileSync(join(s.ws.dir, "a-file.txt"), "x");
      symlinkSync(join(s.ws.dir, "a-file.txt"), join(s.ws.dir, "link-to-file"));
      const { execFileSync } = await import("node:child_process");
      execFileSync("mkfifo", [join(s.ws.dir, "fifo")]);
      const bad = [
        ".",
        "..",
        "~",
        "repo",
        "./",
        join(s.ws.dir, "a-file.txt"),
        join(s.ws.dir, "link-to-file"),
        join(s.ws.dir, "missing"),
        join(s.ws.dir, "fifo"),
        `${s.ws.dir}\u0000/etc`,
        "file:///tmp",
        "\\\\server\\share",
      ];
      for (const directory of bad) {
        const answer = await serve.call("POST", "/sessions", { directory });
        assert.equal(answer.status, 400, `${JSON.stringify(directory)} -> ${answer.status} ${answer.text}`);
        noStack(answer.text);
      }
      assert.deepEqual((await serve.call("GET", "/sessions")).body, []);
    });
  });

  it("the body's other keys are dropped: no resuming someone's session by id, no trusting the repository, no fork, no interactive", async () => {
    await withServe(
      { rules: [{ reply: { text: "Done." } }] },
      async (s, serve) => {
        const first = await newSession(serve, s);
        const answer = await serve.call("POST", "/sessions", {
          directory: s.ws.dir,
          session: first,
          fork: true,
          trustProject: true,
          interactive: true,
          launch: true,
        });
        assert.equal(answer.status, 201, answer.text);
        assert.notEqual(answer.body.id, first, "the body resumed another session");
        assert.equal(answer.body.parent, null, "the body forked");
        const trust = await serve.call("GET", `/sessions/${String(answer.body.id)}/decisions?seat=project.trust`);
        const decisions = trust.body as unknown as Array<{ answer: unknown }>;
        assert.ok(
          decisions.every((d) => d.answer !== "trusted"),
          `the repository was trusted through the body: ${trust.text}`,
        );
        const mode = await serve.call("GET", `/sessions/${String(answer.body.id)}/decisions?seat=permission.mode`);
        assert.ok(
          (mode.body as unknown as Array<{ answer: unknown }>).every((d) => d.answer !== "auto"),
          `the untrusted repository's mode auto applied: ${mode.text}`,
        );
      },
      { config: { mode: "auto", permission: { edit: "allow", shell: "allow" } } },
    );
  });

  it("a session id in the route is only ever 26 letters and digits: traversal, SQL, globs and prefixes are 400", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const id = await newSession(serve, s);
      for (const bad of [
        id.slice(0, 10),
        `${id}x`,
        "%2e%2e%2f%2e%2e",
        "' OR 1=1 --",
        "*",
        "%25",
        `${id.slice(0, 25)}%`,
        `${id.slice(0, 25)}_`,
      ]) {
        const answer = await serve.call("GET", `/sessions/${encodeURIComponent(bad)}`);
        assert.ok([400, 404].includes(answer.status), `${bad} -> ${answer.status}`);
        assert.notEqual(answer.body.id, id);
        const del = await serve.call("DELETE", `/sessions/${encodeURIComponent(bad)}`);
        assert.ok([400, 404].includes(del.status), `DELETE ${bad} -> ${del.status}`);
      }
      assert.equal((await serve.call("GET", `/sessions/${id}`)).status, 200);
    });
  });
});

describe("bosun serve red team: asks and questions", () => {
  it("an ask of one session answered through another's route is 404 and the call stays unanswered", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write a" }, reply: writing("a.txt", "a\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const a = await newSession(serve, s);
        const b = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${a}/events`, serve.token);
        const other = follow(`${serve.base}/sessions/${b}/events`, serve.token);
        await serve.call("POST", `/sessions/${a}/messages`, { text: "write a" });
        const ask = await stream.next("ask");
        const wrong = await serve.call("POST", `/sessions/${b}/asks/${String(ask.data.ask)}`, { reply: "once" });
        assert.equal(wrong.status, 404);
        const wrongUnknown = await serve.call("POST", `/sessions/${SOME_ID}/asks/${String(ask.data.ask)}`, {
          reply: "once",
        });
        assert.equal(wrongUnknown.status, 404);
        const pending = (await serve.call("GET", `/sessions/${a}/asks`)).body as unknown as unknown[];
        assert.equal(pending.length, 1, "the ask is still waiting for its own session's answer");
        assert.throws(() => readFileSync(join(s.ws.dir, "a.txt")));
        await serve.call("POST", `/sessions/${a}/asks/${String(ask.data.ask)}`, { reply: "deny" });
        await stream.next("done");
        await stream.close();
        await other.close();
      },
    );
  });

  it("a question of one session answered through another's route is 404 and the question stays waiting", async () => {
    await withServe(
      {
        rules: [
          {
            match: { lastMessage: "ask me" },
            reply: { toolCalls: [{ id: "q2", name: "question", arguments: { question: "Name?" } }] },
            times: 1,
          },
          { reply: { text: "ok" } },
        ],
      },
      async (s, serve) => {
        const a = await newSession(serve, s);
        const b = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${a}/events`, serve.token);
        await serve.call("POST", `/sessions/${a}/messages`, { text: "ask me" });
        const question = await stream.next("question");
        const body = { action: "accept", values: { own_words: "mallory" } };
        assert.equal(
          (await serve.call("POST", `/sessions/${b}/questions/${String(question.data.question)}`, body)).status,
          404,
        );
        const waiting = (await serve.call("GET", `/sessions/${a}/questions`)).body as unknown as unknown[];
        assert.equal(waiting.length, 1);
        await serve.call("POST", `/sessions/${a}/questions/${String(question.data.question)}`, { action: "decline" });
        await stream.next("done");
        assert.doesNotMatch(JSON.stringify(s.server.requests), /mallory/);
        await stream.close();
      },
    );
  });

  it("an ask answered twice counts once; answered after its turn ended is 404; the ledger has one approval", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write b" }, reply: writing("b.txt", "b\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write b" });
        const ask = await stream.next("ask");
        const path = `/sessions/${id}/asks/${String(ask.data.ask)}`;
        const answers = await Promise.all([
          serve.call("POST", path, { reply: "deny" }),
          serve.call("POST", path, { reply: "once" }),
          serve.call("POST", path, { reply: "always" }),
        ]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404, 404], answers.map((a) => a.text).join(" | "));
        await stream.next("done");
        assert.equal((await serve.call("POST", path, { reply: "once" })).status, 404);
        const ledger = (await serve.call("GET", `/sessions/${id}/decisions?seat=call.approval`))
          .body as unknown as unknown[];
        assert.equal(ledger.length, 1);
        await stream.close();
      },
    );
  });

  it("an ask answered after its turn was cancelled is 404 and nothing runs", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write e" }, reply: writing("e.txt", "e\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write e" });
        const ask = await stream.next("ask");
        const [cancel, late] = await Promise.all([
          serve.call("POST", `/sessions/${id}/cancel`),
          serve.call("POST", `/sessions/${id}/asks/${String(ask.data.ask)}`, { reply: "once" }),
        ]);
        assert.equal(cancel.status, 200);
        await stream.next("done");
        if (late.status === 200) {
          // The answer won the race: it ran before the cancel, once; never after.
          const approvals = (await serve.call("GET", `/sessions/${id}/decisions?seat=call.approval`))
            .body as unknown as unknown[];
          assert.equal(approvals.length, 1);
        }
        assert.equal(
          (await serve.call("POST", `/sessions/${id}/asks/${String(ask.data.ask)}`, { reply: "once" })).status,
          404,
        );
        await stream.close();
      },
    );
  });

  it("an answer with the wrong content type, no body, or an extra field is refused and the ask stays waiting", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write c" }, reply: writing("c.txt", "c\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write c" });
        const ask = await stream.next("ask");
        const path = `/sessions/${id}/asks/${String(ask.data.ask)}`;
        const bearer = { authorization: `Bearer ${serve.token}` };
        const tries: Array<[unknown, Record<string, string>]> = [
          ['{"reply":"once"}', { ...bearer, "content-type": "text/plain" }],
          ['{"reply":"once"}', bearer],
          ["", { ...bearer, "content-type": "application/json" }],
          ["{}", { ...bearer, "content-type": "application/json" }],
          ['{"reply":"always","option":-1}', { ...bearer, "content-type": "application/json" }],
          ['{"reply":"always","option":99}', { ...bearer, "content-type": "application/json" }],
          ['{"reply":"always","option":0.5}', { ...bearer, "content-type": "application/json" }],
          ['{"reply":["once"]}', { ...bearer, "content-type": "application/json" }],
          ['{"reply":"ONCE"}', { ...bearer, "content-type": "application/json" }],
          ['[{"reply":"once"}]', { ...bearer, "content-type": "application/json" }],
          ["reply=once", { ...bearer, "content-type": "application/x-www-form-urlencoded" }],
        ];
        for (const [body, headers] of tries) {
          const answer = await serve.call("POST", path, body, headers);
          assert.ok(
            [400, 415].includes(answer.status),
            `${String(body)} ${headers["content-type"]} -> ${answer.status} ${answer.text}`,
          );
        }
        const pending = (await serve.call("GET", `/sessions/${id}/asks`)).body as unknown as unknown[];
        assert.equal(pending.length, 1);
        await serve.call("POST", path, { reply: "deny" });
        const done = await stream.next("done");
        assert.equal(done.data.status, "denied");
        assert.throws(() => readFileSync(join(s.ws.dir, "c.txt")));
        await stream.close();
      },
    );
  });

  it("a deny through the server, with a message, is the person's and names the server", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write d" }, reply: writing("d.txt", "d\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write d" });
        const ask = await stream.next("ask");
        await serve.call("POST", `/sessions/${id}/asks/${String(ask.data.ask)}`, { reply: "deny", message: "no" });
        await stream.next("done");
        const [approval] = (await serve.call("GET", `/sessions/${id}/decisions?seat=call.approval`))
          .body as unknown as Array<{ holder: string; answer: string; reasons: unknown[] }>;
        assert.equal(approval?.holder, "person");
        assert.match(String(approval?.answer), /^deny/);
        assert.match(JSON.stringify(approval?.reasons), /the server \(bosun serve/);
        await stream.close();
      },
    );
  });

  it("an MCP server's form answered over HTTP with values that do not fit it is declined by code: the server never gets them", async () => {
    const form = fileURLToPath(new URL("../support/mcp-form-server.mjs", import.meta.url));
    const s = await startScenario(
      {
        rules: [
          { match: { request: 1 }, reply: { toolCalls: [{ id: "f", name: "mcp__form__sign_up", arguments: {} }] } },
          { reply: { text: "Done." } },
        ],
      },
      { global: { mcp: { form: { command: process.execPath, args: [form] } } } },
    );
    try {
      const serve = await startServe(s);
      try {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "sign me up" });
        const first = await waitFor(
          () => stream.seen.find((e) => e.data.type === "question" || e.data.type === "ask"),
          20_000,
        );
        if (first.data.type === "ask") {
          await serve.call("POST", `/sessions/${id}/asks/${String(first.data.ask)}`, { reply: "once" });
        }
        const question = await stream.next("question");
        const answered = await serve.call("POST", `/sessions/${id}/questions/${String(question.data.question)}`, {
          action: "accept",
          values: { name: "A", weekly: "yes please", injected: "x" },
        });
        assert.ok([200, 400].includes(answered.status), answered.text);
        await stream.next("done");
        const sent = JSON.stringify(s.server.requests.at(-1) ?? "");
        assert.doesNotMatch(
          sent,
          /"name\\?":\\?"A\\?"|injected|yes please/,
          "the form's server got values that do not fit it",
        );
        assert.match(sent, /form answer: .*decline/, "the form's server was told no");
        const [elicit] = (await serve.call("GET", `/sessions/${id}/decisions?seat=mcp.elicit`))
          .body as unknown as Array<{
          holder: string;
          answer: string;
        }>;
        assert.deepEqual([elicit?.holder, elicit?.answer], ["code", "decline"]);
        await stream.close();
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("a question's choice is one of the options offered: a value never offered is refused, not told to the model as chosen", async () => {
    await withServe(
      {
        rules: [
          {
            match: { lastMessage: "pick" },
            reply: {
              toolCalls: [{ id: "q1", name: "question", arguments: { question: "Which?", options: ["red", "blue"] } }],
            },
            times: 1,
          },
          { reply: { text: "ok" } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "pick" });
        const question = await stream.next("question");
        const answer = await serve.call("POST", `/sessions/${id}/questions/${String(question.data.question)}`, {
          action: "accept",
          values: { choice: ["green", "rm -rf /"], own_words: 42, extra: true },
        });
        await stream.next("done");
        const sent = JSON.stringify(s.server.requests.at(-1) ?? "");
        assert.ok(
          answer.status === 400 || !/The person chose: green/.test(sent),
          "the model was told the person chose an option it never offered",
        );
        await stream.close();
      },
    );
  });
});

describe("bosun serve red team: what a client sets is shown safely", () => {
  it("a title with terminal escapes set over HTTP does not reach the person's terminal raw (bosun sessions)", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const title = "\u001b]0;owned\u0007\u001b[2J\u001b[31mred\rfake line";
      // Refused over HTTP, naming the field; a title with escapes from elsewhere (a terminal's -t) is shown harmless.
      const created = await serve.call("POST", "/sessions", { directory: s.ws.dir, title });
      assert.equal(created.status, 400, created.text);
      assert.match(created.text, /title: no control characters/);
      const run = await s.run(["run", "-t", title, "hello"]);
      assert.equal(run.code, 0, run.stderr);
      const listed = await s.run(["sessions"]);
      assert.equal(listed.code, 0, listed.stderr);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is looked for
      assert.doesNotMatch(listed.stdout, /\u001b|\u0007|\r/, "a client's title drives the person's terminal");
    });
  });
});

describe("bosun serve red team: the event stream", () => {
  it("a Last-Event-ID that is not a plain decimal id (-1, 1e309, NaN, 0x10, 0b11, 1e3, a float) replays from the start, not read as a number", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const silenced: string[] = [];
      for (const last of [
        "-1",
        "1e309",
        "-1e309",
        "NaN",
        "0x10",
        "0b11",
        "1.5",
        "abc",
        "",
        "-0",
        "1e3",
        "  ",
        "0".repeat(5000),
      ]) {
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token, last);
        const opened = await stream.next("session", 0, 2_000).catch(() => undefined);
        if (!opened) silenced.push(JSON.stringify(last.slice(0, 12)));
        await stream.close();
      }
      assert.deepEqual(silenced, [], "these Last-Event-IDs skipped the session's first events (read as numbers)");
    });
  });

  it("a Last-Event-ID beyond the last event does not silence the stream: the client still gets the next turn's events", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token, "9007199254740991");
      await waitFor(() => (stream.status() === 200 ? true : undefined));
      await serve.call("POST", `/sessions/${id}/messages`, { text: "hi" });
      const done = await stream.next("done", 0, 5_000).catch(() => undefined);
      await stream.close();
      assert.ok(done, "the stream with a huge Last-Event-ID never said the turn was done (nor a gap, nor anything)");
    });
  });

  it("three hundred streams at once do not take the server down; closing them leaves it answering", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const streams = Array.from({ length: 300 }, () => follow(`${serve.base}/sessions/${id}/events`, serve.token));
      await Promise.all(streams.map((st) => st.next("session")));
      const started = Date.now();
      assert.equal((await serve.call("GET", "/sessions")).status, 200);
      assert.ok(Date.now() - started < 5_000);
      await Promise.all(streams.map((st) => st.close()));
      await serve.call("POST", `/sessions/${id}/messages`, { text: "hi" });
      const after = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await after.next("done");
      await after.close();
    });
  });

  it("deleting a session ends its open event streams", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await stream.next("session");
      assert.equal((await serve.call("DELETE", `/sessions/${id}`)).status, 200);
      await stream.next("deleted");
      const ended = await waitFor(() => (stream.ended() ? true : undefined), 3_000).catch(() => false);
      await stream.close();
      assert.ok(ended, "the stream of a deleted session stays open (subscribed to a log nobody writes)");
    });
  });
});

describe("bosun serve red team: bodies", () => {
  it("deeply nested JSON, a huge string, a JSON bomb of keys: 400 or 413, never a crash, never a stack", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const bodies = [
        "[".repeat(1_500_000),
        `{"directory":${"[".repeat(500_000)}${"]".repeat(500_000)}}`,
        `{"text":${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}}`,
        JSON.stringify({ text: "x".repeat(1_000_001) }),
        `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":1`).join(",")}}`,
        '{"__proto__":{"text":"hi"}}',
        '{"constructor":{"prototype":{"text":"hi"}}}',
      ];
      for (const body of bodies) {
        for (const path of ["/sessions", `/sessions/${id}/messages`]) {
          const answer = await serve.call("POST", path, body).catch(() => ({ status: -1, text: "", body: {} }));
          assert.ok(
            [400, 413, -1].includes(answer.status),
            `${path} ${body.slice(0, 40)} -> ${answer.status} ${answer.text.slice(0, 200)}`,
          );
          noStack(answer.text);
        }
      }
      assert.equal((await serve.call("GET", "/sessions")).status, 200);
      assert.equal(s.server.requests.length, 0, "no turn started from a bad body");
    });
  });
});

describe("bosun serve red team: races", () => {
  it("five POST /messages at once on a session the server holds: one turn", async () => {
    await withServe(
      { rules: [{ match: { lastMessage: "m" }, reply: { hang: true } }, { reply: { text: "Done." } }] },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const sent = await Promise.all(
          Array.from({ length: 5 }, () => serve.call("POST", `/sessions/${id}/messages`, { text: "m" })),
        );
        assert.deepEqual(sent.map((r) => r.status).sort(), [202, 409, 409, 409, 409]);
        await waitFor(() => (s.server.requests.length > 0 ? true : undefined));
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(s.server.requests.length, 1);
        await serve.call("POST", `/sessions/${id}/cancel`);
      },
    );
  });

  it("five POST /messages at once on a session the server has not opened yet (an earlier one): one turn, and no 409 naming the server's own pid as another run", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "m" }, reply: { hang: true } }, { reply: { text: "Done." } }],
    });
    try {
      const run = await s.run(["run", "first"]);
      assert.equal(run.code, 0, run.stderr);
      const earlier = s.latest().id;
      const serve = await startServe(s);
      try {
        const before = s.server.requests.length;
        const sent = await Promise.all(
          Array.from({ length: 5 }, () => serve.call("POST", `/sessions/${earlier}/messages`, { text: "m" })),
        );
        const statuses = sent.map((r) => r.status).sort();
        assert.deepEqual(statuses, [202, 409, 409, 409, 409], sent.map((r) => r.text).join(" | "));
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(s.server.requests.length - before, 1, "more than one turn ran");
        for (const refused of sent.filter((r) => r.status === 409)) {
          assert.doesNotMatch(
            String(refused.body.error),
            new RegExp(`pid ${serve.child.pid}`),
            "a 409 blames the server's own pid: the client is told another run holds the session the server holds",
          );
        }
        await serve.call("POST", `/sessions/${earlier}/cancel`);
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("opening the event stream while a message resumes the session is not a 404 for a session that exists", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const run = await s.run(["run", "first"]);
      assert.equal(run.code, 0, run.stderr);
      const earlier = s.latest().id;
      const serve = await startServe(s);
      try {
        // What `bosun attach --session <earlier>` does: follow the stream and send the first message.
        const [message, events] = await Promise.all([
          serve.call("POST", `/sessions/${earlier}/messages`, { text: "again" }),
          (async () => {
            const st = follow(`${serve.base}/sessions/${earlier}/events`, serve.token);
            await waitFor(() => (st.status() !== 0 ? true : undefined));
            const status = st.status();
            await st.close();
            return status;
          })(),
        ]);
        assert.deepEqual(
          [message.status, events],
          [202, 200],
          `one of the two lost the race to the server's own lease: ${message.text}`,
        );
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("cancel and a new message at once: never two turns at the same time", async () => {
    await withServe(
      { rules: [{ match: { lastMessage: "hang" }, reply: { hang: true } }, { reply: { text: "Done." } }] },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "hang" });
        await waitFor(() => (s.server.requests.length > 0 ? true : undefined));
        const [, second] = await Promise.all([
          serve.call("POST", `/sessions/${id}/cancel`),
          serve.call("POST", `/sessions/${id}/messages`, { text: "next" }),
        ]);
        assert.ok([202, 409].includes(second.status));
        await stream.next("done");
        if (second.status === 202) {
          // The second turn started only after the first said done.
          const first = stream.seen.findIndex((e) => e.data.type === "done");
          const secondStart = stream.seen.findIndex((e, i) => i > first && e.data.type !== "done");
          assert.ok(secondStart === -1 || secondStart > first);
        }
        await stream.close();
      },
    );
  });

  it("a delete and a message at once: never a turn running in a deleted session", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      for (let round = 0; round < 5; round++) {
        const id = await newSession(serve, s);
        const [del, message] = await Promise.all([
          serve.call("DELETE", `/sessions/${id}`),
          serve.call("POST", `/sessions/${id}/messages`, { text: "go" }),
        ]);
        assert.ok(
          !(del.status === 200 && message.status === 202),
          `round ${round}: the session was deleted and a turn started in it (${del.text} / ${message.text})`,
        );
        if (message.status === 202) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          assert.equal((await serve.call("GET", `/sessions/${id}`)).status, 200);
        }
      }
      assert.equal((await serve.call("GET", "/sessions")).status, 200);
    });
  });

  it("a fork of a session whose call waits for an ask does not carry that call into the fork as allowed", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write f" }, reply: writing("f.txt", "f\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write f" });
        const ask = await stream.next("ask");
        const fork = await serve.call("POST", `/sessions/${id}/fork`);
        assert.ok([201, 409].includes(fork.status), fork.text);
        if (fork.status === 201) {
          const copy = String(fork.body.id);
          const forked = follow(`${serve.base}/sessions/${copy}/events`, serve.token);
          await serve.call("POST", `/sessions/${copy}/messages`, { text: "continue" });
          await forked.next("done");
          await forked.close();
          assert.throws(() => readFileSync(join(s.ws.dir, "f.txt")), "the fork wrote the file nobody allowed");
        }
        await serve.call("POST", `/sessions/${id}/asks/${String(ask.data.ask)}`, { reply: "deny" });
        await stream.next("done");
        assert.throws(() => readFileSync(join(s.ws.dir, "f.txt")));
        await stream.close();
      },
    );
  });
});

describe("bosun serve red team: the lease", () => {
  it("a terminal run on a session the server holds is refused (exit 2), and the server's turn still runs", async () => {
    await withServe({ rules: [{ reply: { text: "Done." } }] }, async (s, serve) => {
      const id = await newSession(serve, s);
      const terminal = await s.run(["run", "-s", id, "steal"]);
      assert.equal(terminal.code, 2, terminal.stdout + terminal.stderr);
      assert.match(terminal.stderr, /in use/);
      const terminalC = await s.run(["run", "-c", "steal"]);
      assert.ok(terminalC.code === 2 || !terminalC.stdout.includes(id), "run -c took the server's session");
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await serve.call("POST", `/sessions/${id}/messages`, { text: "mine" });
      assert.equal((await stream.next("done")).data.status, "done");
      await stream.close();
    });
  });

  it("following an earlier session's events (a read) does not keep the terminal out of it once the stream is closed", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const run = await s.run(["run", "first"]);
      assert.equal(run.code, 0, run.stderr);
      const earlier = s.latest().id;
      const serve = await startServe(s);
      try {
        const stream = follow(`${serve.base}/sessions/${earlier}/events`, serve.token);
        await stream.next("session");
        await stream.close();
        const again = await s.run(["run", "-s", earlier, "carry on"]);
        assert.equal(again.code, 0, `a GET of the events took the lease until the server stops: ${again.stderr}`);
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("stopping the server while an ask waits: the call does not run, the lease is let go, the terminal can carry on", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "write h" }, reply: writing("h.txt", "h\n"), times: 1 },
        { reply: { text: "Done." } },
      ],
    });
    try {
      const serve = await startServe(s);
      let id: string;
      try {
        id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write h" });
        await stream.next("ask");
        const ended = await serve.stop();
        await stream.close();
        assert.equal(ended.code, 0, ended.stderr);
      } finally {
        await serve.stop();
      }
      assert.throws(() => readFileSync(join(s.ws.dir, "h.txt")), "the waiting call ran as the server stopped");
      const again = await s.run(["run", "-s", id, "carry on"]);
      assert.equal(again.code, 0, again.stderr);
      assert.throws(() => readFileSync(join(s.ws.dir, "h.txt")), "resuming re-ran the call nobody allowed");
    } finally {
      await s.close();
    }
  });

  it("a session a terminal run holds is not driven, deleted or followed by the server", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "hang" }, reply: { hang: true } }, { reply: { text: "Done." } }],
    });
    try {
      const serve = await startServe(s);
      const terminal = s.spawn(["run", "hang"]);
      try {
        await waitFor(() => (s.server.requests.length > 0 ? true : undefined), 15_000);
        const id = s.latest().id;
        assert.equal((await serve.call("POST", `/sessions/${id}/messages`, { text: "x" })).status, 409);
        assert.equal((await serve.call("DELETE", `/sessions/${id}`)).status, 409);
        const fork = await serve.call("POST", `/sessions/${id}/fork`);
        assert.ok([201, 409].includes(fork.status));
        assert.equal((await serve.call("GET", `/sessions/${id}`)).status, 200);
        assert.equal(s.server.requests.length, 1, "the server ran a turn in the terminal's session");
      } finally {
        terminal.child.kill("SIGTERM");
        await terminal.result;
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });
});

describe("bosun serve red team: errors and the record", () => {
  it("errors are one line: no stack, no database or token path, for bad agents, models, modes and ids", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const answers = [
        await serve.call("POST", "/sessions", { directory: s.ws.dir, agent: "no-such-agent" }),
        await serve.call("POST", "/sessions", { directory: s.ws.dir, model: "nope/nothing" }),
        await serve.call("POST", "/sessions", { directory: s.ws.dir, mode: "root" }),
        await serve.call("POST", "/sessions", { directory: s.ws.dir, agent: "../../etc/passwd" }),
        await serve.call("GET", `/sessions/${SOME_ID}/decisions?seat=${"*".repeat(5000)}`),
        await serve.call("GET", `/sessions?directory=${encodeURIComponent("' OR 1=1 --")}`),
        await serve.call("POST", `/sessions/${SOME_ID}/messages`, { text: "x" }),
        await serve.call("POST", `/sessions/${SOME_ID}/fork`),
      ];
      for (const answer of answers) {
        assert.ok(answer.status >= 200 && answer.status < 500, `${answer.status} ${answer.text}`);
        noStack(answer.text);
        assert.doesNotMatch(answer.text, /bosun\.db|server\/token|node_modules|dist\/cli/);
      }
    });
  });

  it("the mode, model and agent a client chose (POST /sessions) are recorded as chosen through the server, not as terminal flags nobody typed", async () => {
    await withServe({ rules: [] }, async (s, serve) => {
      const created = await serve.call("POST", "/sessions", {
        directory: s.ws.dir,
        mode: "auto",
        model: "scripted/test-model",
        agent: "plan",
      });
      assert.equal(created.status, 201, created.text);
      const wrong: string[] = [];
      for (const [seat, flag] of [
        ["permission.mode", "--mode"],
        ["model.select", "--model"],
        ["agent.select", "--agent"],
      ] as const) {
        const [decision] = (await serve.call("GET", `/sessions/${String(created.body.id)}/decisions?seat=${seat}`))
          .body as unknown as Array<{ holder: string; answer: string; reasons: Array<{ rule: string }> }>;
        const decisive = JSON.stringify(decision?.reasons.find((r) => (r as { decisive?: boolean }).decisive));
        if (!/server/.test(decisive) || decisive.includes(flag)) wrong.push(`${seat}: ${decisive}`);
      }
      assert.deepEqual(wrong, [], "recorded as flags typed at a terminal, not as the server's client's choice");
    });
  });

  it("an always through the server is recorded as the person's, naming the server, and what it saved", async () => {
    await withServe(
      {
        rules: [
          { match: { lastMessage: "write g" }, reply: writing("g.txt", "g\n"), times: 1 },
          { reply: { text: "Done." } },
        ],
      },
      async (s, serve) => {
        const id = await newSession(serve, s);
        const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
        await serve.call("POST", `/sessions/${id}/messages`, { text: "write g" });
        const ask = await stream.next("ask");
        await serve.call("POST", `/sessions/${id}/asks/${String(ask.data.ask)}`, { reply: "always", option: 0 });
        await stream.next("done");
        const [approval] = (await serve.call("GET", `/sessions/${id}/decisions?seat=call.approval`))
          .body as unknown as Array<{ holder: string; answer: string; reasons: unknown[] }>;
        assert.equal(approval?.holder, "person");
        assert.match(String(approval?.answer), /always/);
        assert.match(JSON.stringify(approval?.reasons), /the server \(bosun serve/);
        await stream.close();
      },
    );
  });
});
