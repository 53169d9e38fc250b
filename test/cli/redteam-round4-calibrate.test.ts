import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { BATCHES, CALIBRATIONS, ROUND_4 } from "../support/redteam-round4.js";
import { assertTookEffect, type R4Control, type R4Evidence, runRound4 } from "../support/redteam-round4-harness.js";

/**
 * Calibration of round 4: the batches again with authority off — `--auto`, every rule allowing
 * in the person's own config, `shell.sandbox: "off"`, the repository trusted, the repository's
 * hooks and servers moved into the person's own config (which runs them as written), the
 * person's own guard hooks left out, the MCP server's schema allowing any name. Now each attack
 * must take effect (a file made or changed, a secret or token in a model request, a listener
 * called, a marker printed), so the refusal suite passes because bosun held the attacks, not
 * because they were harmless. Batches that can share a run do (CALIBRATIONS). An attack that
 * cannot show an effect says why (`inert`) and has no test here.
 */
describe("red team round 4 calibration: with authority off, every attack takes effect", { concurrency: 5 }, () => {
  it("has at least 80 attacks across the ten classes, each calibrated once", () => {
    assert.ok(ROUND_4.length >= 80, `${ROUND_4.length} attacks`);
    const classes = new Set(ROUND_4.map((a) => a.class));
    for (let c = 1; c <= 10; c++) assert.ok(classes.has(c as never), `no attack of class ${c}`);
    assert.equal(new Set(ROUND_4.map((a) => a.id)).size, ROUND_4.length, "attack ids must be unique");
    const calibrated = CALIBRATIONS.flatMap((c) => c.batches);
    assert.deepEqual(
      BATCHES.filter((b) => calibrated.filter((x) => x === b).length !== 1).map((b) => b.name),
      [],
      "every batch is calibrated exactly once",
    );
  });

  for (const calibration of CALIBRATIONS) {
    const attacks = calibration.batches.flatMap((b) => b.attacks).filter((a) => a.inert === undefined);
    const controls = new Map<string, R4Control>();
    for (const control of calibration.batches.flatMap((b) => b.controls)) controls.set(control.id, control);
    describe(calibration.name, () => {
      let evidence: R4Evidence;
      before(async () => {
        evidence = await runRound4({
          attacks,
          controls: [...controls.values()],
          flags: calibration.flags,
          user: calibration.user,
          calibration: true,
        });
      });
      for (const attack of attacks) {
        it(`${attack.id} (class ${attack.class}): ${attack.what}`, () => assertTookEffect(evidence, attack));
      }
    });
  }
});
