import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { prefixLength } from "./prefix.js";

const prefix = (line: string) => {
  const argv = line.split(" ");
  return argv.slice(0, prefixLength(argv)).join(" ");
};

describe("prefixLength: what an always covers", () => {
  it("takes the command name alone for plain commands", () => {
    assert.equal(prefix("rm -rf build"), "rm");
    assert.equal(prefix("ls"), "ls");
    assert.equal(prefix("/usr/bin/touch a"), "/usr/bin/touch");
  });

  it("takes the subcommand of commands that have them", () => {
    assert.equal(prefix("git status -s"), "git status");
    assert.equal(prefix("git push origin main"), "git push");
    assert.equal(prefix("npm install left-pad"), "npm install");
    assert.equal(prefix("cargo build --release"), "cargo build");
    assert.equal(prefix("make test"), "make test");
  });

  it("takes two levels where the first one is a family", () => {
    assert.equal(prefix("npm run test -- --watch"), "npm run test");
    assert.equal(prefix("gh pr list"), "gh pr list");
    assert.equal(prefix("docker compose up -d"), "docker compose up");
    assert.equal(prefix("git stash pop"), "git stash pop");
    assert.equal(prefix("python -m pytest -x"), "python -m pytest");
  });

  it("covers the whole command when an option comes before the subcommand", () => {
    assert.equal(prefix("git -C ../other push"), "git -C ../other push");
    assert.equal(prefix("npm --prefix x install"), "npm --prefix x install");
  });

  it("never covers more words than the command has", () => {
    assert.equal(prefixLength([]), 0);
    assert.equal(prefix("git"), "git");
    assert.equal(prefix("npm run"), "npm run");
  });
});
