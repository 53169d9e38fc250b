import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EVENT_SCHEMAS, eventProblem } from "../../src/session/schemas.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

/**
 * The typed journal stays true: every event a real run stores — reads, a shell command, an edit,
 * a denied write, a title, a compaction — has a schema, and passes it. A new event type, or a
 * changed shape, fails here before an export of it fails to import. And a real session's export
 * imports back exactly.
 */

const SUMMARY = [
  "## Goal",
  "Fix add() in math.js.",
  "## Decisions",
  "Fix the code.",
  "## State of work",
  "add() fixed.",
  "## Next step",
  "Nothing.",
  "## Relevant files",
  "- math.js",
].join("\n");

describe("the typed journal (session/schemas.ts)", () => {
  it("every event of a real session passes its type's schema, and its export round-trips", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { system: "title of a coding session" }, reply: { text: "Fixing add" } },
          { match: { system: "## Relevant files" }, reply: { text: SUMMARY } },
          {
            match: { lastMessage: "fix add" },
            reply: {
              toolCalls: [
                { id: "c1", name: "read", arguments: { path: "math.js" } },
                { id: "c2", name: "shell", arguments: { command: "echo hi > out.txt" } },
              ],
            },
          },
          {
            match: { lastMessage: "tool_result c2" },
            reply: {
              toolCalls: [
                { id: "c3", name: "edit", arguments: { path: "math.js", old_string: "a - b", new_string: "a + b" } },
              ],
            },
          },
          { match: { lastMessage: "tool_result c3" }, reply: { text: "Fixed add()." } },
          {
            match: { lastMessage: "now write" },
            reply: { toolCalls: [{ id: "c4", name: "write", arguments: { path: "new.txt", content: "x\n" } }] },
          },
          { match: { lastMessage: "tool_result c4" }, reply: { text: "I was not allowed to." } },
          { match: { lastMessage: "last" }, reply: { text: "Done." } },
        ],
      },
      { global: { small_model: "scripted/tiny" } },
    );
    try {
      s.ws.write("math.js", "export function add(a, b) {\n  return a - b;\n}\n");
      const first = await s.run(["run", "--auto", "fix add"]);
      assert.equal(first.code, 0, first.stderr);
      assert.match(readFileSync(join(s.ws.dir, "math.js"), "utf8"), /a \+ b/);
      // No --auto and nobody to ask: the write is denied (exit 3).
      const denied = await s.run(["run", "-c", "now write"]);
      assert.equal(denied.code, 3, denied.stderr);
      assert.equal(existsSync(join(s.ws.dir, "new.txt")), false);
      const { id } = s.latest();
      const compacted = await s.run(["compact", id]);
      assert.equal(compacted.code, 0, compacted.stderr);
      assert.equal((await s.run(["run", "-c", "last"])).code, 0);
      const undone = await s.run(["undo", id]);
      assert.equal(undone.code, 0, undone.stderr);

      const { events, decisions } = s.latest();
      const problems = events
        .map((e, i) => [i + 1, e.type, eventProblem(e.type, e.data)] as const)
        .filter(([, , problem]) => problem !== undefined);
      assert.deepEqual(problems, [], "every stored event passes its schema");
      // The run really stored what the schemas describe (a schema no run exercises proves nothing).
      const seen = new Set(events.map((e) => e.type));
      const expected = Object.keys(EVENT_SCHEMAS).filter(
        // turn.restored: only the interactive session's /redo writes it (test/cli/tui-undo.test.ts).
        (type) => type !== "call.interrupted" && type !== "call.cancelled" && type !== "turn.restored",
      );
      assert.deepEqual(
        expected.filter((type) => !seen.has(type)),
        [],
        "types of the run",
      );
      expectDecision(decisions, "compaction.summary", "model");

      // A real session's export imports back, byte for byte, into another home.
      const exported = await s.run(["sessions", "export", id]);
      assert.equal(exported.code, 0, exported.stderr);
      const deleted = await s.run(["sessions", "delete", id, "--yes"]);
      assert.equal(deleted.code, 0, deleted.stderr);
      const imported = await s.run(["sessions", "import", "-"], { input: exported.stdout });
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, new RegExp(`^imported ${id} \\(Fixing add\\)`));
      assert.equal((await s.run(["sessions", "export", id])).stdout, exported.stdout);
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      try {
        assert.equal(store.events(id).length, events.length);
      } finally {
        store.close();
      }
    } finally {
      await s.close();
    }
  });
});
