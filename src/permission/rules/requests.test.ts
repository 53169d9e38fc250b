import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { ACTIONS } from "../../contracts/requests.js";
import { resolvePath } from "../../tools/paths.js";
import {
  isAction,
  isInside,
  isPathAction,
  PathResolutionError,
  resolveRequestPath,
  resolveRequestPaths,
} from "./requests.js";

describe("actions", () => {
  it("lists the ten actions; read, edit and external_directory take paths", () => {
    assert.deepEqual(
      [...ACTIONS],
      ["read", "edit", "shell", "external_directory", "web", "delegate", "mcp", "skill", "question", "job"],
    );
    assert.deepEqual(
      ACTIONS.filter((a) => isPathAction(a)),
      ["read", "edit", "external_directory"],
    );
    assert.equal(isAction("edit"), true);
    assert.equal(isAction("write"), false);
    assert.equal(isAction(undefined), false);
  });
});

describe("resolveRequestPath on a real file system", () => {
  // root/ws is the workspace; root/outside is elsewhere on disk.
  let root: string;
  let ws: string;
  let outside: string;

  before(() => {
    // tmpdir itself may be a symlink (macOS /var): start from its real path.
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-requests-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(join(ws, "src"), { recursive: true });
    mkdirSync(join(outside, "deep"), { recursive: true });
    writeFileSync(join(ws, "src", "a.ts"), "a");
    writeFileSync(join(outside, "secret.txt"), "secret");
    symlinkSync(outside, join(ws, "link")); // absolute target, a folder outside
    symlinkSync("../outside", join(ws, "rel")); // relative target
    symlinkSync(join(outside, "nofile"), join(ws, "dangling")); // target does not exist
    symlinkSync(join(outside, "secret.txt"), join(ws, "filelink"));
    symlinkSync(join(ws, "link"), join(ws, "chain")); // a link to a link
    symlinkSync("link/../outside/secret.txt", join(ws, "tricky")); // `..` after a link in the target
    symlinkSync("loop2", join(ws, "loop1"));
    symlinkSync("loop1", join(ws, "loop2"));
    symlinkSync("self", join(ws, "self"));
    symlinkSync(join(outside, "nodir", "f"), join(ws, "dangling-deep"));
    symlinkSync("src", join(ws, "inner")); // a link that stays inside
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cases: Array<[string, (r: { ws: string; outside: string; root: string }) => string]> = [
    ["src/a.ts", (r) => `${r.ws}/src/a.ts`],
    ["./src/a.ts", (r) => `${r.ws}/src/a.ts`],
    ["src/./a.ts", (r) => `${r.ws}/src/a.ts`],
    ["src//a.ts", (r) => `${r.ws}/src/a.ts`],
    ["src/", (r) => `${r.ws}/src`],
    [".", (r) => r.ws],
    ["src/../src/a.ts", (r) => `${r.ws}/src/a.ts`],
    ["a/../b", (r) => `${r.ws}/b`],
    ["new/deeper/file.txt", (r) => `${r.ws}/new/deeper/file.txt`],
    ["src/a.ts/x", (r) => `${r.ws}/src/a.ts/x`],
    ["../outside/secret.txt", (r) => `${r.outside}/secret.txt`],
    ["../../../../../../../../etc/passwd", () => "/etc/passwd"],
    // Through symlinks: the real target, wherever it is.
    ["link", (r) => r.outside],
    ["link/secret.txt", (r) => `${r.outside}/secret.txt`],
    ["link/new/deeper/file.txt", (r) => `${r.outside}/new/deeper/file.txt`],
    ["link/deep", (r) => `${r.outside}/deep`],
    ["rel/secret.txt", (r) => `${r.outside}/secret.txt`],
    ["chain/x", (r) => `${r.outside}/x`],
    ["filelink", (r) => `${r.outside}/secret.txt`],
    ["tricky", (r) => `${r.outside}/secret.txt`],
    ["inner/a.ts", (r) => `${r.ws}/src/a.ts`],
    // A dangling link names the file a write through it would create.
    ["dangling", (r) => `${r.outside}/nofile`],
    ["dangling-deep", (r) => `${r.outside}/nodir/f`],
    // `..` is normalized before symlinks are followed (what the file tools do).
    ["link/../src/a.ts", (r) => `${r.ws}/src/a.ts`],
  ];

  for (const [input, expected] of cases) {
    it(`resolves ${JSON.stringify(input)} from the workspace`, () => {
      assert.equal(resolveRequestPath(input, ws), expected({ ws, outside, root }));
    });
  }

  it("takes an absolute path as it is, resolved the same way", () => {
    assert.equal(resolveRequestPath(`${ws}/link/secret.txt`, "/somewhere/else"), `${outside}/secret.txt`);
    assert.equal(resolveRequestPath("/", ws), "/");
    assert.equal(resolveRequestPath("/..", ws), "/");
  });

  it("resolves a symlinked working directory too", () => {
    assert.equal(resolveRequestPath("secret.txt", join(ws, "link")), `${outside}/secret.txt`);
    assert.equal(resolveRequestPath("new.txt", join(ws, "link")), `${outside}/new.txt`);
  });

  it("resolves a relative working directory against the process's", () => {
    assert.equal(resolveRequestPath("a.ts", relative(process.cwd(), join(ws, "src"))), `${ws}/src/a.ts`);
  });

  it("agrees with the kernel's realpath on every existing path", () => {
    for (const input of ["src/a.ts", "link/secret.txt", "rel/deep", "chain", "filelink", "tricky", "inner", "."]) {
      assert.equal(resolveRequestPath(input, ws), realpathSync.native(resolve(ws, input)), input);
    }
  });

  it("agrees with how the file tools resolve a path (then follows the links they would open)", () => {
    for (const input of ["src/a.ts", "a/../src/a.ts", "link/../src/a.ts"]) {
      assert.equal(resolveRequestPath(input, ws), realpathSync(resolvePath(ws, input)), input);
    }
  });

  it("does not follow the last link with followLast: false (rm link removes the link)", () => {
    assert.equal(resolveRequestPath("link", ws, { followLast: false }), `${ws}/link`);
    assert.equal(resolveRequestPath("dangling", ws, { followLast: false }), `${ws}/dangling`);
    assert.equal(resolveRequestPath("link/secret.txt", ws, { followLast: false }), `${outside}/secret.txt`);
    assert.equal(resolveRequestPath("chain/deep", ws, { followLast: false }), `${outside}/deep`);
  });

  it("refuses a symlink loop, an empty path and a NUL byte (fail closed)", () => {
    assert.throws(() => resolveRequestPath("loop1", ws), PathResolutionError);
    assert.throws(() => resolveRequestPath("loop1/x", ws), /too many symbolic links/);
    assert.throws(() => resolveRequestPath("self", ws), PathResolutionError);
    assert.throws(() => resolveRequestPath("", ws), PathResolutionError);
    assert.throws(() => resolveRequestPath("a\0b", ws), PathResolutionError);
    assert.throws(() => resolveRequestPaths("loop1", ws), PathResolutionError);
  });

  it("does not expand ~ (a file tool opens it literally)", () => {
    assert.equal(resolveRequestPath("~/x", ws), `${ws}/~/x`);
  });

  it("resolveRequestPaths also names where the kernel would land for the raw string", () => {
    // The kernel follows `link` first, then `..`: link/../x is root/x, not ws/x.
    assert.deepEqual(resolveRequestPaths("link/../proof.txt", ws), [`${ws}/proof.txt`, `${root}/proof.txt`]);
    writeFileSync(`${ws}/link/../proof.txt`, "written through the raw path");
    assert.equal(existsSync(`${root}/proof.txt`), true);
    assert.equal(existsSync(`${ws}/proof.txt`), false);
    assert.equal(readFileSync(`${root}/proof.txt`, "utf8"), "written through the raw path");
    assert.equal(realpathSync.native(`${ws}/link/../outside/secret.txt`), `${outside}/secret.txt`);
    assert.deepEqual(resolveRequestPaths("link/../outside/secret.txt", ws), [
      `${ws}/outside/secret.txt`,
      `${outside}/secret.txt`,
    ]);
  });

  it("resolveRequestPaths gives one path when both readings agree", () => {
    assert.deepEqual(resolveRequestPaths("link/secret.txt", ws), [`${outside}/secret.txt`]);
    assert.deepEqual(resolveRequestPaths("src/../src/a.ts", ws), [`${ws}/src/a.ts`]);
    assert.deepEqual(resolveRequestPaths("missing/../link/x", ws), [`${outside}/x`]);
    assert.deepEqual(resolveRequestPaths(`${ws}/src/a.ts`, "/"), [`${ws}/src/a.ts`]);
  });

  it("resolveRequestPaths honours followLast", () => {
    assert.deepEqual(resolveRequestPaths("link", ws, { followLast: false }), [`${ws}/link`]);
  });

  it("every resolved path is absolute and normalized", () => {
    for (const [input] of cases) {
      const path = resolveRequestPath(input, ws);
      assert.equal(resolve(path), path, input);
    }
  });
});

/** [path, folder, inside] */
const INSIDE_CASES: Array<[string, string, boolean]> = [
  ["/work/a", "/work/a", true],
  ["/work/a/b", "/work/a", true],
  ["/work/a/b/c", "/work/a", true],
  ["/work/a", "/work/ab", false],
  ["/work/ab", "/work/a", false],
  ["/work/ab/c", "/work/a", false],
  ["/work/a-b", "/work/a", false],
  ["/work/a b", "/work/a", false],
  ["/work/a.b", "/work/a", false],
  ["/work", "/work/a", false],
  ["/", "/work", false],
  ["/work/a/", "/work/a", true],
  ["/work/a", "/work/a/", true],
  ["/work/a/./b", "/work/a", true],
  ["/work/a/../b", "/work/a", false],
  ["/work/a/..", "/work/a", false],
  ["/work/b/../a/c", "/work/a", true],
  ["//work//a//b", "/work/a", true],
  ["/x", "/", true],
  ["/", "/", true],
  ["/work/A", "/work/a", false],
];

describe("isInside", () => {
  for (const [path, folder, expected] of INSIDE_CASES) {
    it(`${JSON.stringify(path)} is ${expected ? "" : "not "}inside ${JSON.stringify(folder)}`, () => {
      assert.equal(isInside(path, folder), expected);
    });
  }

  it("refuses relative paths", () => {
    assert.throws(() => isInside("a/b", "/a"), TypeError);
    assert.throws(() => isInside("/a/b", "a"), TypeError);
  });

  it("sees a symlink escape once the path is resolved", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-inside-")));
    try {
      mkdirSync(join(root, "ws"));
      mkdirSync(join(root, "out"));
      symlinkSync(join(root, "out"), join(root, "ws", "escape"));
      const lexical = resolve(root, "ws", "escape", "f");
      assert.equal(isInside(lexical, join(root, "ws")), true, "the lexical path looks inside");
      assert.equal(isInside(resolveRequestPath("escape/f", join(root, "ws")), join(root, "ws")), false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
