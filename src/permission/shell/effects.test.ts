import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type LineEffects, lineEffects } from "./effects.js";

const argv = (line: string): string[] => line.split(" ");
const effects = (line: string, risky: boolean[] = []): LineEffects => lineEffects(argv(line), risky);

describe("lineEffects: what a command changes in how bash reads the rest of the line", () => {
  it("sees every way to define an alias or turn alias expansion on", () => {
    for (const line of [
      "alias ls=rm",
      "shopt -s expand_aliases",
      "shopt -so posix",
      "set -o posix",
      "bash -O expand_aliases -c ls",
      "bash -o posix -c ls",
      "bash --posix -c ls",
      "bash -ic ls",
      "POSIXLY_CORRECT=1",
      "export BASHOPTS",
      "env SHELLOPTS=posix bash -c ls",
    ]) {
      assert.equal(effects(line).aliases, true, line);
    }
    assert.equal(lineEffects(["ls"], [false], ["POSIXLY_CORRECT=1"]).aliases, true);
  });

  it("leaves listing aliases and plain shells alone", () => {
    for (const line of ["alias", "alias -p", "alias ll", "unalias ls", "sh -c ls", "bash -c ls", "bash -lc ls"]) {
      assert.equal(effects(line).aliases, false, line);
    }
  });

  it("sees glob options and GLOBIGNORE, which turns dotglob on", () => {
    for (const line of [
      "shopt -s dotglob",
      "shopt -s nocaseglob extglob",
      "shopt -s globstar",
      "bash -O dotglob -c x",
    ]) {
      assert.equal(effects(line).globs, true, line);
    }
    assert.equal(lineEffects([], [], ["GLOBIGNORE=x"]).globs, true);
    assert.equal(effects("shopt -s nullglob").aliases, false);
  });

  it("sees what changes cd: CDPATH, cdable_vars, autocd", () => {
    assert.equal(effects("shopt -s cdable_vars").cwd, true);
    assert.equal(effects("export CDPATH=/tmp").cwd, true);
    assert.equal(lineEffects(["cd", "x"], [false, false], ["CDPATH=/tmp"]).cwd, true);
  });

  it("knows nothing after code or names it cannot read: source, $cmd, a risky shopt, a setter's unknown name", () => {
    for (const [line, risky] of [
      ["source x", []],
      [". x", []],
      ["enable -f x y", []],
      ["$cmd x", [true, false]],
      ["shopt -s $x", [false, false, true]],
      ["set -o $x", [false, false, true]],
      ["trap $x EXIT", [false, true, false]],
      ["read $n", [false, true]],
      ["printf -v $n x", [false, false, true]],
      ["declare $x", [false, true]],
      ["export $n=1", [false, true]],
    ] as [string, boolean[]][]) {
      assert.deepEqual(effects(line, risky), { aliases: true, globs: true, cwd: true, opaque: true }, line);
    }
  });

  it("does not count a setter's unknown value of a known name", () => {
    assert.equal(effects("declare a=$x", [false, true]).opaque, false);
    assert.equal(effects("printf %s $x", [false, false, true]).opaque, false);
    assert.equal(effects("echo $x", [false, true]).opaque, false);
  });
});
