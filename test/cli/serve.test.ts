import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";
import { startServe } from "../support/serve.js";

const ROUTES = [
  "/sessions",
  "/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4",
  "/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4/decisions",
  "/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4/events",
  "/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4/asks",
  "/openapi.json",
  "/nowhere",
];

describe("bosun serve: the HTTP API behind a token", () => {
  it("refuses every route without the token or with another, and answers with it: sessions, one session, its ledger", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const run = await s.run(["run", "say done"]);
      assert.equal(run.code, 0, run.stderr);
      const serve = await startServe(s);
      try {
        const token = /token \(shown this once, kept in (.+)\): (\S+)/.exec(serve.stdout());
        assert.ok(token, serve.stdout());
        const [, file, secret] = token as unknown as [string, string, string];
        assert.equal(file, join(s.ws.home, "data", "server", "token"));
        assert.equal(statSync(file).mode & 0o777, 0o600);
        for (const path of ROUTES) {
          const wrong: Record<string, string>[] = [
            {},
            { authorization: "Bearer wrong" },
            { authorization: `Bearer ${secret}x` },
            { authorization: secret },
          ];
          for (const headers of wrong) {
            const answer = await fetch(`${serve.base}${path}`, { headers });
            assert.equal(answer.status, 401, `${path} ${JSON.stringify(headers)}`);
            assert.match(answer.headers.get("www-authenticate") ?? "", /^Bearer/);
            assert.match(((await answer.json()) as { error: string }).error, /unauthorized/);
          }
        }
        const auth = { authorization: `Bearer ${secret}` };
        const get = async (path: string) => {
          const answer = await fetch(`${serve.base}${path}`, { headers: auth });
          return { status: answer.status, body: (await answer.json()) as unknown };
        };
        const sessions = await get("/sessions");
        assert.equal(sessions.status, 200);
        const [session] = sessions.body as Array<{ id: string; directory: string }>;
        assert.equal(session?.id, s.latest().id);
        const one = await get(`/sessions/${session?.id.toLowerCase()}`);
        assert.equal((one.body as { id: string }).id, session?.id);
        const text = await fetch(`${serve.base}/sessions/${session?.id}/ledger?width=80`, { headers: auth });
        assert.equal(text.status, 200);
        assert.match(await text.text(), /turn 1 · say done\n {2}step 1\n {4}context\.tools {2}code/);
        const typo = await get(`/sessions/${session?.id}/ledger?seat=nope.seat`);
        assert.equal(typo.status, 400);
        const ledger = await get(`/sessions/${session?.id}/decisions?seat=session.*`);
        assert.equal(ledger.status, 200);
        const seats = (ledger.body as Array<{ seat: string; holder: string }>).map((d) => d.seat);
        assert.ok(seats.length > 0 && seats.every((seat) => seat.startsWith("session.")), seats.join(","));
        // Bad input: 400 naming the field; an unknown session or route: 404; never a stack.
        const bad = await get("/sessions/not-an-id");
        assert.equal(bad.status, 400);
        assert.match((bad.body as { error: string }).error, /^id: a session id/);
        assert.equal((await get("/sessions/01M8XZDZWEZX9XDZFQS5W9B4P4")).status, 404);
        const nowhere = await get("/nowhere");
        assert.equal(nowhere.status, 404);
        assert.doesNotMatch(JSON.stringify(nowhere.body), /\n\s+at /);
      } finally {
        await serve.stop();
      }
      // A second start keeps the token and does not print it again.
      const again = await startServe(s);
      try {
        assert.doesNotMatch(again.stdout(), /shown this once/);
        assert.match(again.stdout(), /token: in .*server\/token \(owner-only\)/);
      } finally {
        await again.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("serves an OpenAPI document of its routes, with the bearer scheme on all of them", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const serve = await startServe(s);
      try {
        const secret = /: (\S+)$/m.exec(
          serve
            .stdout()
            .split("\n")
            .find((l) => l.startsWith("token")) ?? "",
        )?.[1];
        const answer = await fetch(`${serve.base}/openapi.json`, { headers: { authorization: `Bearer ${secret}` } });
        assert.equal(answer.status, 200);
        const doc = (await answer.json()) as {
          openapi: string;
          paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
          security: unknown;
          components: { securitySchemes: Record<string, { scheme: string }> };
        };
        assert.equal(doc.openapi, "3.1.0");
        assert.deepEqual(Object.keys(doc.paths).sort(), [
          "/sessions",
          "/sessions/{id}",
          "/sessions/{id}/asks",
          "/sessions/{id}/asks/{ask}",
          "/sessions/{id}/cancel",
          "/sessions/{id}/decisions",
          "/sessions/{id}/events",
          "/sessions/{id}/fork",
          "/sessions/{id}/ledger",
          "/sessions/{id}/messages",
          "/sessions/{id}/questions",
          "/sessions/{id}/questions/{question}",
        ]);
        assert.deepEqual(Object.keys(doc.paths["/sessions"] ?? {}).sort(), ["get", "post"]);
        assert.deepEqual(doc.security, [{ bearer: [] }]);
        assert.equal(doc.components.securitySchemes.bearer?.scheme, "bearer");
        for (const [path, methods] of Object.entries(doc.paths)) {
          for (const operation of Object.values(methods)) assert.ok("401" in operation.responses, path);
        }
      } finally {
        await serve.stop();
      }
    } finally {
      await s.close();
    }
  });

  it("binds beyond this machine only with --expose; a bad port is usage, exit 2", async () => {
    const s = await startScenario({ rules: [] });
    try {
      const wide = await s.run(["serve", "--host", "0.0.0.0", "--port", "0"]);
      assert.equal(wide.code, 2);
      assert.match(wide.stderr, /--host 0\.0\.0\.0 reaches beyond this machine: add --expose/);
      const port = await s.run(["serve", "--port", "http"]);
      assert.equal(port.code, 2);
      assert.match(port.stderr, /--port must be a port number/);
      assert.doesNotMatch(wide.stderr + port.stderr, /\n\s+at /);
    } finally {
      await s.close();
    }
  });
});
