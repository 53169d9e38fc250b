import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder } from "../../../test/support/tools.js";
import { removeFileAt, writeFileAt } from "../../util/safe-write.js";
import { type CommitStep, commitAll } from "./commit.js";

const temp = tempFolder("patch-commit");

/** Every file below the folder with its bytes and mode: what "as before" means. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      const name = path.slice(root.length + 1);
      if (entry.isDirectory()) {
        out[`${name}/`] = "folder";
        walk(path);
      } else out[name] = `${(statSync(path).mode & 0o777).toString(8)} ${readFileSync(path, "hex")}`;
    }
  };
  walk(root);
  return out;
}

const previous = (path: string) => ({ data: readFileSync(path), mode: statSync(path).mode });

/** A patch's steps: replace a.txt, add new/deep/b.txt, move c.sh to d.sh, delete e.txt — then `last`. */
function steps(last: CommitStep): CommitStep[] {
  const at = (name: string) => join(temp.path, name);
  return [
    { op: "write", target: at("a.txt"), content: "A changed\n", previous: previous(at("a.txt")) },
    { op: "write", target: at("new/deep/b.txt"), content: "b\n" },
    { op: "write", target: at("d.sh"), content: "#!/bin/sh\n", mode: 0o755 },
    last,
    { op: "remove", target: at("c.sh"), previous: previous(at("c.sh")) },
    { op: "remove", target: at("e.txt"), previous: previous(at("e.txt")) },
  ];
}

function setUp(): void {
  temp.put("a.txt", "A\n");
  chmodSync(temp.put("c.sh", "#!/bin/sh\n"), 0o755);
  chmodSync(temp.put("e.txt", "E\r\nbytes \u00e9\n"), 0o600);
  mkdirSync(join(temp.path, "taken"));
}

describe("apply_patch: the writer, all or nothing", () => {
  it("makes every step", () => {
    setUp();
    const result = commitAll(steps({ op: "write", target: join(temp.path, "f.txt"), content: "f\n" }));
    assert.deepEqual(result, { ok: true });
    assert.equal(readFileSync(join(temp.path, "a.txt"), "utf8"), "A changed\n");
    assert.equal(readFileSync(join(temp.path, "new/deep/b.txt"), "utf8"), "b\n");
    assert.equal(statSync(join(temp.path, "d.sh")).mode & 0o777, 0o755);
    assert.equal(existsSync(join(temp.path, "c.sh")), false);
    assert.equal(existsSync(join(temp.path, "e.txt")), false);
  });

  it("a write failing midway (a folder where the file should go) leaves every file byte for byte as before", () => {
    setUp();
    const before = snapshot(temp.path);
    const failing: CommitStep = { op: "write", target: join(temp.path, "taken"), content: "x\n" };
    const result = commitAll(steps(failing));
    assert.ok(!result.ok);
    assert.equal(result.failed, failing);
    assert.equal((result.error as NodeJS.ErrnoException).code, "EISDIR");
    assert.deepEqual(result.notRestored, []);
    // The replaced file has its bytes back, the added ones are gone with the folders made for them.
    assert.deepEqual(snapshot(temp.path), before);
  });

  it("a removal failing at the end undoes the removals and writes before it, the deleted file back with its mode", () => {
    setUp();
    const before = snapshot(temp.path);
    let removals = 0;
    const io = {
      write: writeFileAt,
      remove: (target: string) => {
        // The second removal (e.txt) fails, after c.sh was removed.
        if (++removals === 2) throw Object.assign(new Error("simulated"), { code: "EIO" });
        removeFileAt(target);
      },
    };
    const result = commitAll(steps({ op: "write", target: join(temp.path, "f.txt"), content: "f\n" }), io);
    assert.ok(!result.ok);
    assert.equal(result.failed.target, join(temp.path, "e.txt"));
    assert.deepEqual(snapshot(temp.path), before);
  });

  it("an undo that fails is said, by file", () => {
    setUp();
    let writes = 0;
    const io = {
      write: (target: string, content: string | Uint8Array, options?: Parameters<typeof writeFileAt>[2]) => {
        writes++;
        // Writes 1-3 go through, the 4th (f.txt) fails, and the 5th (putting a.txt back) fails too.
        if (writes === 4 || writes === 5) throw Object.assign(new Error("simulated"), { code: "EIO" });
        writeFileAt(target, content, options);
      },
      remove: removeFileAt,
    };
    const result = commitAll(steps({ op: "write", target: join(temp.path, "f.txt"), content: "f\n" }), io);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.notRestored.map((n) => n.target),
      [join(temp.path, "a.txt")],
    );
    assert.equal(existsSync(join(temp.path, "new")), false, "the added file and its folders were still removed");
  });
});
