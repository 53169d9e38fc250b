import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import { type LoadedConfig, loadConfig } from "../config/load.js";
import type { Answer, RecordedDecision } from "../seats/types.js";
import { builtinTools } from "../tools/registry.js";
import { authorize, DEFAULT_EFFECTS } from "./authorize.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "call.permission", ...answer, seq: 1, at: "" }];

describe("authorize (call.permission)", () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A config loaded from a project bosun.json, so origins carry a file and a line. */
  function projectConfig(text: string): { config: LoadedConfig; file: string } {
    const dir = mkdtempSync(join(tmpdir(), "bosun-authorize-"));
    dirs.push(dir);
    const file = join(dir, "bosun.json");
    writeFileSync(file, text);
    return { config: loadConfig({ cwd: dir, env: { BOSUN_HOME: join(dir, "home") } }), file };
  }

  it("answers by the built-in default of the tool's kind when no rule names the tool (code)", () => {
    const config = configFrom({});
    const read = authorize({ name: "read", kind: "read" }, config);
    expectDecision(asRecorded(read), "call.permission", "code", "allow");
    assert.deepEqual(read.reasons, [{ rule: "built-in default", detail: "read tools: allow", decisive: true }]);
    const edit = authorize({ name: "edit", kind: "edit" }, config);
    expectDecision(asRecorded(edit), "call.permission", "code", "ask");
    assert.deepEqual(edit.reasons, [{ rule: "built-in default", detail: "edit tools: ask", decisive: true }]);
    const shell = authorize({ name: "shell", kind: "shell" }, config);
    expectDecision(asRecorded(shell), "call.permission", "code", "ask");
    assert.deepEqual(DEFAULT_EFFECTS, { read: "allow", edit: "ask", shell: "ask" });
  });

  it("gives every built-in tool its kind's default", () => {
    const config = configFrom({});
    const answers = Object.fromEntries(builtinTools().map((t) => [t.name, authorize(t, config).answer]));
    assert.deepEqual(answers, {
      read: "allow",
      list: "allow",
      glob: "allow",
      grep: "allow",
      edit: "ask",
      write: "ask",
      shell: "ask",
    });
  });

  it("lets a config rule for the tool win, with its file and line as the source (config)", () => {
    const { config, file } = projectConfig('{\n  "permission": {\n    "shell": "allow",\n    "read": "deny"\n  }\n}\n');
    const shell = authorize({ name: "shell", kind: "shell" }, config);
    expectDecision(asRecorded(shell), "call.permission", "config", "allow");
    assert.deepEqual(shell.reasons, [
      { rule: "permission.shell", detail: "allow", decisive: true, source: file, key: "permission.shell", line: 3 },
    ]);
    const read = authorize({ name: "read", kind: "read" }, config);
    expectDecision(asRecorded(read), "call.permission", "config", "deny");
    assert.equal(read.reasons[0]?.line, 4);
    // A rule for one tool says nothing about another of the same kind.
    assert.equal(authorize({ name: "grep", kind: "read" }, config).holder, "code");
    assert.equal(authorize({ name: "edit", kind: "edit" }, config).answer, "ask");
  });

  it("takes a rule of the same value as the default as the config's answer", () => {
    const { config } = projectConfig('{ "permission": { "edit": "ask" } }');
    const edit = authorize({ name: "edit", kind: "edit" }, config);
    assert.equal(edit.holder, "config");
    assert.equal(edit.answer, "ask");
  });

  it("names the layer a rule came from when it is not a file", () => {
    const config = configFrom({ permission: { write: "deny" } });
    const write = authorize({ name: "write", kind: "edit" }, config);
    assert.equal(write.holder, "config");
    assert.equal(write.answer, "deny");
    assert.equal(write.reasons[0]?.source, "BOSUN_CONFIG_CONTENT");
    assert.equal(write.reasons[0]?.key, "permission.write");
  });

  it("uses the highest layer's rule", () => {
    const { config, file } = projectConfig('{ "permission": { "shell": "deny" } }');
    assert.equal(authorize({ name: "shell", kind: "shell" }, config).reasons[0]?.source, file);
    const dir = mkdtempSync(join(tmpdir(), "bosun-authorize-"));
    dirs.push(dir);
    writeFileSync(join(dir, "bosun.json"), '{ "permission": { "shell": "deny" } }');
    const layered = loadConfig({
      cwd: dir,
      env: { BOSUN_HOME: join(dir, "home"), BOSUN_CONFIG_CONTENT: '{ "permission": { "shell": "allow" } }' },
    });
    const shell = authorize({ name: "shell", kind: "shell" }, layered);
    assert.equal(shell.answer, "allow");
    assert.equal(shell.reasons[0]?.source, "BOSUN_CONFIG_CONTENT");
  });

  it("finds no rule for a tool named like an Object member", () => {
    const config = configFrom({ permission: { shell: "allow" } });
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const answer = authorize({ name, kind: "shell" }, config);
      assert.equal(answer.holder, "code", name);
      assert.equal(answer.answer, "ask", name);
    }
  });
});
