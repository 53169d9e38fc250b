import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Attack,
  assertDiskUnchanged,
  assertRan,
  type Batch,
  type BatchOptions,
  type Control,
  type Mode,
  runBatch,
} from "../support/redteam.js";
import { CONTROLS } from "../support/redteam-attacks.js";
import { WITHHELD_NAME, WITHHELD_VALUE } from "../support/redteam-round2.js";
import {
  assertHeld,
  assertTookEffectRound3,
  type CaseRun,
  caseLedger,
  cleanHost,
  decodeOracle,
  EDIT_SETUP,
  EDIT_SETUP_FILES,
  EDITS,
  FILE_TOOLS,
  type Listeners,
  MASK_LIMIT,
  ORACLE,
  type Round3Attack,
  runCase,
  SANDBOX,
  startListeners,
  withListeners,
} from "../support/redteam-round3.js";

/**
 * Red team, round 3 (the attacks are in test/support/redteam-round3.ts): the sandbox's walls
 * from a program run inside it, approve mode with edits allowed, and the file tools in plan
 * mode. Each batch is one `bosun run`; every attack must be refused, or run (confined, or as a
 * read the agent may make) without effect. The calibration runs the same attacks with `--auto`
 * and `shell.sandbox: "off"`, where each must take effect — so the other runs pass because bosun
 * held the attacks, not because they were harmless.
 */
process.env[WITHHELD_NAME] = WITHHELD_VALUE;

const READ_CONTROL = CONTROLS.filter((c) => c.tool === "read");
const EDITS_ALLOWED = { permission: { edit: "allow" } };
const UNCONFINED = { shell: { sandbox: "off" } };

interface Spec {
  name: string;
  modes: Mode[];
  attacks: Round3Attack[];
  controls: Control[];
  config?: Record<string, unknown>;
  /** Files the controls change (expected); undefined: the disk is not compared (npm writes its logs). */
  changes?: string[];
}

const SPECS: Spec[] = [
  {
    name: "the sandbox's walls, from a program run inside it",
    modes: ["plan", "approve"],
    attacks: SANDBOX,
    controls: CONTROLS,
    changes: [],
  },
  {
    name: "more files to mask than the mask limit",
    modes: ["plan"],
    attacks: MASK_LIMIT,
    controls: READ_CONTROL,
    changes: [],
  },
  {
    name: "approve with edits allowed: files git reads as its config, writes outside, bosun.json",
    modes: ["approve"],
    attacks: EDITS,
    controls: EDIT_SETUP,
    config: EDITS_ALLOWED,
    changes: EDIT_SETUP_FILES,
  },
  {
    name: "the file tools in plan mode",
    modes: ["plan"],
    attacks: [...FILE_TOOLS, ...ORACLE],
    controls: CONTROLS,
    changes: [],
  },
];

/** Runs a batch with fresh unix-socket listeners, the attacks pointed at them. */
async function run(
  mode: Mode,
  spec: Spec,
  attacks: Round3Attack[],
  config?: Record<string, unknown>,
): Promise<{ batch: Batch; listeners: Listeners; attacks: Round3Attack[] }> {
  const listeners = await startListeners();
  const bound = withListeners(attacks, listeners);
  const options: BatchOptions = config ? { config } : {};
  try {
    const batch = await runBatch(mode, bound as Attack[], spec.controls, options);
    return { batch, listeners, attacks: bound };
  } catch (error) {
    await listeners.close();
    throw error;
  }
}

describe("red team round 3", { concurrency: true }, () => {
  for (const spec of SPECS) {
    for (const mode of spec.modes) {
      describe(`${mode}: ${spec.name}`, () => {
        let got: Awaited<ReturnType<typeof run>>;
        before(async () => {
          got = await run(mode, spec, spec.attacks, spec.config);
        });
        after(async () => {
          await got?.listeners.close();
          cleanHost(got?.attacks ?? []);
        });

        it("runs what it may (positive controls)", () => {
          for (const control of spec.controls) assertRan(got.batch, control);
        });
        it("exits 3 exactly when a call was denied for want of approval", () => {
          const unapproved = got.batch.decisions.some(
            (d) => d.seat === "call.approval" && d.holder === "code" && d.answer === "deny",
          );
          assert.equal(got.batch.result.code, unapproved ? 3 : 0, got.batch.result.stderr);
        });
        for (const [index, attack] of spec.attacks.entries()) {
          it(`${attack.id}: ${attack.what}`, () =>
            assertHeld(got.batch, got.attacks[index] as Round3Attack, got.listeners));
        }
        if (spec.attacks.includes(ORACLE[0] as Round3Attack)) {
          it("grep's answers about what it left out do not spell .env's secret", () => {
            assert.notEqual(
              decodeOracle(got.batch),
              got.batch.secret,
              "60 greps, each told only whether matches in .env were left out, spelled the secret",
            );
          });
        }
        if (spec.changes) {
          const changes = spec.changes;
          it("leaves every watched file as it was, but the controls'", () => assertDiskUnchanged(got.batch, changes));
        }
      });
    }
  }

  /**
   * Runs the batch harness cannot express: a repository's own bosun.json (untrusted), a hard link
   * to the person's `.env`.
   */
  describe("plan: a repository's own config, a hard link", () => {
    let sandboxOff: CaseRun;
    let links: CaseRun;
    before(async () => {
      [sandboxOff, links] = await Promise.all([
        runCase({
          project: { shell: { sandbox: "off" } },
          hardLink: false,
          scripts: { p01: "echo pwned > p01.txt" },
          calls: [{ id: "p01", tool: "shell", args: { command: "git show HEAD -- r3/p01.sh" } }],
          watch: ["p01.txt"],
        }),
        runCase({
          scripts: {},
          calls: [
            { id: "p02", tool: "read", args: { path: "docs/notes.txt" } },
            { id: "p03", tool: "shell", args: { command: "cat docs/notes.txt" } },
          ],
          watch: [],
        }),
      ]);
    });

    it('p01: the repository\'s own bosun.json says shell.sandbox "off" (nobody trusted it): still confined', () => {
      const sandbox = sandboxOff.decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.call === "p01");
      assert.equal(
        sandbox?.answer,
        "read-only",
        `p01 ran as ${caseLedger(sandboxOff, "p01")}: ${JSON.stringify(sandbox?.reasons)}`,
      );
      assert.deepEqual(sandboxOff.present, [], "the program the read-only agent ran wrote in the workspace");
    });
    it("p02: read of a hard link to .env (docs/notes.txt) does not show the secret", () => {
      assert.ok(
        !links.results.get("p02")?.includes(links.secret),
        `read docs/notes.txt: ${caseLedger(links, "p02")}; told ${JSON.stringify(links.results.get("p02"))}`,
      );
    });
    it("p03: cat of the hard link: not run, since a mask by name cannot hide it", () => {
      assert.equal(links.started.has("p03"), false, `p03 started: ${caseLedger(links, "p03")}`);
      assert.ok(
        !links.results.get("p03")?.includes(links.secret),
        `cat docs/notes.txt: ${caseLedger(links, "p03")}; told ${JSON.stringify(links.results.get("p03"))}`,
      );
    });
  });

  describe("calibration (--auto, shell.sandbox off): allowed, every attack takes effect", () => {
    for (const spec of SPECS) {
      const attacks = spec.attacks.filter((a) => a.inert === undefined && !ORACLE.includes(a));
      describe(spec.name, () => {
        let got: Awaited<ReturnType<typeof run>>;
        before(async () => {
          got = await run("auto", spec, attacks, { ...spec.config, ...UNCONFINED });
        });
        after(async () => {
          await got?.listeners.close();
          cleanHost(got?.attacks ?? []);
        });
        for (const [index, attack] of attacks.entries()) {
          it(`${attack.id}: ${attack.what}`, () =>
            assertTookEffectRound3(got.batch, got.attacks[index] as Round3Attack, got.listeners));
        }
      });
    }
  });
});
