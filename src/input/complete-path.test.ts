import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { commonStart, completePath } from "./complete-path.js";

const dir = mkdtempSync(join(tmpdir(), "bosun-complete-"));
for (const file of ["src/app.ts", "src/apple.ts", "src/lib/x.ts", "README.md", ".env", "node_modules/x/i.js"]) {
  mkdirSync(join(dir, file, ".."), { recursive: true });
  writeFileSync(join(dir, file), "");
}
mkdirSync(join(dir, ".git"));
symlinkSync("src", join(dir, "code"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("@path completion", () => {
  it("offers a folder's entries that start with what was typed, folders (and links to them) with a /", () => {
    assert.deepEqual(completePath(dir, ""), ["README.md", "code/", "src/"]);
    assert.deepEqual(completePath(dir, "src/ap"), ["src/app.ts", "src/apple.ts"]);
    assert.deepEqual(completePath(dir, "src/"), ["src/app.ts", "src/apple.ts", "src/lib/"]);
  });

  it("offers hidden entries only once a dot is typed, never .git or node_modules", () => {
    assert.deepEqual(completePath(dir, "."), [".env"]);
    assert.deepEqual(completePath(dir, "node"), []);
  });

  it("offers nothing for a folder that does not exist", () => {
    assert.deepEqual(completePath(dir, "nope/x"), []);
  });

  it("finds the start several candidates share", () => {
    assert.equal(commonStart(["src/app.ts", "src/apple.ts"]), "src/app");
    assert.equal(commonStart(["a"]), "a");
    assert.equal(commonStart([]), "");
  });
});
