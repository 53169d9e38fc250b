import { before, describe, it } from "node:test";
import { assertTookEffect, type Batch, runBatch } from "../support/redteam.js";
import { AFTER_ALWAYS, BATCHES, CONTROLS, WRITES_OUTSIDE } from "../support/redteam-attacks.js";

/**
 * Calibration of the red team: the same batches, run with `--auto` (the person's advance "allow
 * once" for every ask). Now the attacks run, and each one shows its effect — a file made or
 * changed, the secret read, the listener called — so the other red-team suites pass because
 * bosun refused them, not because the attacks were harmless. It runs with shell.sandbox off, so
 * commands allowed on a read-only proof run unconfined. Attacks that cannot show an effect here
 * say why (`inert`) and are left out.
 */
describe("red team calibration: allowed, every attack takes effect", { concurrency: true }, () => {
  const batches = [
    ...BATCHES.map((spec) => ({ name: spec.name, attacks: spec.categories.flatMap((c) => c.attacks) })),
    { name: "writes outside (for approve with edits allowed)", attacks: WRITES_OUTSIDE },
    { name: 'lines after an "always"', attacks: AFTER_ALWAYS },
  ];
  for (const { name, attacks } of batches) {
    describe(name, () => {
      let batch: Batch;
      before(async () => {
        // Unconfined too (shell.sandbox off): the run must show what the attacks do when nothing holds them.
        batch = await runBatch(
          "auto",
          attacks.filter((a) => a.inert === undefined),
          CONTROLS,
          { config: { shell: { sandbox: "off" } } },
        );
      });
      // An attack that cannot show an effect here says why (`inert`) and has no calibration test.
      for (const attack of attacks.filter((a) => a.inert === undefined)) {
        it(`${attack.id}: ${attack.what}`, () => assertTookEffect(batch, attack));
      }
    });
  }
});
