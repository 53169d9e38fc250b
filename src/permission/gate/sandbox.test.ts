import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Confinement } from "../../contracts/confinement.js";
import { spawnShell } from "../../tools/process.js";
import { sandboxProblem } from "./sandbox.js";

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
    confine = { kind: "sealed", visible: [ws] };
    // The stand-in for masked files lives in bosun's data folder: this test's, not the user's.
    process.env.BOSUN_HOME = join(root, "home");
  });
  after(() => {
    delete process.env.BOSUN_HOME;
    rmSync(root, { recursive: true, force: true });
  });

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

  it("binds writable exactly the paths it is given (a file; a folder for a new file), never a writable folder's .git", async () => {
    mkdirSync(join(ws, "docs"), { recursive: true });
    mkdirSync(join(ws, ".git"), { recursive: true });
    writeFileSync(join(ws, "notes.md"), "old\n");
    writeFileSync(join(ws, "docs", "keep.md"), "keep\n");
    writeFileSync(join(ws, ".envrc"), "# direnv\n");
    const named: Confinement = { kind: "sealed", visible: [ws], writable: [join(ws, "notes.md"), join(ws, "docs")] };
    const proc = spawnShell(
      [
        "echo new > notes.md",
        "echo made > docs/made.md",
        "echo evil > .envrc",
        "echo evil > bosun.json",
        "echo evil > .git/config",
        "rm -f docs/../a.txt",
        `echo evil > ${join(outside, "w.txt")}`,
        "true",
      ].join("; "),
      { cwd: ws, confine: named },
    );
    await proc.finished;
    assert.equal(readFileSync(join(ws, "notes.md"), "utf8"), "new\n");
    assert.equal(readFileSync(join(ws, "docs", "made.md"), "utf8"), "made\n");
    assert.equal(readFileSync(join(ws, ".envrc"), "utf8"), "# direnv\n");
    assert.equal(existsSync(join(ws, "bosun.json")), false);
    assert.equal(existsSync(join(ws, ".git", "config")), false);
    assert.equal(existsSync(join(ws, "a.txt")), true);
    assert.equal(existsSync(join(outside, "w.txt")), false);
    assert.match(proc.output.text(), /Read-only file system/);

    const whole: Confinement = { kind: "sealed", visible: [ws], writable: [ws] };
    const again = spawnShell("echo x > w.txt; echo evil > .git/config; true", { cwd: ws, confine: whole });
    await again.finished;
    assert.equal(readFileSync(join(ws, "w.txt"), "utf8"), "x\n");
    assert.equal(existsSync(join(ws, ".git", "config")), false, "a writable folder's .git stays read-only");
    rmSync(join(ws, "w.txt"));
  });

  it("masked: the file system as it is, but the masked files empty, unmounting them refused, bosun's processes unseen", async () => {
    writeFileSync(join(ws, ".env"), "TOKEN=masked-secret\n");
    const state = join(root, "bosun-state");
    mkdirSync(state, { recursive: true });
    const masked: Confinement = { kind: "masked", visible: [ws], masked: [join(ws, ".env")], readOnly: [state] };
    const proc = spawnShell(
      `cat .env; umount .env 2>/dev/null; cat .env; cat /proc/1/root${ws}/.env; echo out > ${join(outside, "m.txt")}; echo evil > ${join(state, "bosun.json")}; ps -e | wc -l`,
      { cwd: ws, confine: masked },
    );
    await proc.finished;
    const output = proc.output.text();
    assert.doesNotMatch(output, /masked-secret/);
    assert.equal(readFileSync(join(outside, "m.txt"), "utf8"), "out\n", "it writes where its user may");
    assert.equal(existsSync(join(state, "bosun.json")), false, "but not bosun's own state");
    const processes = Number(output.trim().split("\n").at(-1));
    assert.ok(processes <= 6, `only its own processes: ${output}`);
  });

  it("masked: the empty stand-in is bosun's data folder's own file, made again when something wrote into it", async () => {
    writeFileSync(join(ws, ".env"), "TOKEN=masked-secret\n");
    const standIn = join(root, "home", "data", "empty");
    mkdirSync(join(root, "home", "data"), { recursive: true });
    rmSync(standIn, { force: true });
    writeFileSync(standIn, "planted\n");
    const masked: Confinement = { kind: "masked", visible: [ws], masked: [join(ws, ".env")] };
    const proc = spawnShell('echo "[$(cat .env)]"', { cwd: ws, confine: masked });
    await proc.finished;
    assert.equal(proc.output.text(), "[]\n");
    assert.equal(readFileSync(standIn, "utf8"), "");
    assert.equal(statSync(standIn).mode & 0o777, 0o444);
  });
});
