import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decideAgent } from "../agents/select.js";
import { loadConfig } from "../config/load.js";
import type { ModeName } from "../contracts/modes.js";
import type { Tool } from "../contracts/tools.js";
import { buildAuthority } from "../permission/rules/layers.js";
import { ruleFromSpec } from "../permission/rules/rules.js";
import { builtinTools } from "../tools/registry.js";
import { chooseEditTool } from "./edit-tool.js";
import { decideToolsOffered } from "./tools-offered.js";

describe("decideToolsOffered (context.tools)", () => {
  let root: string;
  let ws: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-offered-")));
    ws = join(root, "ws");
    mkdirSync(join(ws, ".git"), { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const mcp = (name: string, readOnly: boolean): Tool => ({
    ...(builtinTools()[0] as Tool),
    name: `mcp__notes__${name}`,
    kind: "mcp",
    mcp: { resource: `notes/${name}`, readOnly },
  });
  const tools = [...builtinTools(), mcp("search", true), mcp("delete", false)];

  function offered(
    permission: unknown,
    options: { agent?: string; mode?: ModeName; runs?: boolean; editTool?: ReturnType<typeof chooseEditTool> } = {},
  ) {
    writeFileSync(join(ws, "bosun.json"), JSON.stringify({ permission }, null, 2));
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    const authority = buildAuthority({
      config,
      agent: decideAgent(options.agent, config).agent,
      mode: { name: options.mode ?? "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
    return (policy = [] as ReturnType<typeof ruleFromSpec>[]) =>
      decideToolsOffered({
        tools,
        authority,
        policy,
        modeRunsTools: options.runs ?? true,
        modelTakesTools: true,
        ...(options.editTool ? { editTool: options.editTool } : {}),
      });
  }
  const names = (result: ReturnType<ReturnType<typeof offered>>) => result.offered.map((t) => t.name);

  it("offers every tool when nothing denies one outright (code), but websearch with no backend configured", () => {
    const result = offered({})();
    assert.equal(result.offered.length, tools.length - 1);
    assert.ok(names(result).includes("webfetch"));
    assert.ok(!names(result).includes("websearch"));
    assert.equal(result.decision.holder, "code");
    assert.equal(result.decision.seat, "context.tools");
    const why = result.decision.reasons.find((r) => r.detail?.startsWith("websearch:"));
    assert.equal(why?.detail, "websearch: no search backend is configured (config web.search)");
  });

  it("websearch is offered once a backend is configured; a web deny hides both web tools", () => {
    writeFileSync(join(ws, "bosun.json"), "{}");
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    const authority = buildAuthority({
      config,
      agent: decideAgent(undefined, config).agent,
      mode: { name: "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
    const configured = builtinTools({ provider: "brave", api_key: "k" });
    const all = decideToolsOffered({
      tools: configured,
      authority,
      policy: [],
      modeRunsTools: true,
      modelTakesTools: true,
    });
    assert.ok(all.offered.some((t) => t.name === "websearch"));
    const denied = offered({ web: "deny" })();
    assert.ok(!names(denied).includes("webfetch"));
    assert.match(denied.decision.reasons.map((r) => r.detail).join("\n"), /webfetch: every web request is denied/);
  });

  it("hides a tool whose action is denied with nothing after it, naming the rule (config)", () => {
    const result = offered({ edit: "deny", shell: { "*": "deny", "git status *": "allow" } })();
    assert.deepEqual(names(result), [
      "read",
      "list",
      "glob",
      "grep",
      "shell",
      "shell_output",
      "shell_kill",
      "todo",
      "webfetch",
      "mcp__notes__search",
      "mcp__notes__delete",
    ]);
    assert.equal(result.decision.holder, "config");
    const write = result.decision.reasons.find((r) => r.detail === "write: every edit request is denied");
    assert.match(write?.source ?? "", /bosun\.json$/);
    assert.equal(write?.key, "permission.edit");
  });

  it("the provider's own websearch is sent only to a model that has one, and only when web:search is allowed outright", () => {
    const native = builtinTools({ provider: "native" });
    const decide = (permission: unknown, nativeSearch?: "anthropic" | "openai") => {
      // The user's own rules: a repository's allow would not count until trusted.
      writeFileSync(join(ws, "bosun.json"), "{}");
      mkdirSync(join(root, "home"), { recursive: true });
      writeFileSync(join(root, "home", "bosun.json"), JSON.stringify({ permission }));
      const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
      const authority = buildAuthority({
        config,
        agent: decideAgent(undefined, config).agent,
        mode: { name: "approve", holder: "code" },
        cwd: ws,
        workspace: ws,
        home: join(root, "home"),
      });
      const input = { tools: native, authority, policy: [], modeRunsTools: true, modelTakesTools: true };
      return decideToolsOffered({ ...input, ...(nativeSearch ? { nativeSearch } : {}) });
    };
    const has = (result: ReturnType<typeof decide>) => result.offered.some((t) => t.name === "websearch");
    const why = (result: ReturnType<typeof decide>) =>
      result.decision.reasons.find((r) => r.detail?.startsWith("websearch:"))?.detail ?? "";
    assert.equal(has(decide({ web: { search: "allow" } }, "anthropic")), true);
    assert.equal(has(decide({ web: { search: "allow" } }, "openai")), true);
    const asks = decide({}, "anthropic");
    assert.equal(has(asks), false);
    assert.match(why(asks), /web:search is not allowed outright \(it asks\), and the provider runs each search/);
    const elsewhere = decide({ web: { search: "allow" } });
    assert.equal(has(elsewhere), false);
    assert.match(why(elsewhere), /the model's provider runs no web search bosun can send/);
    assert.match(why(decide({ web: { search: "deny" } }, "anthropic")), /web:search is denied/);
    rmSync(join(root, "home", "bosun.json"));
  });

  it("hides an MCP tool denied by its own name, not one a later rule reopens", () => {
    assert.deepEqual(
      names(offered({ mcp: { "notes/delete": "deny" } })()).filter((n) => n.startsWith("mcp")),
      ["mcp__notes__search"],
    );
    assert.deepEqual(
      names(offered({ mcp: { "*": "deny", "notes/search": "ask" } })()).filter((n) => n.startsWith("mcp")),
      ["mcp__notes__search"],
    );
  });

  it("a read-only agent is not offered edits or unannotated MCP tools (code)", () => {
    const result = offered({}, { agent: "plan" })();
    // webfetch changes no file: a read-only agent has it, each call judged as web:<host>.
    assert.deepEqual(names(result), [
      "read",
      "list",
      "glob",
      "grep",
      "shell",
      "shell_output",
      "shell_kill",
      "todo",
      "webfetch",
      "mcp__notes__search",
    ]);
    assert.equal(result.decision.holder, "code");
  });

  it("a policy deny hides the tool (policy); chat mode offers none", () => {
    const policy = [ruleFromSpec("shell", "deny", { layer: "policy", file: "/etc/bosun/policy.json" })];
    const result = offered({ shell: { "*": "allow" } })(policy);
    assert.ok(!names(result).includes("shell"));
    assert.equal(result.decision.holder, "policy");
    const chat = offered({}, { mode: "chat", runs: false })();
    assert.deepEqual(chat.offered, []);
    assert.deepEqual(chat.decision.answer, []);
  });

  const model = (modelId: string, edit_tool?: "edit" | "apply_patch") => ({
    modelId,
    info: edit_tool ? { edit_tool } : {},
    provider: { name: "p" },
  });

  it("offers apply_patch instead of edit to an OpenAI gpt-*/o*/codex model, edit to the rest, and says why", () => {
    const gpt = offered({}, { editTool: chooseEditTool(model("gpt-5")) })();
    assert.ok(names(gpt).includes("apply_patch") && !names(gpt).includes("edit"));
    assert.ok(names(gpt).includes("write"), "write stays");
    assert.equal(gpt.decision.holder, "code");
    assert.deepEqual(gpt.decision.reasons.slice(1), [
      {
        rule: "edit tool",
        detail:
          "apply_patch, not edit: gpt-5 is one of OpenAI's gpt-*, o* or codex models, trained on apply_patch's format (provider.p.models.<id>.edit_tool chooses)",
      },
      { rule: "not offered", detail: "edit: apply_patch is offered instead" },
      { rule: "not offered", detail: "websearch: no search backend is configured (config web.search)" },
    ]);
    for (const id of ["o3", "o4-mini", "openai/gpt-4.1", "codex-mini-latest"]) {
      assert.equal(chooseEditTool(model(id)).tool, "apply_patch", id);
    }
    const claude = offered({}, { editTool: chooseEditTool(model("claude-sonnet-4-5")) })();
    assert.ok(names(claude).includes("edit") && !names(claude).includes("apply_patch"));
    assert.match(claude.decision.reasons[1]?.detail ?? "", /^edit, not apply_patch: claude-sonnet-4-5 is not one of/);
  });

  it("a model's edit_tool config decides (config), naming the key", () => {
    const chosen = chooseEditTool(model("qwen3-coder", "apply_patch"));
    assert.deepEqual(chosen.reason.key, "provider.p.models.qwen3-coder.edit_tool");
    const result = offered({}, { editTool: chosen })();
    assert.ok(names(result).includes("apply_patch") && !names(result).includes("edit"));
    assert.equal(result.decision.holder, "config");
  });

  it("with only one of the two there (an agent narrowed its tools), that one is offered whatever the choice", () => {
    const narrowed = tools.filter((t) => t.name !== "apply_patch");
    const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
    const authority = buildAuthority({
      config,
      agent: decideAgent(undefined, config).agent,
      mode: { name: "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    });
    const result = decideToolsOffered({
      tools: narrowed,
      authority,
      policy: [],
      modeRunsTools: true,
      modelTakesTools: true,
      editTool: chooseEditTool(model("gpt-5")),
    });
    assert.ok(result.offered.some((t) => t.name === "edit"));
  });
});
