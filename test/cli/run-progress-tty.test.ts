import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { spawnPty } from "../support/pty.js";
import { startScenario } from "../support/scenario.js";
import { BOSUN_BIN } from "../support/workspace.js";

/**
 * A running call's progress in plain-text `bosun run` at a real terminal (a pseudo-terminal):
 * one line on stderr, drawn over in place as the reports come (the real server-everything
 * reports each step), wiped before the call's result line — never a line per report.
 */

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const LONG = "mcp__everything__trigger-long-running-operation";
const WIPE = "\r\x1b[2K";

describe("progress in plain-text bosun run (pty)", () => {
  it("is one line drawn over in place, wiped before the result", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [{ id: "long", name: LONG, arguments: { duration: 2, steps: 4 } }] },
          },
          { reply: { text: "Waited." } },
        ],
      },
      { global: { mcp: { everything: { command: process.execPath, args: [EVERYTHING] } } } },
    );
    const p = spawnPty(process.execPath, [BOSUN_BIN, "run", "wait please"], {
      cwd: s.ws.dir,
      env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
      cols: 200,
    });
    try {
      await p.waitForText(/Waited\./, 30_000);
      assert.equal(await p.exit(10_000), 0, p.text());
      const raw = p.raw();
      const drawn = raw.split(WIPE).filter((part) => part.includes(`  … ${LONG} `));
      // Reports 1/4 to 4/4 (each a redraw over the last), never each on a line of its own.
      assert.ok(drawn.length >= 2, JSON.stringify(raw));
      assert.ok(raw.includes(`  … ${LONG} 1/4`), JSON.stringify(raw));
      assert.doesNotMatch(raw, new RegExp(`  … ${LONG} [^\\r]*\\r?\\n`), "no progress line ends in a newline");
      // Wiped, then the result on a clean line.
      const result = raw.indexOf("✓");
      assert.ok(
        result > 0 && raw.lastIndexOf(WIPE, result) > raw.lastIndexOf(`  … ${LONG}`, result),
        JSON.stringify(raw),
      );
    } finally {
      p.kill();
      await s.close();
    }
  });
});
