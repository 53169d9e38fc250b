import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { snapshot, startFlipper } from "../../test/support/flipper.js";
import { tempFolder } from "../../test/support/tools.js";
import {
  appendFileAt,
  PathChangedError,
  readFileAt,
  realLocation,
  removeFileAt,
  useDescriptorPaths,
  writeFileAt,
  writeFileAtomic,
} from "./safe-write.js";

const temp = tempFolder("safe-write");

/** A workspace and a folder outside it holding a secret, both real paths. */
function setup(): { ws: string; out: string } {
  const ws = join(temp.path, "ws");
  const out = join(temp.path, "outside");
  mkdirSync(ws);
  mkdirSync(out);
  writeFileSync(join(out, "secret.txt"), "untouched\n");
  return { ws, out };
}

for (const fallback of [false, true]) {
  // Where /proc/self/fd is missing (macOS) the same promises hold outside a race: checked by real paths.
  describe(fallback ? "without /proc/self/fd" : "with /proc/self/fd", () => {
    before(() => useDescriptorPaths(fallback ? false : undefined));
    after(() => useDescriptorPaths(undefined));
    describe("writeFileAt", () => {
      it("creates a file, and replaces one keeping its mode, leaving no temporary file", () => {
        const { ws } = setup();
        const file = join(ws, "a.txt");
        writeFileAt(file, "one\n");
        assert.equal(readFileSync(file, "utf8"), "one\n");
        chmodSync(file, 0o640);
        writeFileAt(file, "two\n");
        assert.equal(readFileSync(file, "utf8"), "two\n");
        assert.equal(statSync(file).mode & 0o777, 0o640);
        assert.deepEqual(readdirSync(ws), ["a.txt"]);
      });

      it("gives a new file the mode asked for", () => {
        const { ws } = setup();
        writeFileAt(join(ws, "private"), "x", { mode: 0o600 });
        assert.equal(statSync(join(ws, "private")).mode & 0o777, 0o600);
      });

      it("keeps a replaced file's mode: an executable stays 0755, a private file 0600", () => {
        const { ws } = setup();
        for (const mode of [0o755, 0o600, 0o1775]) {
          const file = join(ws, `f-${mode.toString(8)}`);
          writeFileSync(file, "old\n");
          chmodSync(file, mode);
          writeFileAt(file, "new\n");
          assert.equal(readFileSync(file, "utf8"), "new\n");
          assert.equal(statSync(file).mode & 0o7777, mode, mode.toString(8));
        }
      });

      it("makes missing folders with the mode asked for", () => {
        const { ws } = setup();
        writeFileAt(join(ws, "own/deeper/x.txt"), "x", { parents: true, mode: 0o600, folderMode: 0o700 });
        assert.equal(statSync(join(ws, "own")).mode & 0o777, 0o700);
        assert.equal(statSync(join(ws, "own/deeper")).mode & 0o777, 0o700);
        assert.equal(statSync(join(ws, "own/deeper/x.txt")).mode & 0o777, 0o600);
      });

      it("removes the temporary files of killed runs on this machine, never a live one's or another machine's", () => {
        const { ws } = setup();
        const host = createHash("sha256").update(hostname()).digest("hex").slice(0, 6);
        const dead = spawnSync(process.execPath, ["-e", ""]).pid;
        const names = {
          dead: `.big.txt.${host}-${dead}-0123abcd.bosun-tmp`,
          live: `.big.txt.${host}-${process.ppid}-0123abcd.bosun-tmp`,
          elsewhere: `.big.txt.${host === "abcdef" ? "fedcba" : "abcdef"}-${dead}-0123abcd.bosun-tmp`,
          // Not of bosun's naming: never touched.
          other: ".big.txt.notes.bosun-tmp",
        };
        for (const name of Object.values(names)) writeFileSync(join(ws, name), "torn");
        writeFileAt(join(ws, "other.txt"), "x");
        assert.deepEqual(readdirSync(ws).sort(), [names.other, names.elsewhere, names.live, "other.txt"].sort());
      });

      it("creates missing parent folders only when asked", () => {
        const { ws } = setup();
        assert.throws(() => writeFileAt(join(ws, "a/b/c.txt"), "x"), { code: "ENOENT" });
        writeFileAt(join(ws, "a/b/c.txt"), "x", { parents: true });
        assert.equal(readFileSync(join(ws, "a/b/c.txt"), "utf8"), "x");
      });

      it("refuses when the name is a link, and leaves the link's target alone", () => {
        const { ws, out } = setup();
        symlinkSync(join(out, "secret.txt"), join(ws, "notes.md"));
        assert.throws(
          () => writeFileAt(join(ws, "notes.md"), "stolen"),
          (error: unknown) => error instanceof PathChangedError && error.leadsTo === join(out, "secret.txt"),
        );
        assert.equal(readFileSync(join(out, "secret.txt"), "utf8"), "untouched\n");
        assert.ok(lstatSync(join(ws, "notes.md")).isSymbolicLink());
      });

      it("refuses when the folder, or a folder on the way, is a link", () => {
        const { ws, out } = setup();
        symlinkSync(out, join(ws, "sub"));
        assert.throws(() => writeFileAt(join(ws, "sub/secret.txt"), "stolen"), PathChangedError);
        assert.throws(() => writeFileAt(join(ws, "sub/deeper/x.txt"), "stolen", { parents: true }), PathChangedError);
        assert.equal(readFileSync(join(out, "secret.txt"), "utf8"), "untouched\n");
        assert.deepEqual(readdirSync(out), ["secret.txt"]);
      });

      it("refuses to create a folder where a dangling link stands", () => {
        const { ws, out } = setup();
        symlinkSync(join(out, "new"), join(ws, "deep"));
        assert.throws(() => writeFileAt(join(ws, "deep/x.txt"), "stolen", { parents: true }), PathChangedError);
        assert.deepEqual(readdirSync(out), ["secret.txt"]);
      });

      it("replaces a file with a second name instead of writing through it", () => {
        const { ws, out } = setup();
        linkSync(join(out, "secret.txt"), join(ws, "hard.txt"));
        writeFileAt(join(ws, "hard.txt"), "mine\n");
        assert.equal(readFileSync(join(ws, "hard.txt"), "utf8"), "mine\n");
        assert.equal(readFileSync(join(out, "secret.txt"), "utf8"), "untouched\n");
      });

      it("leaves a file it may not write as it is", () => {
        const { ws } = setup();
        const file = join(ws, "kept.txt");
        writeFileSync(file, "kept");
        chmodSync(file, 0o444);
        if (process.getuid?.() !== 0) {
          assert.throws(() => writeFileAt(file, "x"), { code: "EACCES" });
        } else {
          // Root may write anything: the refusal is what anyone else gets, so ask as nobody.
          chmodSync(temp.path, 0o711);
          chmodSync(ws, 0o777);
          const tsx = createRequire(import.meta.url).resolve("tsx/esm");
          const script = join(ws, "as-nobody.mts");
          const module = JSON.stringify(new URL("./safe-write.ts", import.meta.url).pathname);
          writeFileSync(
            script,
            `import { useDescriptorPaths, writeFileAt } from ${module};\n` +
              (fallback ? "useDescriptorPaths(false);\n" : "") +
              `try { writeFileAt(${JSON.stringify(file)}, "x"); console.log("wrote"); } catch (e) { console.log(e.code); }\n`,
          );
          const run = spawnSync(
            "setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "--import", tsx, script],
            {
              encoding: "utf8",
            },
          );
          assert.equal(run.stdout.trim(), "EACCES", run.stderr);
        }
        assert.equal(readFileSync(file, "utf8"), "kept");
      });

      it("says a folder is a folder", () => {
        const { ws } = setup();
        mkdirSync(join(ws, "dir"));
        assert.throws(() => writeFileAt(join(ws, "dir"), "x"), { code: "EISDIR" });
      });
    });

    describe("readFileAt", () => {
      it("reads a file, and tells missing, folder and link apart", () => {
        const { ws, out } = setup();
        writeFileSync(join(ws, "a.txt"), "hello");
        mkdirSync(join(ws, "dir"));
        symlinkSync(join(out, "secret.txt"), join(ws, "link"));
        const file = readFileAt(join(ws, "a.txt"));
        assert.equal(file.kind === "file" && file.data.toString(), "hello");
        assert.equal(readFileAt(join(ws, "nope")).kind, "none");
        assert.equal(readFileAt(join(ws, "nope/deeper")).kind, "none");
        assert.equal(readFileAt(join(ws, "dir")).kind, "folder");
        assert.throws(() => readFileAt(join(ws, "link")), PathChangedError);
      });
    });

    describe("appendFileAt", () => {
      it("appends, creates with exactly the mode asked for, and never through a link", () => {
        const { ws, out } = setup();
        const file = join(ws, "history.jsonl");
        appendFileAt(file, "a\n", { mode: 0o600 });
        appendFileAt(file, "b\n", { mode: 0o600 });
        assert.equal(readFileSync(file, "utf8"), "a\nb\n");
        assert.equal(statSync(file).mode & 0o777, 0o600);
        symlinkSync(join(out, "secret.txt"), join(ws, "link"));
        assert.throws(() => appendFileAt(join(ws, "link"), "stolen"), PathChangedError);
        assert.equal(readFileSync(join(out, "secret.txt"), "utf8"), "untouched\n");
      });
    });

    describe("writeFileAtomic", () => {
      it("writes below a linked folder, but never through a link at the name unless told to", () => {
        const { ws, out } = setup();
        symlinkSync(ws, join(temp.path, "alias"));
        assert.equal(writeFileAtomic(join(temp.path, "alias/own.txt"), "x"), join(ws, "own.txt"));
        symlinkSync(join(out, "secret.txt"), join(ws, "planted.txt"));
        assert.throws(() => writeFileAtomic(join(ws, "planted.txt"), "stolen"), PathChangedError);
        assert.equal(readFileSync(join(out, "secret.txt"), "utf8"), "untouched\n");
      });

      it("with followLink, writes the target of a link that is there when it starts, atomically", () => {
        const { ws } = setup();
        writeFileSync(join(ws, "real.txt"), "old");
        symlinkSync("real.txt", join(ws, "mine.txt"));
        assert.equal(writeFileAtomic(join(ws, "mine.txt"), "new", { followLink: true }), join(ws, "real.txt"));
        assert.equal(readFileSync(join(ws, "real.txt"), "utf8"), "new");
        assert.ok(lstatSync(join(ws, "mine.txt")).isSymbolicLink());
      });

      it("settles a missing path below its nearest real folder", () => {
        const { ws } = setup();
        symlinkSync(ws, join(temp.path, "alias"));
        assert.equal(realLocation(join(temp.path, "alias/new/x.txt")), join(ws, "new/x.txt"));
      });
    });
  });
}

describe("writes racing a process that swaps links in", () => {
  /** Runs `write` against the flipper for `ms`; counts what happened, and returns the outside folder as it ended. */
  async function race(write: (ws: string, i: number) => void, ms: number) {
    const { ws, out } = setup();
    mkdirSync(join(ws, "sub"));
    writeFileSync(join(ws, "notes.md"), "base");
    const before = snapshot(out);
    const flipper = startFlipper(ws, out);
    const counts = { written: 0, changed: 0, other: 0 };
    const end = Date.now() + ms;
    let i = 0;
    try {
      // Let the loop start flipping.
      await new Promise((resolve) => setTimeout(resolve, 100));
      while (Date.now() < end) {
        i++;
        try {
          write(ws, i);
          counts.written++;
        } catch (error) {
          if (error instanceof PathChangedError) counts.changed++;
          else counts.other++;
        }
        // Yield now and then so the timer and the child's exit can be seen.
        if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await flipper.stop();
    }
    return { counts, iterations: i, before, after: snapshot(out) };
  }

  it("calibration: a plain writeFileSync through the swapped names escapes", async () => {
    const result = await race((ws, i) => {
      writeFileSync(join(ws, i % 2 ? "notes.md" : "sub/notes.md"), `escaped ${i}`);
    }, 1500);
    assert.notDeepEqual(result.after, result.before, "the race harness must be able to get a write out");
  });

  it("never lands outside: the name, a folder on the way and new folders flipping", async () => {
    const result = await race((ws, i) => {
      const name = ["notes.md", "sub/notes.md", "deep/new/notes.md"][i % 3] as string;
      writeFileAt(join(ws, name), `written ${i}`, { parents: true });
    }, 3000);
    assert.deepEqual(result.after, result.before, "nothing outside the workspace changed");
    assert.ok(result.counts.written > 0, `some writes landed: ${JSON.stringify(result.counts)}`);
    assert.ok(result.counts.changed > 0, `some were refused as changed: ${JSON.stringify(result.counts)}`);
  });

  it("never reads outside either", async () => {
    const leaks: string[] = [];
    const result = await race((ws, i) => {
      const found = readFileAt(join(ws, i % 2 ? "notes.md" : "sub/notes.md"));
      if (found.kind === "file" && found.data.toString().includes("untouched")) leaks.push(String(i));
    }, 1500);
    assert.deepEqual(leaks, [], "no read returned the outside file");
    assert.ok(result.counts.written + result.counts.changed > 0);
  });
});

describe("removeFileAt", () => {
  it("removes a regular file where it was judged; never a link at the name, a folder, or a missing file", () => {
    const file = temp.put("gone.txt", "x");
    removeFileAt(file);
    assert.deepEqual(readFileAt(file), { kind: "none" });
    const target = temp.put("kept.txt", "kept");
    const link = join(temp.path, "link.txt");
    symlinkSync(target, link);
    assert.throws(() => removeFileAt(link), PathChangedError);
    assert.equal(readFileSync(target, "utf8"), "kept");
    assert.ok(lstatSync(link).isSymbolicLink());
    mkdirSync(join(temp.path, "folder"));
    assert.throws(() => removeFileAt(join(temp.path, "folder")), { code: "EISDIR" });
    assert.throws(() => removeFileAt(join(temp.path, "missing.txt")), { code: "ENOENT" });
  });
});
