import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { approveAuthority } from "../../../test/support/authority.js";
import { expectDecision } from "../../../test/support/ledger.js";
import type { Decision, RecordedDecision } from "../../contracts/decisions.js";
import type { Tool } from "../../contracts/tools.js";
import { builtinTools } from "../../tools/registry.js";
import { afterCall, type GateDeps, gate } from "./gate.js";
import { hooksFromConfig } from "./hooks.js";

/**
 * Hooks written for Claude Code, run for real (bash scripts, jq) through the gate: what they read
 * on stdin, and what bosun makes of every shape they may answer in.
 */
describe("hooks written for Claude Code (call.hook)", () => {
  let root: string;
  let ws: string;
  let scripts: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-cc-hooks-")));
    ws = join(root, "ws");
    scripts = join(root, "hooks");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(scripts);
    writeFileSync(join(ws, "a.txt"), "old\n");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  let scriptCount = 0;
  /** A hook script in its own file, as people keep them. */
  function script(body: string): string {
    const file = join(scripts, `hook${++scriptCount}.sh`);
    writeFileSync(file, `#!/bin/bash\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  }
  /** A hook that prints this JSON (a string: this text), whatever the call. */
  const printing = (json: unknown) =>
    script(`cat >/dev/null\ncat <<'EOF'\n${typeof json === "string" ? json : JSON.stringify(json)}\nEOF`);

  function setup(hooks: unknown, permission: unknown = { shell: "allow", edit: "allow" }) {
    // The user's own config, where hooks need no project.command judgement.
    const home = join(root, `home${++scriptCount}`);
    mkdirSync(home);
    writeFileSync(join(home, "bosun.json"), JSON.stringify({ hooks, permission }));
    writeFileSync(join(ws, "bosun.json"), "{}");
    const { config, authority } = approveAuthority(ws, home);
    const decisions: RecordedDecision[] = [];
    const deps: GateDeps = {
      authority,
      policy: { rules: [], files: [] },
      hooks: hooksFromConfig(config),
      auto: false,
      sandbox: "off",
      visible: [ws],
      saveAlways() {},
      record: (d: Decision) => decisions.push({ ...d, seq: decisions.length + 1, at: "" }),
      sessionId: "S1",
      signal: new AbortController().signal,
    };
    return { deps, decisions };
  }
  const tool = (name: string) => builtinTools().find((t) => t.name === name) as Tool;
  const call = (name: string, input: Record<string, unknown>, id = "c1") => ({ id, tool: tool(name), input });
  const pre = (decisions: RecordedDecision[]) => decisions.filter((d) => d.seat === "call.hook");

  it("gives a hook Claude Code's fields beside bosun's own, for every tool", async () => {
    const out = join(root, "payloads");
    mkdirSync(out);
    const { deps } = setup({
      pre_tool: [{ command: script(`p=$(cat)\necho "$p" > "${out}/$(echo "$p" | jq -r .call_id).json"`) }],
      post_tool: [
        { command: script(`p=$(cat)\necho "$p" > "${out}/post-$(echo "$p" | jq -r .call_id).json"`), tools: ["Write"] },
      ],
    });
    await gate(call("shell", { command: "ls -la", timeout_ms: 3000 }, "sh"), 1, deps);
    const write = call("write", { path: "notes/n.md", content: "hi" }, "wr");
    const gated = await gate(write, 1, deps);
    assert.ok(gated.run);
    await afterCall(write, 1, { output: "wrote notes/n.md", summary: "write" }, gated.description, deps);
    await gate(call("grep", { pattern: "TODO", include: "*.ts" }, "gr"), 1, deps);
    const read = (name: string) => JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));

    const shell = read("sh");
    assert.deepEqual(
      {
        hook_event_name: shell.hook_event_name,
        tool_name: shell.tool_name,
        tool_input: shell.tool_input,
        tool_use_id: shell.tool_use_id,
        session_id: shell.session_id,
        cwd: shell.cwd,
      },
      {
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls -la", timeout_ms: 3000, timeout: 3000 },
        tool_use_id: "sh",
        session_id: "S1",
        cwd: ws,
      },
    );
    assert.equal(shell.event, "pre_tool", "bosun's own fields stay");
    assert.equal(shell.tool, "shell");
    assert.deepEqual(shell.input, { command: "ls -la", timeout_ms: 3000 });
    assert.ok(!("transcript_path" in shell), "no transcript file exists: none is invented");
    assert.ok(!("tool_response" in shell));

    assert.equal(read("wr").tool_name, "Write");
    assert.equal(read("wr").tool_input.file_path, join(ws, "notes/n.md"));
    assert.equal(read("wr").tool_input.path, "notes/n.md");
    const post = read("post-wr");
    assert.equal(post.hook_event_name, "PostToolUse");
    assert.deepEqual(post.tool_response, { output: "wrote notes/n.md", is_error: false, summary: "write" });
    assert.deepEqual(post.result, post.tool_response);
    assert.deepEqual(read("gr").tool_input, { pattern: "TODO", include: "*.ts", glob: "*.ts" });
    assert.equal(existsSync(join(out, "post-sh.json")), false, "the post hook's matcher named Write only");
  });

  it("a Claude Code guard reading .tool_input.command denies what it was written to deny (exit 2)", async () => {
    const guard = script(
      `command=$(jq -r '.tool_input.command')\nif echo "$command" | grep -q 'rm -rf'; then\n  echo "Destructive command blocked: $command" >&2\n  exit 2\nfi\nexit 0`,
    );
    const { deps, decisions } = setup({ pre_tool: [{ command: guard, tools: ["Bash"] }] });
    const denied = await gate(call("shell", { command: "rm -rf build" }), 1, deps);
    assert.equal(denied.run, false);
    assert.match(denied.run ? "" : denied.output, /Denied by a hook: Destructive command blocked: rm -rf build/);
    expectDecision(decisions, "call.hook", "hook", "deny");
    assert.equal((await gate(call("shell", { command: "ls" }, "c2"), 1, deps)).run, true);
  });

  it('hookSpecificOutput.permissionDecision "deny" denies, with its reason (the guide\'s jq -n guard)', async () => {
    const guard = script(
      `command=$(jq -r '.tool_input.command')\nif echo "$command" | grep -q 'rm -rf'; then\n  jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "Destructive command blocked by hook"}}'\nelse\n  exit 0\nfi`,
    );
    const { deps, decisions } = setup({ pre_tool: [{ command: guard, tools: ["Bash"] }] });
    const denied = await gate(call("shell", { command: "rm -rf /tmp/build" }), 1, deps);
    assert.equal(
      denied.run ? "" : denied.output,
      "Denied by a hook: Destructive command blocked by hook. Do not retry this call unchanged.",
    );
    const verdict = expectDecision(decisions, "call.hook", "hook", "deny");
    assert.equal(verdict.reasons[0]?.rule, 'hook hookSpecificOutput.permissionDecision "deny"');
    assert.equal(verdict.reasons[0]?.detail, "Destructive command blocked by hook");
    assert.equal(verdict.reasons[1]?.rule, "hooks.pre_tool[0]");
  });

  it('"ask" makes an allowed call ask; "allow" and "approve" lift nothing', async () => {
    const { deps, decisions } = setup({
      pre_tool: [
        {
          command: printing({ hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "check" } }),
          tools: ["Bash"],
        },
        {
          command: printing({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }),
          tools: ["Write"],
        },
        { command: printing({ decision: "approve", reason: "docs are fine" }), tools: ["Edit"] },
      ],
    });
    // Allowed by rule; the hook's ask, with nobody to ask, denies it.
    const asked = await gate(call("shell", { command: "ls" }), 1, deps);
    assert.equal(asked.run, false);
    assert.equal(asked.run ? undefined : asked.unapproved, true);
    const ask = expectDecision(decisions, "call.hook", "hook", "ask");
    assert.equal(ask.reasons[0]?.detail, "check");
    // The rules allow edits here, so "allow" passes; it would lift nothing that asked (next test).
    assert.equal((await gate(call("write", { path: "b.txt", content: "x" }, "c2"), 1, deps)).run, true);
    assert.match(pre(decisions)[1]?.reasons[0]?.rule ?? "", /lifts nothing/);
    expectDecision(pre(decisions).slice(1), "call.hook", "hook", "no-objection");
  });

  it("a hook's allow does not turn the rules' ask into a yes", async () => {
    const { deps, decisions } = setup(
      { pre_tool: [{ command: printing({ hookSpecificOutput: { permissionDecision: "allow" } }) }] },
      {},
    );
    const result = await gate(call("write", { path: "c.txt", content: "x" }), 1, deps);
    assert.equal(result.run, false, "edits ask by default, and nobody is there to answer");
    expectDecision(decisions, "call.approval", "code", "deny");
  });

  it('decision "block" denies with its reason; the strictest field wins', async () => {
    const { deps, decisions } = setup({
      pre_tool: [
        { command: printing({ decision: "block", reason: "frozen branch" }), tools: ["Bash"] },
        {
          command: printing({ decision: "approve", hookSpecificOutput: { permissionDecision: "deny" } }),
          tools: ["Write"],
        },
      ],
    });
    const blocked = await gate(call("shell", { command: "ls" }), 1, deps);
    assert.match(blocked.run ? "" : blocked.output, /Denied by a hook: frozen branch/);
    const both = await gate(call("write", { path: "d.txt", content: "x" }, "c2"), 1, deps);
    assert.equal(both.run, false);
    assert.deepEqual(
      pre(decisions).map((d) => [d.answer, d.reasons[0]?.rule]),
      [
        ["deny", 'hook decision "block"'],
        ["deny", 'hook hookSpecificOutput.permissionDecision "deny"'],
      ],
    );
  });

  it('"continue": false stops: the call does not run and the turn ends, with its stopReason', async () => {
    const { deps, decisions } = setup({
      pre_tool: [{ command: printing({ continue: false, stopReason: "out of budget" }), tools: ["Bash"] }],
    });
    const stopped = await gate(call("shell", { command: "ls" }), 1, deps);
    assert.equal(stopped.run, false);
    if (stopped.run) return;
    assert.equal(stopped.stopTurn, true);
    assert.equal(stopped.stopMessage, "stopped by a hook (hooks.pre_tool[0]): out of budget");
    const verdict = expectDecision(decisions, "call.hook", "hook", "stop");
    assert.match(verdict.reasons[0]?.detail ?? "", /out of budget; the call does not run and the turn stops/);
  });

  it("updatedInput denies: bosun never runs a call a hook rewrote", async () => {
    const { deps, decisions } = setup({
      pre_tool: [
        {
          command: printing({
            hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "rm -rf ~" } },
          }),
        },
      ],
    });
    const result = await gate(call("shell", { command: "ls" }), 1, deps);
    assert.equal(result.run, false);
    assert.match(result.run ? "" : result.output, /does not run a call a hook rewrote/);
    expectDecision(decisions, "call.hook", "hook", "deny");
  });

  it("JSON in no shape bosun knows is a failed hook: denied by default, allowed only by its on_error", async () => {
    const shapes: Array<[unknown, RegExp]> = [
      [{ permission: "deny" }, /unknown key "permission"/],
      [
        { hookSpecificOutput: { permissionDecision: "block" } },
        /unknown hookSpecificOutput.permissionDecision "block"/,
      ],
      [{ hookSpecificOutput: { permissionDecision: true } }, /permissionDecision must be a string/],
      [{ hookSpecificOutput: "deny" }, /hookSpecificOutput must be an object/],
      [{ hookSpecificOutput: { hookEventName: "PostToolUse" } }, /but this is a PreToolUse hook/],
      [{ hookSpecificOutput: { permisionDecision: "deny" } }, /unknown key "hookSpecificOutput.permisionDecision"/],
      [{ continue: "no" }, /continue must be true or false/],
      [{ decision: "maybe" }, /unknown decision "maybe"/],
      [{ context: "x" }, /a pre_tool hook adds no context/],
      [["deny"], /JSON but not an object/],
      ['checking…\n{"decision":"deny"}', /mixes text and a JSON object/],
    ];
    for (const [index, [json, why]] of shapes.entries()) {
      const { deps, decisions } = setup({ pre_tool: [{ command: printing(json), tools: ["Bash"] }] });
      const result = await gate(call("shell", { command: "ls" }), 1, deps);
      assert.equal(result.run, false, `shape ${index} must not pass`);
      const verdict = expectDecision(decisions, "call.hook", "code", "deny");
      assert.match(verdict.reasons[0]?.detail ?? "", why);
    }
    const lenient = setup({
      pre_tool: [{ command: printing({ permission: "deny" }), on_error: "allow" }],
    });
    assert.equal((await gate(call("shell", { command: "ls" }), 1, lenient.deps)).run, true);
    expectDecision(lenient.decisions, "call.hook", "config", "no-objection");
  });

  it("plain text, {} and an empty hookSpecificOutput are no objection; systemMessage is kept on record", async () => {
    const { deps, decisions } = setup({
      pre_tool: [
        { command: script("cat >/dev/null; echo checked"), tools: ["Bash"] },
        { command: printing({}), tools: ["Bash"] },
        {
          command: printing({
            suppressOutput: true,
            systemMessage: "remember the freeze",
            hookSpecificOutput: { hookEventName: "PreToolUse" },
          }),
          tools: ["Bash"],
        },
      ],
    });
    assert.equal((await gate(call("shell", { command: "ls" }), 1, deps)).run, true);
    assert.deepEqual(
      pre(decisions).map((d) => d.answer),
      ["no-objection", "no-objection", "no-objection"],
    );
    assert.ok(pre(decisions)[2]?.reasons.some((r) => r.detail === "remember the freeze"));
  });

  it("post_tool: additionalContext and a block's reason reach the model; continue: false stops the turn", async () => {
    const { deps, decisions } = setup({
      post_tool: [
        { command: printing({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: ok" } }) },
        { command: printing({ decision: "block", reason: "the file has a secret in it" }) },
        { command: printing({ continue: false, stopReason: "done for today" }) },
      ],
    });
    const c = call("read", { path: "a.txt" });
    const gated = await gate(c, 1, deps);
    assert.ok(gated.run);
    const result = await afterCall(c, 1, { output: "1\told", summary: "read" }, gated.description, deps);
    assert.equal(
      result.output,
      "1\told\n\n[hook hooks.post_tool[0]] lint: ok\n[hook hooks.post_tool[1]] the file has a secret in it",
    );
    assert.equal(result.stopTurn, "stopped by a hook (hooks.post_tool[2]): done for today");
    assert.deepEqual(
      pre(decisions).map((d) => [d.holder, d.answer]),
      [
        ["hook", "context"],
        ["hook", "context"],
        ["hook", "stop"],
      ],
    );
    expectDecision(decisions, "call.hook", "hook", "stop");
  });

  it("post_tool: JSON in no shape bosun knows adds nothing and is recorded as failed", async () => {
    const { deps, decisions } = setup({
      post_tool: [
        { command: printing({ hookSpecificOutput: { permissionDecision: "deny" } }) },
        { command: printing({ decision: "approve" }) },
      ],
    });
    const c = call("read", { path: "a.txt" });
    const gated = await gate(c, 1, deps);
    assert.ok(gated.run);
    const result = await afterCall(c, 1, { output: "1\told", summary: "read" }, gated.description, deps);
    assert.equal(result.output, "1\told");
    assert.deepEqual(
      pre(decisions).map((d) => d.answer),
      ["failed", "failed"],
    );
    expectDecision(decisions, "call.hook", "code", "failed");
    assert.match(pre(decisions)[0]?.reasons[0]?.detail ?? "", /for a post_tool hook/);
  });
});
