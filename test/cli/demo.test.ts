import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { BOSUN_BIN, createWorkspace, runProcess } from "../support/workspace.js";

/**
 * `bosun demo` drives the real CLI against its own scripted model server in a throwaway project.
 * Each run gets its own TMPDIR, so "the temp folders are gone" is checked by that folder being empty.
 */
async function demo(args: string[] = [], bin = BOSUN_BIN) {
  const ws = createWorkspace();
  const tmp = join(ws.home, "..", "tmp");
  mkdirSync(tmp);
  const result = await runProcess(process.execPath, [bin, "demo", ...args], {
    cwd: ws.dir,
    env: { ...ws.env, TMPDIR: tmp, ANTHROPIC_API_KEY: "must-not-be-used" },
  });
  return { ws, tmp, result, output: `${result.stdout}\n${result.stderr}` };
}

describe("bosun demo", () => {
  it("fixes the bundled project with a scripted model, prints the ledger, and cleans up", async () => {
    const { ws, tmp, result } = await demo();
    try {
      assert.equal(result.code, 0, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
      // Honest up front: the model is scripted and local.
      assert.match(result.stdout, /^bosun demo — the model here is SCRIPTED/);
      assert.match(result.stdout, /No API key is used and nothing leaves this machine/);
      // The real tool calls ran: tests failed, the file was read and edited, the tests passed.
      assert.match(result.stderr, /✗ shell `node test\.js` → exit 1/);
      assert.match(result.stderr, /✓ read stats\.js/);
      assert.match(result.stderr, /✓ edit stats\.js \(\+1 -1\)/);
      assert.match(result.stderr, /✓ shell `node test\.js` → exit 0/);
      assert.match(result.stderr, /\[done · 5 step\(s\) · session /);
      assert.match(result.stdout, /Fixed mean\(\) in stats\.js/);
      assert.match(result.stdout, /\$ node test\.js[^\n]*\nok {3}mean\(\[2, 4, 6\]\) is 4\n[\s\S]*3 passed, 0 failed/);
      // The ledger of that session.
      assert.match(result.stdout, /\$ bosun why [0-9A-Z]{26}/);
      assert.match(result.stdout, /^turn 1 · node test\.js fails\./m);
      assert.match(
        result.stdout,
        /^ {4}call demo-3: edit stats\.js\n {6}call\.permission .*\n(?: .*\n)*? {6}call\.approval +code +allow-once /m,
      );
      assert.match(result.stdout, /^ {4}turn\.done +model +done +ended without tool calls$/m);
      assert.match(result.stdout, /^set-up · new session: model scripted\/demo · /m);
      // How to go on with a real model.
      assert.match(result.stdout, /ANTHROPIC_API_KEY[\s\S]*bosun models/);
      // Temp project and BOSUN_HOME are gone; the caller's BOSUN_HOME was never touched.
      assert.deepEqual(readdirSync(tmp), []);
      assert.deepEqual(readdirSync(ws.home), []);
    } finally {
      ws.cleanup();
    }
  });

  it("--keep keeps the project (fixed, a git repo) and its BOSUN_HOME, and says where", async () => {
    const { ws, tmp, result } = await demo(["--keep"]);
    try {
      assert.equal(result.code, 0, result.stderr);
      const kept = readdirSync(tmp);
      assert.equal(kept.length, 1, `kept: ${kept.join(", ")}`);
      const root = join(tmp, kept[0] ?? "");
      assert.match(root, /bosun-demo-\w+$/);
      const project = join(root, "project");
      assert.ok(result.stdout.includes(`Kept (--keep): the project ${project} and BOSUN_HOME ${join(root, "home")}`));
      assert.match(readFileSync(join(project, "stats.js"), "utf8"), /return sum \/ values\.length;/);
      assert.ok(existsSync(join(project, ".git")));
      assert.ok(existsSync(join(root, "home", "data", "bosun.db")));
    } finally {
      ws.cleanup();
    }
  });

  it("fails loudly, with the scripted server's failures, when bosun does not do what the script expects", async () => {
    // A bosun whose config denies edits: it offers no edit tool, and the script's fix step (which needs one) never matches.
    const ws = createWorkspace();
    try {
      const wrapper = ws.write(
        "deny-edits.mjs",
        `process.env.BOSUN_CONFIG_CONTENT = '{"permission":{"edit":"deny"}}';\nawait import(${JSON.stringify(pathToFileURL(BOSUN_BIN).href)});\n`,
      );
      const runner = ws.write(
        "run-demo.mjs",
        [
          `const { runDemo } = await import(${JSON.stringify(pathToFileURL(join(BOSUN_BIN, "..", "..", "devtools", "demo", "run.js")).href)});`,
          `try { await runDemo({ keep: false, bin: ${JSON.stringify(wrapper)} }); }`,
          "catch (error) { process.stderr.write('bosun: ' + error.message + '\\n'); process.exitCode = error.exitCode ?? 1; }",
        ].join("\n"),
      );
      const tmp = join(ws.home, "..", "tmp");
      mkdirSync(tmp);
      writeFileSync(join(ws.dir, "package.json"), '{ "type": "module" }');
      const result = await runProcess(process.execPath, [runner], { cwd: ws.dir, env: { ...ws.env, TMPDIR: tmp } });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /the demo failed — bosun did not do what the script expects/);
      assert.match(result.stderr, /bosun run exited with code 1/);
      assert.match(result.stderr, /scripted model server: request 3 .*no rule matches/);
      assert.doesNotMatch(result.stdout, /\$ bosun why/);
      assert.deepEqual(readdirSync(tmp), []);
    } finally {
      ws.cleanup();
    }
  });
});
