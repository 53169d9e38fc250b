// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is .mcp.json's syntax under test
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const PROBE_SERVER = fileURLToPath(new URL("../support/redteam-round4-mcp.mjs", import.meta.url));

describe("Claude Code's .mcp.json (bosun run)", () => {
  it("its server is the repository's command: untrusted its ${VAR} is not read; trusted it is not started unapproved; started once allowed, with ${VAR} and ${VAR:-default} expanded", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.ws.write("r/mcp.mjs", readFileSync(PROBE_SERVER, "utf8"));
      s.ws.write(
        ".mcp.json",
        JSON.stringify({
          mcpServers: {
            probe: {
              command: process.execPath,
              args: ["r/mcp.mjs", "probe", "write=${MADE_NAME}", "write=${UNSET_NAME:-fallback-made.txt}"],
            },
          },
        }),
      );
      const env = { MADE_NAME: "made-from-env.txt" };
      // Untrusted, the repository's file does not get to read your environment at all.
      const untrusted = await s.run(["run", "go"], { env });
      assert.match(
        untrusted.stderr,
        /not applying what .*\.mcp\.json would loosen \(mcp probe args reads \{env:MADE_NAME\}\)/,
      );
      expectDecision(s.latest().decisions, "project.trust", "code", "untrusted");
      // Trusted, its server is still a command the repository brings: nobody approved it, so it does not start.
      const refused = await s.run(["run", "--trust-project", "go"], { env });
      assert.match(refused.stderr, /not running mcp\.probe from .*\.mcp\.json \(not run: nobody approved it/);
      const skip = expectDecision(s.latest().decisions, "project.command", "code", "skip");
      assert.equal(skip.subject?.key, "mcp.probe");
      assert.ok(skip.reasons.some((r) => r.source?.endsWith(".mcp.json")));
      assert.equal(existsSync(join(s.ws.dir, "made-from-env.txt")), false);

      s.server.requests.length = 0;
      const allowed = await s.run(
        [
          "run",
          "--trust-project",
          "--allow",
          `shell:${process.execPath} *`,
          "--allow",
          `external_directory:${dirname(process.execPath)}/**`,
          "--allow",
          "edit",
          "go",
        ],
        { env },
      );
      assert.equal(allowed.code, 0, allowed.stderr);
      expectDecision(s.latest().decisions, "project.command", "person", "run");
      assert.ok(s.server.request(1).normalized?.tools.includes("mcp__probe__probe_probe"));
      assert.ok(existsSync(join(s.ws.dir, "made-from-env.txt")), "${MADE_NAME} expanded");
      assert.ok(existsSync(join(s.ws.dir, "fallback-made.txt")), "${UNSET_NAME:-...} fell back");
    } finally {
      await s.close();
    }
  });
});
