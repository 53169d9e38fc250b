import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { checkSigV4, startBedrockServer } from "../support/bedrock-server.js";
import { expectDecision } from "../support/ledger.js";
import { createWorkspace } from "../support/workspace.js";

const MODEL = "anthropic.claude-sonnet-4-5-v1:0";

/** The AWS variables a run gets: the caller's own are never inherited. */
const AWS_CLEAN = {
  AWS_ACCESS_KEY_ID: "",
  AWS_SECRET_ACCESS_KEY: "",
  AWS_SESSION_TOKEN: "",
  AWS_BEARER_TOKEN_BEDROCK: "",
  AWS_PROFILE: "",
  AWS_SHARED_CREDENTIALS_FILE: "",
  AWS_ENDPOINT_URL: "",
  AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "",
};

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

describe("bedrock through the binary", () => {
  it("signs with SigV4 from the AWS variables and streams converse-stream's event frames into the answer", async () => {
    const server = await startBedrockServer(["Hello from ", "Bedrock."]);
    const ws = createWorkspace();
    try {
      writeFileSync(
        join(ws.home, "bosun.json"),
        JSON.stringify({ model: `bedrock/${MODEL}`, provider: { bedrock: { baseURL: server.url } } }),
      );
      const env = {
        ...AWS_CLEAN,
        AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
        AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        AWS_SESSION_TOKEN: "session-token-123",
        AWS_REGION: "eu-west-1",
        AI_SDK_LOG_WARNINGS: "false",
      };
      const run = await ws.run(["run", "say hello"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Hello from Bedrock\./);

      const call = server.requests.find((r) => r.path.endsWith("/converse-stream"));
      assert.ok(call, `no converse-stream request: ${server.requests.map((r) => r.path).join(", ")}`);
      assert.equal(call.path, `/model/${encodeURIComponent(MODEL)}/converse-stream`);
      const signed = checkSigV4(call, env.AWS_SECRET_ACCESS_KEY);
      assert.equal(signed.accessKeyId, "AKIDEXAMPLE");
      assert.equal(signed.region, "eu-west-1");
      assert.equal(signed.service, "bedrock");
      assert.equal(signed.date, String(call.headers["x-amz-date"]).slice(0, 8));
      assert.equal(call.headers["x-amz-security-token"], "session-token-123");
      assert.ok(signed.signedHeaders.includes("x-amz-security-token"), "the session token is signed");
      assert.ok(signed.signedHeaders.includes("host"));
      assert.ok(signed.valid, "the signature is the one the secret gives for this request");
      assert.equal(checkSigV4(call, "another-secret").valid, false, "the check is not vacuous");
      const body = JSON.parse(call.body) as { messages: Array<{ role: string; content: Array<{ text?: string }> }> };
      assert.ok(body.messages.at(-1)?.content.some((part) => part.text === "say hello"));

      // Where the credentials came from is named, never their values.
      const select = expectDecision(latestDecisions(ws.home), "model.select", "config", `bedrock/${MODEL}`);
      const credentials = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
      assert.match(credentials, /environment variables AWS_ACCESS_KEY_ID \+ AWS_SECRET_ACCESS_KEY/);
      assert.match(credentials, /AWS_REGION=eu-west-1, AWS_SESSION_TOKEN \(set\)/);
      assert.ok(!JSON.stringify(select).includes("session-token-123"));
      assert.ok(!JSON.stringify(select).includes("EXAMPLEKEY"));
    } finally {
      ws.cleanup();
      await server.close();
    }
  });

  it("a profile's keys from AWS_SHARED_CREDENTIALS_FILE sign the request; AWS_ENDPOINT_URL is where it goes, both recorded", async () => {
    const server = await startBedrockServer(["From the ", "profile."]);
    const ws = createWorkspace();
    try {
      const credentials = join(ws.home, "aws-credentials");
      writeFileSync(
        credentials,
        "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = nope\n\n[work]\naws_access_key_id = AKIAWORK\naws_secret_access_key = work/secret+key\naws_session_token = work-session\n",
      );
      writeFileSync(join(ws.home, "bosun.json"), JSON.stringify({ model: `bedrock/${MODEL}` }));
      const env = {
        ...AWS_CLEAN,
        AWS_SHARED_CREDENTIALS_FILE: credentials,
        AWS_PROFILE: "work",
        AWS_REGION: "us-west-2",
        AWS_ENDPOINT_URL: server.url,
        AI_SDK_LOG_WARNINGS: "false",
      };
      const run = await ws.run(["run", "hi"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /From the profile\./);
      const call = server.requests.find((r) => r.path.endsWith("/converse-stream"));
      assert.ok(call);
      const signed = checkSigV4(call, "work/secret+key");
      assert.equal(signed.accessKeyId, "AKIAWORK");
      assert.equal(signed.region, "us-west-2");
      assert.equal(signed.service, "bedrock");
      assert.ok(signed.valid);
      assert.equal(call.headers["x-amz-security-token"], "work-session");

      const select = expectDecision(latestDecisions(ws.home), "model.select", "config", `bedrock/${MODEL}`);
      const detail = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
      assert.match(detail, new RegExp(`^AWS profile work in ${credentials.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      assert.match(detail, /requests go to http:\/\/127\.0\.0\.1:\d+ \(environment variable AWS_ENDPOINT_URL\)/);
      assert.ok(!JSON.stringify(select).includes("work/secret+key"));

      const listed = await ws.run(["models"], { env });
      assert.match(
        listed.stdout,
        /^bedrock \(bedrock, http:\/\/127\.0\.0\.1:\d+ from environment variable AWS_ENDPOINT_URL\) — ready: AWS profile work in /m,
      );
      assert.match(listed.stdout, /from the environment: AWS_REGION=us-west-2/);
    } finally {
      ws.cleanup();
      await server.close();
    }
  });
});
