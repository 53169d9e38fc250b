import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  assertDiskUnchanged,
  assertRan,
  assertRefused,
  type Batch,
  type BatchOptions,
  type Mode,
  runBatch,
} from "./redteam.js";
import { BATCHES, CONTROLS } from "./redteam-attacks.js";

/**
 * Defines the red-team tests of one mode: one bosun run per batch (run concurrently), then one
 * test per attack, so a failure names exactly the attack that got through.
 */
export function describeRedTeam(mode: Mode, options: BatchOptions = {}): void {
  for (const spec of BATCHES) {
    const attacks = spec.categories.flatMap((c) => c.attacks);
    const via = options.delegate ? ` via a delegate (${options.delegate.agent})` : "";
    describe(`${mode}${via}: ${spec.name}`, () => {
      let batch: Batch;
      before(async () => {
        batch = await runBatch(mode, attacks, CONTROLS, options);
      });

      it("runs the reads it may make (positive controls)", () => {
        for (const control of CONTROLS) assertRan(batch, control);
      });

      // A call denied for want of approval exits 3; in plan, denials by rule alone exit 0.
      const asks = mode === "approve" || attacks.some((a) => a.plan === "ask");
      it(`exits ${asks ? 3 : 0}`, () => assert.equal(batch.result.code, asks ? 3 : 0, batch.result.stderr));

      for (const category of spec.categories) {
        describe(category.name, () => {
          for (const attack of category.attacks) {
            it(`${attack.id}: ${attack.what}`, () => assertRefused(batch, attack));
          }
        });
      }

      it("leaves every watched file as it was", () => assertDiskUnchanged(batch));
    });
  }
}
