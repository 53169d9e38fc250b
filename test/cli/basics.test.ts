import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { createWorkspace, type Workspace } from "../support/workspace.js";

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

describe("bosun command line", () => {
  let ws: Workspace;
  before(() => {
    ws = createWorkspace();
  });
  after(() => ws.cleanup());

  it("prints its version", async () => {
    for (const flag of ["--version", "-v"]) {
      const result = await ws.run([flag]);
      assert.equal(result.code, 0);
      assert.equal(result.stdout.trim(), version);
    }
  });

  it("prints help listing the commands", async () => {
    const result = await ws.run(["--help"]);
    assert.equal(result.code, 0);
    for (const command of ["config", "sessions", "seats", "why"]) {
      assert.match(result.stdout, new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it("answers a bad flag with usage and exit 2", async () => {
    const result = await ws.run(["sessions", "--nope"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /unknown option '--nope'/);
    assert.match(result.stderr, /Usage: bosun sessions/);
  });

  it("answers a mistyped command and a missing argument with exit 2", async () => {
    // Any other first word is a task (habits.test.ts); one a letter from a command is a typo.
    const unknown = await ws.run(["seat"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'seat' \(did you mean seats\?\)/);
    const missing = await ws.run(["sessions", "show"]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required argument 'session'/);
  });

  it("does not create the database for commands that do not need it", async () => {
    await ws.run(["seats"]);
    await ws.run(["config"]);
    const { existsSync } = await import("node:fs");
    assert.equal(existsSync(`${ws.home}/data/bosun.db`), false);
  });
});
