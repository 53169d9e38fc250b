import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { savedRules } from "../permission/rules/saved.js";
import { listApprovals, revokeApprovals, saveApprovals } from "./saved-approvals.js";
import { SessionStore } from "./session-store.js";

describe("saved approvals", () => {
  const dir = mkdtempSync(join(tmpdir(), "bosun-saved-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("saves per project, keeps a pattern once, and gives them back as rules of the saved layer", () => {
    const store = SessionStore.open(join(dir, "a.db"));
    try {
      const saved = saveApprovals(
        store,
        "/p",
        [{ action: "shell", pattern: "git status *" }],
        { tool: "shell", sessionId: "S1" },
        1000,
      );
      assert.deepEqual(
        saved.map((a) => [a.project, a.action, a.pattern, a.tool, a.sessionId, a.created]),
        [["/p", "shell", "git status *", "shell", "S1", 1000]],
      );
      const again = saveApprovals(
        store,
        "/p",
        [
          { action: "shell", pattern: "git status *" },
          { action: "edit", pattern: "/p/a.ts" },
        ],
        {},
        2000,
      );
      assert.equal(again[0]?.id, saved[0]?.id, "an existing pattern is kept as it was");
      assert.equal(again[0]?.created, 1000);
      saveApprovals(store, "/q", [{ action: "shell", pattern: "ls *" }], {});
      assert.deepEqual(
        listApprovals(store, "/p").map((a) => a.pattern),
        ["git status *", "/p/a.ts"],
      );
      assert.equal(listApprovals(store).length, 3);
      assert.deepEqual(savedRules(store, "/p")[0], {
        action: "shell",
        pattern: "git status *",
        effect: "allow",
        source: { layer: "saved", file: "saved approvals", key: `#${saved[0]?.id} shell:git status *` },
      });
    } finally {
      store.close();
    }
  });

  it("revokes by id, reports what existed, and survives a reopen", () => {
    const path = join(dir, "b.db");
    const store = SessionStore.open(path);
    const [first, second] = saveApprovals(
      store,
      "/p",
      [
        { action: "shell", pattern: "a *" },
        { action: "shell", pattern: "b *" },
      ],
      {},
    );
    assert.deepEqual(
      revokeApprovals(store, [first?.id ?? 0, 999]).map((a) => a.pattern),
      ["a *"],
    );
    store.close();
    const reopened = SessionStore.open(path);
    try {
      assert.deepEqual(
        listApprovals(reopened, "/p").map((a) => a.id),
        [second?.id],
      );
    } finally {
      reopened.close();
    }
  });
});
