import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expandGlob, GLOB_MATCH_LIMIT } from "./glob.js";
import { escapeGlob, expandBraces, hasGlob, segmentMatcher, unescapeGlob } from "./pattern.js";

describe("pattern.ts: bash patterns as text", () => {
  it("escapes quoted text and finds wildcards only where they are unescaped", () => {
    assert.equal(escapeGlob(".e*[x]{a,b}"), ".e\\*\\[x\\]\\{a\\,b\\}");
    assert.equal(unescapeGlob(escapeGlob("a*b?[c]")), "a*b?[c]");
    assert.equal(hasGlob(".en?"), true);
    assert.equal(hasGlob(".[e]nv"), true);
    assert.equal(hasGlob("\\.en\\?"), false);
    assert.equal(hasGlob("a[b"), false);
  });

  it("expands braces as bash does: lists, nesting, sequences, escapes", () => {
    assert.deepEqual(expandBraces("{.env,x}", 100), [".env", "x"]);
    assert.deepEqual(expandBraces("a{b,{c,d}}e", 100), ["abe", "ace", "ade"]);
    assert.deepEqual(expandBraces("f{1..3}", 100), ["f1", "f2", "f3"]);
    assert.deepEqual(expandBraces("{01..03}", 100), ["01", "02", "03"]);
    assert.deepEqual(expandBraces("{a..e..2}", 100), ["a", "c", "e"]);
    assert.deepEqual(expandBraces("{x}{}\\{a,b\\}", 100), ["{x}{}\\{a,b\\}"]);
    assert.deepEqual(expandBraces("{a,b}{c,d}", 100), ["ac", "ad", "bc", "bd"]);
    assert.throws(() => expandBraces("{1..5000}", 1000), RangeError);
  });

  it("matches a segment: wildcards, brackets, classes, extended patterns", () => {
    const plain = { extglob: false, nocase: false };
    assert.equal(segmentMatcher(".en?", plain)(".env"), true);
    assert.equal(segmentMatcher(".[e]nv", plain)(".env"), true);
    assert.equal(segmentMatcher("[!a]nv", plain)("env"), true);
    assert.equal(segmentMatcher("[^e]nv", plain)("env"), false);
    assert.equal(segmentMatcher("[[:alpha:]]nv", plain)("env"), true);
    assert.equal(segmentMatcher("[]x]", plain)("]"), true);
    assert.equal(segmentMatcher("\\*", plain)("*"), true);
    assert.equal(segmentMatcher("\\*", plain)("a"), false);
    assert.equal(segmentMatcher("[[=e=]]nv", plain)("env"), true); // not translated: any character
    assert.equal(segmentMatcher(".ENV", { extglob: false, nocase: true })(".env"), true);
    const ext = { extglob: true, nocase: false };
    assert.equal(segmentMatcher("@(.env|x)", ext)(".env"), true);
    assert.equal(segmentMatcher("+(.e)nv", ext)(".env"), true);
    assert.equal(segmentMatcher("!(x)", ext)(".env"), true); // wider than bash, never narrower
  });

  it("matches in linear time, whatever pattern the model writes", () => {
    const name = "a".repeat(250);
    const started = Date.now();
    assert.equal(segmentMatcher(`${"*a".repeat(40)}b`, { extglob: false, nocase: false })(name), false);
    assert.equal(segmentMatcher(`${"*".repeat(3000)}x`, { extglob: false, nocase: true })(name), false);
    assert.equal(segmentMatcher("*a*a*", { extglob: false, nocase: false })(name), true);
    assert.ok(Date.now() - started < 500, `${Date.now() - started} ms`);
  });
});

describe("expandGlob: glob operands against the file system", () => {
  let root: string;
  let ws: string;
  let outside: string;
  const names = (result: ReturnType<typeof expandGlob>): string[] => {
    assert.ok(!("unknown" in result), JSON.stringify(result));
    return result.matches.map((m) => m.slice(ws.length + 1)).sort();
  };
  const at = (pattern: string): string => `${escapeGlob(ws)}/${pattern}`;

  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-glob-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(join(ws, "src", "deep"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(ws, ".env"), "SECRET=1\n");
    writeFileSync(join(ws, ".env.local"), "");
    writeFileSync(join(ws, "README.md"), "");
    writeFileSync(join(ws, "we!rd [1]*?"), "");
    writeFileSync(join(ws, "src", "a.ts"), "");
    writeFileSync(join(ws, "src", "deep", ".env"), "");
    writeFileSync(join(outside, "secret.txt"), "");
    symlinkSync(outside, join(ws, "link"));
    mkdirSync(join(ws, "many"));
    for (let i = 0; i <= GLOB_MATCH_LIMIT; i++) writeFileSync(join(ws, "many", `f${i}`), "");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("matches dotfiles only where the segment starts with a dot, as bash does", () => {
    const plain = { wide: false };
    assert.deepEqual(names(expandGlob(at(".en?"), plain)), [".env"]);
    assert.deepEqual(names(expandGlob(at(".[e]nv"), plain)), [".env"]);
    assert.deepEqual(names(expandGlob(at("*env"), plain)), []);
    assert.deepEqual(names(expandGlob(at("*"), plain)), ["README.md", "link", "many", "src", "we!rd [1]*?"]);
    assert.deepEqual(names(expandGlob(at("src/../.e*"), plain)), ["src/../.env", "src/../.env.local"]);
    assert.deepEqual(names(expandGlob(at("s*/*/.env"), plain)), ["src/deep/.env"]);
    assert.deepEqual(names(expandGlob(at("we\\!rd\\ \\[1\\]\\*\\?"), plain)), []); // literal: no match, a literal word
    assert.deepEqual(names(expandGlob(at("we*\\?"), plain)), ["we!rd [1]*?"]);
  });

  it("keeps brace words that match nothing as literals, for the caller to check", () => {
    const result = expandGlob(at("{.env,missing}"), { wide: false });
    assert.ok(!("unknown" in result));
    assert.deepEqual(result.literals, [join(ws, ".env"), join(ws, "missing")]);
  });

  it("follows links like the kernel: a match below a link is where the link points", () => {
    assert.deepEqual(names(expandGlob(at("link/*.txt"), { wide: false })), ["link/secret.txt"]);
  });

  it("matches the widest way when the line may change the shell's options", () => {
    const wide = { wide: true };
    assert.deepEqual(names(expandGlob(at("*env"), wide)), [".env"]);
    assert.deepEqual(names(expandGlob(at(".ENV"), wide)), []); // no wildcard: a literal word
    assert.deepEqual(names(expandGlob(at(".EN?"), wide)), [".env"]);
    assert.deepEqual(names(expandGlob(at("@(.env|x)"), wide)), [".env"]);
    assert.ok(names(expandGlob(at("**/.env"), wide)).includes("src/deep/.env"));
  });

  it("says it cannot tell past the bound, rather than list a thousand files", () => {
    const result = expandGlob(at("many/f*"), { wide: false });
    assert.ok(
      "unknown" in result && /more than 1000 matches/.test(result.unknown),
      JSON.stringify(result).slice(0, 200),
    );
    assert.ok("unknown" in expandGlob(at("many/f{1..2000}"), { wide: false }));
    assert.ok("unknown" in expandGlob(at("**/x"), { wide: true, scanLimit: 5 }));
  });

  it("says it cannot tell when a folder cannot be read", () => {
    const closed = join(ws, "closed");
    mkdirSync(closed, { recursive: true });
    writeFileSync(join(closed, ".env"), "");
    // Root reads every folder, so the refusal a closed folder gives anyone else is given here.
    const readdir = (dir: string) => {
      if (dir === closed) throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      return readdirSync(dir, { withFileTypes: true });
    };
    const result = expandGlob(at("closed/.e*"), { wide: false, readdir });
    assert.ok("unknown" in result && /cannot read the folder .*closed \(EACCES\)/.test(result.unknown));
    assert.deepEqual(names(expandGlob(at("closed/.e*"), { wide: false })), ["closed/.env"]);
  });
});
