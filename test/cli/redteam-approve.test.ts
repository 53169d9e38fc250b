import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import {
  assertDiskUnchanged,
  assertRan,
  assertRefused,
  type Batch,
  type Control,
  runBatch,
  verdictOf,
} from "../support/redteam.js";
import { AFTER_ALWAYS, WRITES_OUTSIDE } from "../support/redteam-attacks.js";
import { describeRedTeam } from "../support/redteam-suite.js";

/**
 * Red team, approve mode (the default; no --auto, stdin not a terminal, so nobody can approve):
 * every attack asks (or is denied) and every ask is denied by code, so none starts and the files
 * on disk stay as they were. The attacks are listed in test/support/redteam-attacks.ts.
 */
describe("red team: approve mode with nobody to approve runs nothing that changes or leaves", {
  concurrency: true,
}, () => {
  describeRedTeam("approve");

  /**
   * A person once answered "always" to `git status` in this workspace: the saved rule covers
   * that one simple command, never a line that adds other commands to it. The whole line asks
   * (so nothing of it runs: a call runs whole or not at all) and is denied.
   */
  describe('approve: an earlier "always" covers only its own command', () => {
    const saved = [{ action: "shell" as const, pattern: "git status *" }];
    const controls: Control[] = [
      { id: "ok-status", tool: "shell", args: { command: "git status" }, holder: "person", output: /On branch/ },
    ];
    let batch: Batch;
    before(async () => {
      batch = await runBatch("approve", AFTER_ALWAYS, controls, { saved });
    });

    it("runs a bare `git status`, allowed by the person's saved rule", () => {
      assertRan(batch, controls[0] as Control);
      const allowed = expectDecision(
        batch.decisions.filter((d) => d.subject?.call === "ok-status"),
        "call.permission",
        "person",
        "allow",
      );
      const decisive = allowed.reasons.find((r) => r.decisive);
      assert.equal(decisive?.source, "saved approvals", JSON.stringify(allowed.reasons));
      assert.match(decisive?.key ?? "", /shell:git status \*$/);
    });

    for (const attack of AFTER_ALWAYS) {
      it(`${attack.id}: git status ${attack.what}`, () => {
        assertRefused(batch, attack);
        // The rule asking is the built-in one for the added command, not the saved approval.
        assert.equal(verdictOf(batch, attack.id).permission?.answer, "ask");
      });
    }

    it("exits 3", () => assert.equal(batch.result.code, 3, batch.result.stderr));
    it("leaves every watched file as it was", () => assertDiskUnchanged(batch));
  });

  /**
   * The person allowed edits (`permission.edit: allow` in their own config), as many will: edits in
   * the workspace now run, but a write that lands outside it must still ask for
   * `external_directory` — and, nobody being there, be denied.
   */
  describe("approve with edits allowed: writes outside still ask", () => {
    const config = { permission: { edit: "allow" } };
    const controls: Control[] = [
      { id: "ok-edit", tool: "write", args: { path: "ok.txt", content: "ok\n" }, holder: "config", output: /Created/ },
    ];
    let batch: Batch;
    before(async () => {
      batch = await runBatch("approve", WRITES_OUTSIDE, controls, { config });
    });

    it("runs an edit in the workspace (allowed by the config rule)", () => assertRan(batch, controls[0] as Control));

    for (const attack of WRITES_OUTSIDE) {
      it(`${attack.id}: ${attack.what}`, () => {
        assertRefused(batch, attack);
        const reasons = verdictOf(batch, attack.id).permission?.reasons ?? [];
        assert.ok(
          reasons.some((r) => r.rule.startsWith("external_directory:") && r.detail?.startsWith("ask")),
          `${attack.id}: no external_directory request asked; the ledger says ${JSON.stringify(reasons)}`,
        );
      });
    }

    it("exits 3", () => assert.equal(batch.result.code, 3, batch.result.stderr));
    it("leaves every watched file as it was, but the control's", () => assertDiskUnchanged(batch, ["ok.txt"]));
  });
});
