import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { checkedStream } from "../support/run-stream.js";
import { sentText, startScenario, waitFor } from "../support/scenario.js";
import { follow as followStream, startServe } from "../support/serve.js";

/** A session's stream, strictly: a 200 event stream, a failure thrown when it is closed. */
const follow = (url: string, token: string, lastEventId?: string) =>
  followStream(url, token, { strict: true, ...(lastEventId ? { lastEventId } : {}) });

const writing = (path: string, content: string) => ({
  toolCalls: [{ id: `w-${path}`, name: "write", arguments: { path, content } }],
});

describe("bosun serve drives a session: a whole task over HTTP", () => {
  it("create, message, events, an ask answered over HTTP, the file written, the ledger naming the person through the server; resume by Last-Event-ID; a second turn refused", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "write hello" }, reply: writing("hello.txt", "hello\n"), times: 1 },
        { reply: { text: "Done." } },
      ],
    });
    const serve = await startServe(s);
    const { auth } = serve;
    const post = (path: string, body: unknown) => serve.call("POST", path, body);
    try {
      for (const path of ["/sessions", "/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4/messages"]) {
        const refused = await fetch(`${serve.base}${path}`, { method: "POST", body: "{}" });
        assert.equal(refused.status, 401, path);
      }
      assert.equal((await post("/sessions", { directory: "relative/path" })).status, 400);
      const garbled = await fetch(`${serve.base}/sessions`, { method: "POST", headers: auth, body: "{not json" });
      assert.equal(garbled.status, 400);
      assert.match(((await garbled.json()) as { error: string }).error, /./);
      // A body past the limit is refused (413), or the connection cut while it is still sent; the server lives on.
      const huge = await fetch(`${serve.base}/sessions`, {
        method: "POST",
        headers: auth,
        body: "x".repeat(3 * 1024 * 1024),
      }).then(
        (answer) => answer.status,
        () => "cut",
      );
      assert.ok(huge === 413 || huge === "cut", String(huge));
      assert.match(String((await post("/sessions", { mode: "auto" })).body.error), /^directory:/);
      const created = await post("/sessions", { directory: s.ws.dir, title: "over http" });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = String(created.body.id);
      assert.equal(created.body.title, "over http");

      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      const opened = await stream.next("session");
      assert.equal(opened.data.session, id);
      assert.equal(opened.data.v, 1);

      assert.equal((await post(`/sessions/${id}/messages`, { text: "write hello" })).status, 202);
      const busy = await post(`/sessions/${id}/messages`, { text: "again" });
      assert.equal(busy.status, 409);
      assert.match(String(busy.body.error), /a turn is running/);

      const ask = await stream.next("ask");
      assert.equal(ask.data.tool, "write");
      assert.deepEqual(
        (ask.data.requests as Array<{ action: string }>).map((r) => r.action),
        ["edit"],
      );
      const pending = await fetch(`${serve.base}/sessions/${id}/asks`, { headers: auth });
      assert.deepEqual(
        ((await pending.json()) as Array<{ ask: string }>).map((a) => a.ask),
        [ask.data.ask],
      );
      assert.equal((await post(`/sessions/${id}/asks/${ask.data.ask}`, { reply: "sometimes" })).status, 400);
      assert.equal((await post(`/sessions/${id}/asks/nope`, { reply: "once" })).status, 404);
      assert.equal((await post(`/sessions/${id}/asks/${ask.data.ask}`, { reply: "once" })).status, 200);

      const done = await stream.next("done");
      assert.equal(done.data.status, "done");
      assert.equal(done.data.result, "Done.");
      assert.equal(readFileSync(join(s.ws.dir, "hello.txt"), "utf8"), "hello\n");
      // Every event in order, numbered as the stream numbers them.
      const ids = stream.seen.map((e) => Number(e.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      assert.ok(stream.seen.every((e) => e.data.seq === Number(e.id) && e.event === e.data.type));
      // Each event's data is a line of `--format json`'s documented stream (schema/run-stream.v1.json), seq 1, 2, 3…
      checkedStream(stream.seen.map((e) => JSON.stringify(e.data)).join("\n"));

      const ledger = await fetch(`${serve.base}/sessions/${id}/decisions?seat=call.approval`, { headers: auth });
      const [approval] = (await ledger.json()) as Array<{
        holder: string;
        answer: string;
        reasons: Array<{ rule: string; detail?: string }>;
      }>;
      assert.equal(approval?.holder, "person");
      assert.equal(approval?.answer, "allow-once");
      assert.match(JSON.stringify(approval?.reasons), /answered through.*the server \(bosun serve on 127\.0\.0\.1\)/);

      // A client that reconnects with Last-Event-ID gets what came after, nothing before.
      const resumed = follow(`${serve.base}/sessions/${id}/events`, serve.token, String(ask.id));
      await resumed.next("done");
      assert.equal(Number(resumed.seen[0]?.id), Number(ask.id) + 1);
      await resumed.close();
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("a client that disconnects mid-ask is a deny, by code, and the file is not written", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "write secret" }, reply: writing("secret.txt", "x\n"), times: 1 },
        { reply: { text: "Could not write it." } },
      ],
    });
    const serve = await startServe(s);
    const { auth } = serve;
    try {
      const created = await fetch(`${serve.base}/sessions`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ directory: s.ws.dir }),
      });
      const id = ((await created.json()) as { id: string }).id;
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await stream.next("session");
      await fetch(`${serve.base}/sessions/${id}/messages`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ text: "write secret" }),
      });
      await stream.next("ask");
      await stream.close();
      // The server notices the client left, and nobody is left to answer: the ask is gone, denied.
      let waiting: unknown[] = [];
      for (let i = 0; i < 100; i++) {
        waiting = (await (await fetch(`${serve.base}/sessions/${id}/asks`, { headers: auth })).json()) as unknown[];
        if (waiting.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(waiting, [], "the ask was denied once the client left");
      const watcher = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      const done = await watcher.next("done");
      assert.equal(done.data.status, "denied");
      await watcher.close();
      assert.equal(existsSync(join(s.ws.dir, "secret.txt")), false);
      const ledger = await fetch(`${serve.base}/sessions/${id}/decisions?seat=call.approval`, { headers: auth });
      const [approval] = (await ledger.json()) as Array<{
        holder: string;
        answer: string;
        reasons: Array<{ rule: string; detail?: string }>;
      }>;
      assert.equal(approval?.holder, "code");
      assert.equal(approval?.answer, "deny");
      assert.match(approval?.reasons[0]?.detail ?? "", /disconnected/);
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("cancel stops a turn waiting on the model; twenty sessions stream their turns at once", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "hang" }, reply: { hang: true } }, { reply: { text: "Done." } }],
    });
    const serve = await startServe(s);
    const post = (path: string, body: unknown) => serve.call("POST", path, body);
    try {
      const hung = String((await post("/sessions", { directory: s.ws.dir })).body.id);
      const stream = follow(`${serve.base}/sessions/${hung}/events`, serve.token);
      assert.equal((await post(`/sessions/${hung}/messages`, { text: "hang" })).status, 202);
      await waitFor(() => (s.server.requests.length > 0 ? true : undefined));
      assert.deepEqual((await post(`/sessions/${hung}/cancel`, {})).body, { cancelled: true });
      assert.equal((await stream.next("done")).data.status, "cancelled");
      assert.deepEqual((await post(`/sessions/${hung}/cancel`, {})).body, { cancelled: false });
      await stream.close();

      const ids = await Promise.all(
        Array.from({ length: 20 }, async () => String((await post("/sessions", { directory: s.ws.dir })).body.id)),
      );
      assert.equal(new Set(ids).size, 20);
      const streams = ids.map((id) => follow(`${serve.base}/sessions/${id}/events`, serve.token));
      await Promise.all(streams.map((st) => st.next("session")));
      const sent = await Promise.all(ids.map((id, n) => post(`/sessions/${id}/messages`, { text: `task ${n}` })));
      assert.ok(sent.every((r) => r.status === 202));
      const dones = await Promise.all(streams.map((st) => st.next("done")));
      assert.ok(dones.every((d) => d.data.status === "done" && d.data.result === "Done."));
      assert.ok(dones.every((d, n) => d.data.session === ids[n]));
      await Promise.all(streams.map((st) => st.close()));
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("a server started with --mode auto says so on every session it creates, and nobody is asked", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "write it" }, reply: writing("auto.txt", "auto\n"), times: 1 },
        { reply: { text: "Done." } },
      ],
    });
    const serve = await startServe(s, ["--mode", "auto"]);
    const { auth } = serve;
    try {
      const created = await fetch(`${serve.base}/sessions`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ directory: s.ws.dir }),
      });
      const id = ((await created.json()) as { id: string }).id;
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      const opened = await stream.next("session");
      assert.equal(opened.data.mode, "auto");
      assert.match(String(opened.data.warning), /every call that would ask is allowed/);
      await fetch(`${serve.base}/sessions/${id}/messages`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ text: "write it" }),
      });
      assert.equal((await stream.next("done")).data.status, "done");
      assert.equal(stream.seen.filter((e) => e.data.type === "ask").length, 0);
      assert.equal(readFileSync(join(s.ws.dir, "auto.txt"), "utf8"), "auto\n");
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("the question tool asks the client: the answer reaches the model, recorded as the person's through the server", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "pick" },
          reply: {
            toolCalls: [
              { id: "q1", name: "question", arguments: { question: "Which colour?", options: ["red", "blue"] } },
            ],
          },
          times: 1,
        },
        { reply: { text: "Blue it is." } },
      ],
    });
    const serve = await startServe(s);
    const { auth } = serve;
    const post = (path: string, body: unknown) => serve.call("POST", path, body);
    try {
      const id = String((await post("/sessions", { directory: s.ws.dir })).body.id);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await post(`/sessions/${id}/messages`, { text: "pick" });
      const question = await stream.next("question");
      assert.equal(question.data.message, "Which colour?");
      const listed = (await (
        await fetch(`${serve.base}/sessions/${id}/questions`, { headers: auth })
      ).json()) as Array<{
        question: string;
      }>;
      assert.deepEqual(
        listed.map((q) => q.question),
        [question.data.question],
      );
      assert.equal((await post(`/sessions/${id}/questions/nope`, { action: "decline" })).status, 404);
      assert.equal(
        (await post(`/sessions/${id}/questions/${question.data.question}`, { action: "maybe" })).status,
        400,
      );
      const answered = await post(`/sessions/${id}/questions/${question.data.question}`, {
        action: "accept",
        values: { choice: "blue" },
      });
      assert.equal(answered.status, 200);
      assert.equal((await stream.next("done")).data.status, "done");
      assert.match(sentText(s, 2), /The person chose: blue/);
      const ledger = await fetch(`${serve.base}/sessions/${id}/decisions?seat=call.question`, { headers: auth });
      const [recorded] = (await ledger.json()) as Array<{ holder: string; answer: string; reasons: unknown[] }>;
      assert.deepEqual([recorded?.holder, recorded?.answer], ["person", "answered"]);
      assert.match(JSON.stringify(recorded?.reasons), /answered through.*the server/);
      checkedStream(stream.seen.map((e) => JSON.stringify(e.data)).join("\n"));
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("fork copies a session into a new one; delete is refused while a turn runs, then removes it", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "hang" }, reply: { hang: true } }, { reply: { text: "Done." } }],
    });
    const serve = await startServe(s);
    const { auth } = serve;
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${serve.base}${path}`, {
        method,
        headers: auth,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    try {
      const id = String((await call("POST", "/sessions", { directory: s.ws.dir })).body.id);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await call("POST", `/sessions/${id}/messages`, { text: "first" });
      await stream.next("done");
      const fork = await call("POST", `/sessions/${id}/fork`);
      assert.equal(fork.status, 201, JSON.stringify(fork.body));
      assert.notEqual(fork.body.id, id);
      assert.equal(fork.body.parent, id);

      await call("POST", `/sessions/${id}/messages`, { text: "hang" });
      await waitFor(() => (s.server.requests.length >= 2 ? true : undefined));
      const busy = await call("DELETE", `/sessions/${id}`);
      assert.equal(busy.status, 409);
      assert.match(String(busy.body.error), /a turn is running/);
      await call("POST", `/sessions/${id}/cancel`);
      await stream.next("done", stream.seen.findIndex((e) => e.data.type === "done") + 1);
      const deleted = await call("DELETE", `/sessions/${id}`);
      assert.deepEqual([deleted.status, deleted.body.deleted], [200, id]);
      assert.equal((await call("GET", `/sessions/${id}`)).status, 404);
      assert.equal((await call("DELETE", `/sessions/${id}`)).status, 404);
      assert.equal((await call("GET", `/sessions/${String(fork.body.id)}`)).status, 200);
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("allow always through the server is saved as the terminal saves it: the next such call runs unasked", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "first" }, reply: writing("same.txt", "one\n"), times: 1 },
        { match: { lastMessage: "second" }, reply: writing("same.txt", "two\n"), times: 1 },
        { reply: { text: "Done." } },
      ],
    });
    const serve = await startServe(s);
    const post = (path: string, body: unknown) => serve.call("POST", path, body);
    try {
      const id = String((await post("/sessions", { directory: s.ws.dir })).body.id);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await post(`/sessions/${id}/messages`, { text: "first" });
      const ask = await stream.next("ask");
      assert.ok((ask.data.always as string[]).length > 0, "always is offered");
      assert.equal((await post(`/sessions/${id}/asks/${ask.data.ask}`, { reply: "always", option: 0 })).status, 200);
      await stream.next("done");
      const firstDone = stream.seen.length;
      await post(`/sessions/${id}/messages`, { text: "second" });
      await stream.next("done", firstDone);
      assert.equal(stream.seen.filter((e) => e.data.type === "ask").length, 1, "the second write was not asked about");
      assert.equal(readFileSync(join(s.ws.dir, "same.txt"), "utf8"), "two\n");
      const listed = await s.run(["permissions", "list", "--json"]);
      assert.match(listed.stdout, /same\.txt/);
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("an earlier session is resumed once however many requests reach it at once: one turn runs, the others are told it runs", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "slow" }, reply: { text: "Slow done.", delayMs: 500 } },
        { reply: { text: "Done." } },
      ],
    });
    const earlier = await s.run(["run", "before the server"]);
    assert.equal(earlier.code, 0, earlier.stderr);
    const id = s.latest().id;
    const serve = await startServe(s);
    const { auth } = serve;
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(`${serve.base}/sessions/${id}/messages`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({ text: "slow" }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string } })),
        ),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [202, 409, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409))
        assert.match(refused.body.error ?? "", /a turn is running/);
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      assert.equal((await stream.next("done")).data.result, "Slow done.");
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });

  it("a message's until is the turn's goal: a failed check goes back to the model, the next passes; recorded as the person's through the server", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    const serve = await startServe(s);
    const post = (path: string, body: unknown) => serve.call("POST", path, body);
    const check = "if [ -f .tried ]; then exit 0; fi; touch .tried; echo 'FAIL: not yet'; exit 1";
    try {
      const created = await post("/sessions", { directory: s.ws.dir });
      const id = String(created.body.id);
      for (const until of [[], [""], "exit 0", Array.from({ length: 21 }, () => "true")]) {
        const bad = await post(`/sessions/${id}/messages`, { text: "fix it", until });
        assert.equal(bad.status, 400, JSON.stringify(until));
        assert.match(String(bad.body.error), /until/);
      }
      const stream = follow(`${serve.base}/sessions/${id}/events`, serve.token);
      await stream.next("session");
      assert.equal((await post(`/sessions/${id}/messages`, { text: "fix it", until: [check] })).status, 202);
      assert.equal((await stream.next("done")).data.status, "done");
      assert.equal(s.server.requests.length, 2, "sent back to work once");
      assert.match(sentText(s, 2), /FAIL: not yet/);
      const ledger = await fetch(`${serve.base}/sessions/${id}/decisions?seat=turn.goal`, { headers: serve.auth });
      const goals = (await ledger.json()) as Array<{
        holder: string;
        answer: string;
        subject?: { command?: string; attempt?: number };
        reasons: Array<{ rule: string; detail?: string }>;
      }>;
      assert.deepEqual(
        goals.map((g) => [g.holder, g.answer, g.subject?.attempt]),
        [
          ["person", "continue", 1],
          ["person", "passed", 2],
        ],
      );
      assert.equal(goals[0]?.subject?.command, check);
      assert.ok(
        goals[1]?.reasons.some((r) => r.rule === "the person's goal" && r.detail === "the server message's until"),
      );
      // The goal was the message's: the next message without one ends when the model says done.
      const after = stream.seen.length;
      assert.equal((await post(`/sessions/${id}/messages`, { text: "and now?" })).status, 202);
      assert.equal((await stream.next("done", after)).data.status, "done");
      assert.equal(s.server.requests.length, 3);
      await stream.close();
    } finally {
      await serve.stop();
      await s.close();
    }
  });
});
