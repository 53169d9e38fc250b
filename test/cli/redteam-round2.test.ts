import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { assertDiskUnchanged, assertRan, type Batch, type Control, type Mode, runBatch } from "../support/redteam.js";
import { CONTROLS } from "../support/redteam-attacks.js";
import {
  assertRefusedRound2,
  assertTookEffectRound2,
  EDIT_CONTROLS,
  EDITS_ESCAPE,
  ROUND2_BATCHES,
  type Round2Attack,
  WITHHELD_NAME,
  WITHHELD_VALUE,
} from "../support/redteam-round2.js";

/**
 * Red team, round 2 (the attacks are in test/support/redteam-round2.ts): each batch is one
 * `bosun run` in plan mode (`--agent plan`) and in approve mode with nobody to approve, where
 * every attack must be refused and show no effect; then with `--auto`, the calibration, where
 * each must take effect — so the other runs pass because bosun refused the attacks, not because
 * they were harmless.
 *
 * bosun's own environment gets a variable it withholds from the tools, standing in for its
 * provider keys: a tool must never show it to the model.
 */
process.env[WITHHELD_NAME] = WITHHELD_VALUE;

describe("red team round 2", { concurrency: true }, () => {
  for (const mode of ["plan", "approve"] as const satisfies readonly Mode[]) {
    for (const spec of ROUND2_BATCHES) {
      describe(`${mode}: ${spec.name}`, () => {
        let batch: Batch;
        before(async () => {
          batch = await runBatch(mode, spec.attacks, CONTROLS);
        });

        it("runs the reads it may make (positive controls)", () => {
          for (const control of CONTROLS) assertRan(batch, control);
        });
        // Denied for want of approval exits 3; in plan, denials by rule alone exit 0.
        // A call denied for want of approval exits 3; denials by rule and confined runs alone exit 0.
        it("exits 3 exactly when a call was denied for want of approval", () => {
          const unapproved = batch.decisions.some(
            (d) => d.seat === "call.approval" && d.holder === "code" && d.answer === "deny",
          );
          assert.equal(batch.result.code, unapproved ? 3 : 0, batch.result.stderr);
        });
        for (const attack of spec.attacks) {
          it(`${attack.id}: ${attack.what}`, () => assertRefusedRound2(batch, attack));
        }
        it("leaves every watched file as it was", () => assertDiskUnchanged(batch));
      });
    }
  }

  /**
   * The person allowed edits in their own config, as many will: an edit in the workspace runs,
   * but a write that lands outside it must still ask, and nobody is there to say yes.
   */
  describe("approve with edits allowed: writes that land outside, programs run through an edit", () => {
    const config = { permission: { edit: "allow" } };
    let batch: Batch;
    before(async () => {
      batch = await runBatch("approve", EDITS_ESCAPE, EDIT_CONTROLS, { config });
    });

    it("runs an edit in the workspace (allowed by the config rule)", () =>
      assertRan(batch, EDIT_CONTROLS[0] as Control));
    for (const attack of EDITS_ESCAPE) {
      it(`${attack.id}: ${attack.what}`, () => assertRefusedRound2(batch, attack));
    }
    it("exits 3", () => assert.equal(batch.result.code, 3, batch.result.stderr));
    it("leaves every watched file as it was, but the control's", () => assertDiskUnchanged(batch, ["ok.txt"]));
  });

  describe("calibration (--auto): allowed, every attack takes effect", () => {
    const batches: ReadonlyArray<{ name: string; attacks: Round2Attack[] }> = [
      ...ROUND2_BATCHES,
      { name: "writes that land outside, programs run through an edit", attacks: EDITS_ESCAPE },
    ];
    for (const { name, attacks } of batches) {
      describe(name, () => {
        let batch: Batch;
        before(async () => {
          // Unconfined (shell.sandbox off): what the attacks do when nothing holds them — not even
          // the built-in deny of processes' environments, which a glob like /proc/*/environ now meets.
          batch = await runBatch(
            "auto",
            attacks.filter((a) => a.inert === undefined),
            CONTROLS,
            { config: { shell: { sandbox: "off" }, permission: { read: { "/proc/**/environ": "allow" } } } },
          );
        });
        // An attack that cannot show an effect here says why (`inert`) and has no calibration test.
        for (const attack of attacks.filter((a) => a.inert === undefined)) {
          it(`${attack.id}: ${attack.what}`, () => assertTookEffectRound2(batch, attack));
        }
      });
    }
  });
});
