import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";

/** /init and `bosun init`: a prompt; AGENTS.md is written by the edit tools, through their approvals. */

const writeAgents = {
  toolCalls: [{ id: "w1", name: "write", arguments: { path: "AGENTS.md", content: "# Agents\n\nnpm test\n" } }],
};

describe("bosun init", () => {
  it("asks the model to write AGENTS.md; the write needs approval (refused with nobody to ask, done with --auto)", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: writeAgents },
        { match: { request: 2 }, reply: { text: "Could not write it." } },
        { match: { request: 3 }, reply: writeAgents },
        { match: { request: 4 }, reply: { text: "Wrote AGENTS.md." } },
      ],
    });
    try {
      const refused = await s.run(["init"]);
      assert.equal(refused.code, 3, refused.stderr);
      assert.equal(existsSync(join(s.ws.dir, "AGENTS.md")), false);
      const prompt =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(prompt, /Create AGENTS\.md at the repository root/);
      const approved = await s.run(["init", "--auto"]);
      assert.equal(approved.code, 0, approved.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "AGENTS.md"), "utf8"), "# Agents\n\nnpm test\n");
    } finally {
      await s.close();
    }
  });

  it("when AGENTS.md exists, the prompt says to update it", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Nothing to change." } }] });
    try {
      s.ws.write("AGENTS.md", "# old\n");
      const result = await s.run(["init"]);
      assert.equal(result.code, 0, result.stderr);
      const prompt =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(prompt, /Update AGENTS\.md at the repository root: read it first/);
    } finally {
      await s.close();
    }
  });
});
