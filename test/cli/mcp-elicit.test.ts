import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { KEYS, type Pty, spawnPty } from "../support/pty.js";
import { type Scenario, startScenario, waitFor } from "../support/scenario.js";
import { BOSUN_BIN } from "../support/workspace.js";

/** A server's form (elicitation): declined with nobody there, answered by the person at a terminal (seat mcp.elicit). */

const FORM_SERVER = fileURLToPath(new URL("../support/mcp-form-server.mjs", import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

const callThenDone = (name: string) => ({
  rules: [
    { match: { request: 1 }, reply: { toolCalls: [{ id: "f", name, arguments: {} }] } },
    { reply: { text: "Done." } },
  ],
});

function sentAfterCall(s: Scenario): string {
  return (
    s.server
      .request(2)
      .normalized?.messages.map((m) => m.text)
      .join("\n") ?? ""
  );
}

describe("MCP elicitation: a server's form goes to the person", () => {
  it("with nobody there (no terminal), the real server-everything's form is declined, and that is on record", async () => {
    const s = await startScenario(callThenDone("mcp__everything__trigger-elicitation-request"), {
      global: { mcp: { everything: { command: process.execPath, args: [EVERYTHING] } } },
    });
    try {
      const result = await s.run(["run", "--auto", "ask me"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(sentAfterCall(s), /decline/i);
      const decided = expectDecision(s.latest().decisions, "mcp.elicit", "code", "decline");
      assert.match(JSON.stringify(decided.reasons), /nobody can answer/);
    } finally {
      await s.close();
    }
  });

  it("at a terminal the person answers it field by field; the values go to the server, the ledger names the fields only", async () => {
    const s = await startScenario(callThenDone("mcp__form__sign_up"), {
      global: { mcp: { form: { command: process.execPath, args: [FORM_SERVER] } } },
    });
    let p: Pty | undefined;
    try {
      p = spawnPty(process.execPath, [BOSUN_BIN, "run", "sign me up"], {
        cwd: s.ws.dir,
        env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        cols: 200,
      });
      await p.waitForText(/MCP server form asks you/);
      await p.waitForText(/Sign up for the newsletter/);
      await p.waitForText(/Answer it\?/);
      p.write(KEYS.enter);
      await p.waitForText(/Your name/);
      p.write("A");
      p.write(KEYS.enter);
      await p.waitForText(/Your name: 2 characters or more/);
      p.write("da");
      p.write(KEYS.enter);
      await p.waitForText(/Weekly \(optional\)/);
      p.write("y");
      p.write(KEYS.enter);
      await p.waitForText(/Done\./);
      assert.equal(await p.exit(), 0, p.text());
      assert.match(sentAfterCall(s), /form answer: \{"action":"accept","content":\{"name":"Ada","weekly":true\}\}/);
      const decided = expectDecision(s.latest().decisions, "mcp.elicit", "person", "accept");
      assert.match(JSON.stringify(decided.reasons), /answered name, weekly/);
      assert.doesNotMatch(JSON.stringify(s.latest().decisions), /"Ada"/, "the values stay out of the ledger");
    } finally {
      p?.kill();
      await p?.exit(5_000).catch(() => undefined);
      await s.close();
    }
  });

  it("the notification hooks are told while a form waits (elicitation_dialog); declined at the terminal, the server hears so", async () => {
    const s = await startScenario(callThenDone("mcp__form__sign_up"));
    const told = join(s.ws.home, "told.json");
    const hook = join(s.ws.home, "notify.sh");
    writeFileSync(hook, `#!/bin/bash\ncat > ${told}.tmp; mv ${told}.tmp ${told}\n`);
    chmodSync(hook, 0o755);
    s.setUserConfig({
      mcp: { form: { command: process.execPath, args: [FORM_SERVER] } },
      hooks: { notification: [{ command: hook }] },
    });
    let p: Pty | undefined;
    try {
      p = spawnPty(process.execPath, [BOSUN_BIN, "run", "sign me up"], {
        cwd: s.ws.dir,
        env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        cols: 200,
      });
      await p.waitForText(/Answer it\?/);
      await waitFor(() => (existsSync(told) ? true : undefined));
      const payload = JSON.parse(readFileSync(told, "utf8")) as Record<string, unknown>;
      assert.equal(payload.hook_event_name, "Notification");
      assert.equal(payload.notification_type, "elicitation_dialog");
      assert.equal(payload.message, "bosun needs your input: MCP server form asks");
      p.write(KEYS.down);
      p.write(KEYS.enter);
      await p.waitForText(/Done\./);
      assert.equal(await p.exit(), 0, p.text());
      assert.match(sentAfterCall(s), /form answer: \{"action":"decline"\}/);
      const { decisions } = s.latest();
      expectDecision(decisions, "mcp.elicit", "person", "decline");
      expectDecision(decisions, "person.notify", "hook", "notified");
    } finally {
      p?.kill();
      await p?.exit(5_000).catch(() => undefined);
      await s.close();
    }
  });
});
