import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { modelServerCommand } from "../../cli/commands/dev.js";
import { UsageError } from "../../errors.js";

const dir = mkdtempSync(join(tmpdir(), "bosun-model-command-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const devModule = fileURLToPath(new URL("../../cli/commands/dev.ts", import.meta.url));

describe("bosun dev model-server (modelServerCommand)", () => {
  test("serves a script file until SIGTERM, printing its URLs", async () => {
    const script = join(dir, "script.json");
    writeFileSync(script, JSON.stringify({ rules: [{ reply: { text: "hi" } }], models: ["demo-model"] }));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { modelServerCommand } = await import(${JSON.stringify(devModule)});
         await modelServerCommand({ script: process.env.SCRIPT });`,
      ],
      { env: { ...process.env, SCRIPT: script }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const end = Date.now() + 10_000;
      // The listening line and the baseURL line may arrive in separate chunks: wait for both.
      while (!/listening on (http:\/\/127\.0\.0\.1:\d+)\n[\s\S]*baseURL /.test(stdout)) {
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no listening line:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const url = /scripted model server listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1];
      assert.match(stdout, new RegExp(`baseURL ${url}/v1`));
      const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
      assert.deepEqual(
        models.data.map((model) => model.id),
        ["demo-model"],
      );
      const reply = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "demo-model", messages: [{ role: "user", content: "hello" }] }),
      });
      const body = (await reply.json()) as { choices: Array<{ message: { content: string } }> };
      assert.equal(body.choices[0]?.message.content, "hi");
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
      assert.match(stderr, /#1 openai-chat \/v1\/chat\/completions → rule 0 reply 0/);
      assert.match(stderr, /1 request\(s\), 0 failure\(s\)/);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  test("a bad script or port is a usage error naming the problem", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ rules: [{ reply: { finish: "done" } }] }));
    await assert.rejects(modelServerCommand({ script: bad }), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /bad\.json:\n {2}rules\[0\]\.reply\.finish/);
      return true;
    });
    await assert.rejects(modelServerCommand({ script: join(dir, "none.json") }), /cannot read model script/);
    await assert.rejects(modelServerCommand({ script: bad, port: "http" }), /--port must be a port number/);
  });
});
