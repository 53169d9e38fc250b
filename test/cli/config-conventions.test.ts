import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";

describe("bosun config --origin: other agents' files", () => {
  it("lists .mcp.json's stdio and http servers by file and line, what it left out, the commands found in .claude and .opencode, and CLAUDE.md's @imports", async () => {
    const s = await startScenario({ rules: [] });
    try {
      s.ws.write(
        ".mcp.json",
        `${JSON.stringify({ mcpServers: { notes: { command: "node", args: ["n.mjs"] }, web: { type: "http", url: "https://x.test/mcp" }, bad: { command: "b", cwd: "x" } } }, null, 2)}\n`,
      );
      s.ws.write(".claude/commands/x/y.md", "---\nallowed-tools: Bash(rm:*)\n---\nDo y\n");
      s.ws.write(".opencode/command/z.md", "Do z\n");
      s.ws.write(".bosun/commands/z.md", "bosun's z\n");
      s.ws.write("CLAUDE.md", "Rules. @docs/style.md @.env\n");
      s.ws.write("docs/style.md", "Style.\n");
      s.ws.write(".env", "SECRET=1\n");
      const result = await s.run(["config", "--origin"]);
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.trimEnd().split("\n");
      const mcpJson = join(s.ws.dir, ".mcp.json");
      assert.ok(lines.includes(`project\t${mcpJson}:4\tmcp.notes.command=node`), lines.join("\n"));
      assert.ok(lines.includes(`project\t${mcpJson}\tmcp.notes (a repository's command: seat project.command)`));
      assert.ok(lines.includes(`project\t${mcpJson}:11\tmcp.web.url=https://x.test/mcp`), lines.join("\n"));
      assert.ok(lines.some((l) => l.startsWith(`project\t${mcpJson}\tmcp.web (a remote server at https://x.test/mcp`)));
      assert.ok(lines.includes(`project\t${mcpJson}\tleft out mcpServers.bad.cwd: not a key bosun reads`));
      const claude = join(s.ws.dir, ".claude/commands/x/y.md");
      assert.ok(lines.includes(`project\t${claude}\tcommand /x:y`));
      assert.ok(lines.some((l) => l.startsWith(`project\t${claude}\tcommand /x:y ignores allowed-tools: `)));
      assert.ok(
        lines.includes(
          `project\t${join(s.ws.dir, ".opencode/command/z.md")}\tcommand /z: shadowed by .bosun/commands/z.md`,
        ),
      );
      const claudeMd = join(s.ws.dir, "CLAUDE.md");
      assert.ok(lines.includes(`project\t${claudeMd}\tinstructions (project)`), lines.join("\n"));
      assert.ok(
        lines.includes(`project\t${join(s.ws.dir, "docs/style.md")}\tinstructions (import imported by ${claudeMd})`),
      );
      assert.ok(
        lines.some((l) =>
          l.startsWith(`project\t${join(s.ws.dir, ".env")}\tnot read: @.env imported by ${claudeMd}: `),
        ),
      );
      assert.ok(!result.stdout.includes("SECRET=1"));
    } finally {
      await s.close();
    }
  });
});
