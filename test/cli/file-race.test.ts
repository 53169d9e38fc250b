import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { flipperSource, snapshot } from "../support/flipper.js";
import { startScenario } from "../support/scenario.js";

/** Ends the job's process if it still runs (bosun ends its jobs on exit; this is a test's cleanup). */
function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Steps of write and edit calls the model makes while the background job flips names. */
const STEPS = 20;

/**
 * One step's calls on the names the job flips: reads (so writes over an existing file are not
 * refused as unread; the job always recreates the same content), then writes and edits, each with
 * its own content so no call repeats.
 */
function stepCalls(step: number) {
  const id = (n: number) => `s${step}c${n}`;
  return [
    { id: id(1), name: "read", arguments: { path: "notes.md" } },
    { id: id(2), name: "write", arguments: { path: "notes.md", content: `written ${step}\n` } },
    { id: id(3), name: "read", arguments: { path: "sub/notes.md" } },
    { id: id(4), name: "edit", arguments: { path: "sub/notes.md", old_string: "base", new_string: `edited ${step}` } },
    { id: id(5), name: "write", arguments: { path: "deep/new/notes.md", content: `deep ${step}\n` } },
    { id: id(6), name: "write", arguments: { path: `sub/new-${step}.md`, content: `new ${step}\n` } },
    { id: id(7), name: "read", arguments: { path: "notes.md", offset: 1 } },
    { id: id(8), name: "edit", arguments: { path: "notes.md", old_string: "base", new_string: `edited ${step}` } },
    // A name the job leaves alone: it must land, race or not.
    { id: id(9), name: "write", arguments: { path: `calm/${step}.md`, content: `calm ${step}\n` } },
  ];
}

/** What bosun says when a write or edit is refused; anything else from those tools is a failure of this test. */
const REFUSALS: Array<[string, RegExp]> = [
  ["changed after approval", /^Not (written|edited): .* changed after it was approved \(/],
  // Judged when the name led out: an outside path asks, and nobody is here to allow it.
  ["judged outside, denied", /^Denied: this call needs approval and nobody can approve it/],
  ["not read or changed since", /^Not (written|edited): (you have not read|.* changed on disk since)/],
  // A link swapped while its name was being followed: nothing to write to, so nothing is written.
  ["changed while followed", /^Not (written|edited): the path cannot be resolved \(/],
  ["missing", /does not exist|was removed while it was being written|no such file/i],
  ["no match", /^old_string was not found/],
  ["not a file", /is a folder|not a regular file|a part of the path is not a folder/],
];

describe("bosun run: write and edit racing a background job that swaps links in", () => {
  it("never writes outside the workspace: each call lands inside or is refused", async () => {
    const rules = [
      {
        match: { request: 1 },
        reply: {
          toolCalls: [{ id: "flip", name: "shell", arguments: { command: "node flip.cjs", background: true } }],
        },
      },
      ...Array.from({ length: STEPS }, (_, i) => ({
        match: { request: i + 2 },
        reply: { toolCalls: stepCalls(i + 1) },
      })),
      { reply: { text: "Done." } },
    ];
    const s = await startScenario({ rules });
    const outside = join(realpathSync(dirname(s.ws.dir)), "outside");
    try {
      mkdirSync(outside);
      writeFileSync(join(outside, "secret.txt"), "untouched\n");
      // The job's script names the outside folder; the command bosun judges names only the script.
      s.ws.write(
        "flip.cjs",
        `require("node:fs").writeFileSync("flip.pid", String(process.pid));\n${flipperSource(outside)}\n`,
      );
      s.ws.write("notes.md", "base");
      s.ws.write("sub/notes.md", "base");
      const before = snapshot(outside);

      const result = await s.run(["run", "--allow", "edit", "--allow", "shell:node *", "go"], {
        env: { BOSUN_MAX_STEPS: String(STEPS + 5) },
      });
      const pid = Number(readFileSync(join(s.ws.dir, "flip.pid"), "utf8"));
      killQuietly(pid);
      assert.ok(pid > 0, "the background job ran");

      assert.deepEqual(snapshot(outside), before, "nothing outside the workspace changed");
      const { events } = s.latest();
      const finished = events
        .filter((e) => e.type === "call.finished")
        .map((e) => e.data as { id: string; name: string; output: string; isError: boolean })
        .filter((d) => d.name === "write" || d.name === "edit");
      assert.equal(finished.length, STEPS * 6, result.stderr);
      const counts: Record<string, number> = { landed: 0 };
      for (const call of finished) {
        if (!call.isError) {
          counts.landed = (counts.landed ?? 0) + 1;
          continue;
        }
        const kind = REFUSALS.find(([, pattern]) => pattern.test(call.output))?.[0];
        assert.ok(kind, `an unexpected ${call.name} result: ${call.output}`);
        counts[kind] = (counts[kind] ?? 0) + 1;
      }
      if (process.env.RACE_COUNTS) console.log(JSON.stringify(counts));
      assert.ok((counts.landed ?? 0) >= STEPS, `at least the calm writes landed: ${JSON.stringify(counts)}`);
      for (let step = 1; step <= STEPS; step++) {
        assert.equal(readFileSync(join(s.ws.dir, `calm/${step}.md`), "utf8"), `calm ${step}\n`);
      }
      assert.ok((counts["changed after approval"] ?? 0) > 0, `the race was met: ${JSON.stringify(counts)}`);
    } finally {
      await s.close();
    }
  });
});
