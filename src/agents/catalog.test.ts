import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadConfig } from "../config/load.js";
import { agentCatalog, anyAgentFiles } from "./catalog.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-agent-catalog-"));
  mkdirSync(join(root, "repo", ".git"), { recursive: true });
  mkdirSync(join(root, "home"), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
const load = () => loadConfig({ cwd: join(root, "repo"), env: { BOSUN_HOME: join(root, "home") } });

describe("agentCatalog (seat agent.catalog)", () => {
  it("only the built-ins: code holds it, and no agent file means nothing to record", () => {
    const { agents, decision } = agentCatalog(load());
    assert.equal(decision.holder, "code");
    assert.deepEqual(decision.answer, ["build", "plan"]);
    assert.deepEqual(
      agents.map((a) => [a.name, a.source, a.readOnly]),
      [
        ["build", "built-in", false],
        ["plan", "built-in", true],
      ],
    );
    assert.equal(anyAgentFiles(load()), false);
  });

  it("config and files: config holds it; sources, overrides across scopes, unknown tools are reasons", () => {
    write("repo/bosun.json", JSON.stringify({ agent: { deploy: { description: "Deploys", model: "a/b" } } }));
    write("home/agents/reviewer.md", "---\nread_only: true\n---\nGlobal.\n");
    write("repo/.bosun/agents/reviewer.md", "---\ntools: [read, mcp__github__*, re*, Fetch]\n---\nProject.\n");
    const config = load();
    const { agents, decision } = agentCatalog(config);
    assert.equal(decision.holder, "config");
    assert.deepEqual(decision.answer, ["build", "plan", "reviewer", "deploy"]);
    const reviewer = agents.find((a) => a.name === "reviewer");
    assert.deepEqual(reviewer, {
      name: "reviewer",
      source: join(root, "repo/.bosun/agents/reviewer.md"),
      readOnly: true,
      tools: ["read", "mcp__github__*", "re*", "Fetch"],
    });
    assert.equal(agents.find((a) => a.name === "deploy")?.source, join(root, "repo/bosun.json"));
    const rules = decision.reasons.map((r) => `${r.rule}: ${r.detail}`);
    assert.ok(
      rules.some((r) =>
        /^overrides: reviewer: .*repo\/.bosun\/agents\/reviewer.md overrides .*home\/agents\/reviewer.md/.test(r),
      ),
    );
    assert.ok(
      rules.includes(
        "unknown tools: reviewer: Fetch — no tool of bosun's has that name (an MCP server's may, once it starts; else it matches nothing)",
      ),
    );
    assert.equal(anyAgentFiles(config), true);
  });
});
