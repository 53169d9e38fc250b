import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Decision } from "../contracts/decisions.js";
import { compactInstructions } from "./window.js";

describe("pre_compact hooks before a compaction (compaction.hook)", () => {
  it("tells the trigger, records every answer, joins what they add", async () => {
    const decisions: Decision[] = [];
    const triggers: string[] = [];
    const added = await compactInstructions(
      {
        preCompact: async (trigger) => {
          triggers.push(trigger);
          return [
            {
              holder: "hook",
              answer: "instructions",
              reasons: [],
              instructions: "Keep paths.",
              hook: "hooks.pre_compact[0]",
            },
            { holder: "code", answer: "failed", reasons: [], hook: "hooks.pre_compact[1]" },
          ];
        },
        record: (d) => {
          decisions.push(d);
        },
      },
      "manual",
    );
    assert.equal(added, "Keep paths.");
    assert.deepEqual(triggers, ["manual"]);
    assert.deepEqual(
      decisions.map((d) => [d.seat, d.holder, d.answer, d.subject?.hook]),
      [
        ["compaction.hook", "hook", "instructions", "hooks.pre_compact[0]"],
        ["compaction.hook", "code", "failed", "hooks.pre_compact[1]"],
      ],
    );
    assert.equal(await compactInstructions({ record: () => {} }), undefined);
  });
});
