import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { startVertexServer } from "../support/vertex-server.js";
import { createWorkspace } from "../support/workspace.js";

function latestDecisions(home: string) {
  const store = SessionStore.open(join(home, "data", "bosun.db"));
  try {
    const [session] = store.list();
    assert.ok(session, "no session was created");
    return readDecisions(store, session.id);
  } finally {
    store.close();
  }
}

describe("vertex through the binary, with a service-account key file", () => {
  for (const [model, streamed] of [
    ["claude-sonnet-4-5", "/vertex/claude-sonnet-4-5:streamRawPredict"],
    ["gemini-2.5-pro", "/vertex/models/gemini-2.5-pro:streamGenerateContent?alt=sse"],
  ] as const) {
    it(`${model}: the JWT grant to the key file's token_uri, its bearer token on ${streamed.split(":")[1]}`, async () => {
      const server = await startVertexServer(`Hello from ${model} on Vertex.`);
      const ws = createWorkspace();
      try {
        const keyFile = join(ws.home, "sa.json");
        server.writeKeyFile(keyFile);
        writeFileSync(
          join(ws.home, "bosun.json"),
          JSON.stringify({
            provider: { vertex: { baseURL: `${server.url}/vertex`, project: "p1", location: "us-east5" } },
          }),
        );
        const env = {
          GOOGLE_APPLICATION_CREDENTIALS: keyFile,
          GOOGLE_VERTEX_API_KEY: "",
          AI_SDK_LOG_WARNINGS: "false",
        };
        const run = await ws.run(["run", "--model", `vertex/${model}`, "hi"], { env });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, new RegExp(`Hello from ${model} on Vertex\\.`));
        const grant = server.requests.find((r) => r.path === "/token");
        assert.ok(grant, "the grant never reached the key file's token_uri");
        assert.equal(new URLSearchParams(grant.body).get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
        const call = server.requests.find((r) => r.path === streamed);
        assert.ok(call, `no ${streamed}: ${server.requests.map((r) => r.path).join(", ")}`);
        assert.equal(call.headers.authorization, `Bearer ${server.token}`);

        const select = expectDecision(latestDecisions(ws.home), "model.select", "person", `vertex/${model}`);
        const detail = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
        assert.match(detail, /^environment variables GOOGLE_APPLICATION_CREDENTIALS/);
        assert.ok(detail.includes(`token_uri=${server.url}/token`), detail);
        assert.ok(!JSON.stringify(select).includes("PRIVATE KEY"));
      } finally {
        ws.cleanup();
        await server.close();
      }
    });
  }
});
