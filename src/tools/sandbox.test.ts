import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { spawnShell } from "./process.js";
import { type Confinement, sandboxProblem } from "./sandbox.js";

/** These tests need bubblewrap; CI installs it (.ci/run). Without it they fail, saying so. */
describe("confined shell commands (bubblewrap)", () => {
  let root: string;
  let ws: string;
  let outside: string;
  let confine: Confinement;
  before(async () => {
    const problem = await sandboxProblem();
    assert.equal(problem, undefined, `the sandbox must work where the tests run: ${problem}`);
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-sandbox-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(join(ws, "a.txt"), "inside\n");
    writeFileSync(join(outside, "secret.txt"), "SECRET\n");
    confine = { kind: "read-only", visible: [ws] };
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = async (command: string) => {
    const proc = spawnShell(command, { cwd: ws, confine });
    const end = await proc.finished;
    return { code: end.exitCode, output: proc.output.text() };
  };

  it("reads the workspace", async () => {
    assert.deepEqual(await run("cat a.txt"), { code: 0, output: "inside\n" });
  });

  it("writes nothing, inside the workspace or out", async () => {
    const result = await run(`touch made.txt; echo x > ${join(outside, "w.txt")}; rm a.txt; echo done`);
    assert.match(result.output, /Read-only file system/);
    assert.equal(existsSync(join(ws, "made.txt")), false);
    assert.equal(existsSync(join(ws, "a.txt")), true);
    assert.equal(existsSync(join(outside, "w.txt")), false);
  });

  it("sees none of the temp folders, home folders and sockets around the workspace", async () => {
    const result = await run(`cat ${join(outside, "secret.txt")}; ls ${root}`);
    assert.doesNotMatch(result.output, /SECRET/);
    assert.match(result.output, /No such file or directory/);
    assert.equal((await run("ls /run | wc -l")).output.trim(), "0");
  });

  it("reaches no network", async () => {
    let heard = false;
    const server = createServer((_req, res) => {
      heard = true;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const result = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected || echo refused`);
      assert.match(result.output, /refused/);
      assert.equal(heard, false);
    } finally {
      server.close();
    }
  });

  it("cannot see bosun's process, nor its environment", async () => {
    process.env.BOSUN_SANDBOX_TEST_TOKEN = "tok-123";
    try {
      const result = await run(
        "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c BOSUN_SANDBOX_TEST_TOKEN; ps -e | wc -l",
      );
      const [count, processes] = result.output.trim().split("\n");
      assert.equal(count, "0");
      assert.ok(Number(processes) <= 6, `only the sandbox's own processes: ${result.output}`);
    } finally {
      delete process.env.BOSUN_SANDBOX_TEST_TOKEN;
    }
  });
});
