import assert from "node:assert/strict";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checkFor } from "../../../test/support/read-check.js";
import { rulesFromConfig } from "../rules/rules.js";
import { readChecked, referenceReader } from "./read-check.js";

describe("readCheck: what may be read into the model's context", () => {
  let root: string;
  let ws: string;
  let outside: string;
  let home: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-readcheck-")));
    ws = join(root, "ws");
    outside = join(root, "outside");
    home = join(root, "home");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(outside);
    mkdirSync(home);
    writeFileSync(join(ws, ".env"), "SECRET=hunter2\n");
    writeFileSync(join(ws, "notes.md"), "plain\n");
    writeFileSync(join(outside, "private.md"), "private\n");
    symlinkSync(join(ws, ".env"), join(ws, "AGENTS.md"));
    symlinkSync(join(outside, "private.md"), join(ws, "CLAUDE.md"));
    linkSync(join(ws, ".env"), join(ws, "twin.md"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a repository's plain file inside the workspace is allowed", () => {
    const { check } = checkFor(ws);
    const verdict = check(join(ws, "notes.md"), { origin: "repository" });
    assert.equal(verdict.ok, true);
    assert.equal(verdict.real, join(ws, "notes.md"));
  });

  it("a repository's link to .env is refused: the rules only ask, and nobody approved it", () => {
    const { check } = checkFor(ws);
    const verdict = check(join(ws, "AGENTS.md"), { origin: "repository" });
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? "" : verdict.reason, /^a link to .*\/ws\/\.env: read:.*\.env: ask — default rule read/);
    assert.match(verdict.ok ? "" : verdict.reason, /allowed by the rules outright \(nobody approved it\)/);
  });

  it("a repository's file with other names (a hard link to a file outside) is refused; yours is read", () => {
    const linked = join(ws, "skill.md");
    linkSync(join(outside, "private.md"), linked);
    try {
      const { check } = checkFor(ws);
      const verdict = check(linked, { origin: "repository" });
      assert.equal(verdict.ok, false);
      assert.match(
        verdict.ok ? "" : verdict.reason,
        /other names \(hard links\), so it may be a file outside the workspace/,
      );
      assert.equal(check(linked, { origin: "user" }).ok, true);
    } finally {
      unlinkSync(linked);
    }
  });

  it("a repository's link out of the workspace is refused (external_directory asks)", () => {
    const { check } = checkFor(ws);
    const verdict = check(join(ws, "CLAUDE.md"), { origin: "repository" });
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? "" : verdict.reason, /a link to .*\/outside\/private\.md: external_directory:/);
  });

  it("a hard link to .env is .env", () => {
    const { check } = checkFor(ws);
    const verdict = check(join(ws, "twin.md"), { origin: "repository" });
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? "" : verdict.reason, /another name \(a hard link\) of .*\/ws\/\.env: read:.*\.env: ask/);
  });

  it("what the user names approves an ask, never a deny", () => {
    const { check } = checkFor(ws);
    assert.equal(check(join(ws, "AGENTS.md"), { origin: "user" }).ok, true);
    assert.equal(check(join(outside, "private.md"), { origin: "user" }).ok, true);
    const denying = checkFor(ws, { flags: { deny: ["read:**/.env"] } }).check;
    const linked = denying(join(ws, "AGENTS.md"), { origin: "user" });
    assert.equal(linked.ok, false);
    assert.match(linked.ok ? "" : linked.reason, /deny/);
    const twin = denying(join(ws, "twin.md"), { origin: "user" });
    assert.equal(twin.ok, false, "a hard link to a denied file is refused to the user's own config too");
  });

  it("the user's own folder is not 'outside': a strict external_directory deny keeps the global files", () => {
    writeFileSync(join(home, "bosun.json"), JSON.stringify({ permission: { external_directory: "deny" } }));
    writeFileSync(join(home, "AGENTS.md"), "global\n");
    symlinkSync(join(outside, "private.md"), join(home, "leak.md"));
    try {
      const { check } = checkFor(ws, { home });
      assert.equal(check(join(home, "AGENTS.md"), { origin: "user", own: home }).ok, true);
      const leak = check(join(home, "leak.md"), { origin: "user", own: home });
      assert.equal(leak.ok, false, "a link out of the user's folder is judged where it lands");
    } finally {
      rmSync(join(home, "bosun.json"));
      rmSync(join(home, "leak.md"));
    }
  });

  it("the policy refuses whatever the origin", () => {
    const policy = rulesFromConfig(
      { read: { "**/notes.md": "deny" } },
      { layer: "policy", file: "/etc/bosun/policy.json" },
    );
    const { check } = checkFor(ws, { policy });
    const verdict = check(join(ws, "notes.md"), { origin: "user" });
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? "" : verdict.reason, /denied by policy rule/);
  });

  it("auto mode does not make a repository's .env readable into the prompt", () => {
    const { check } = checkFor(ws, { mode: "auto" });
    assert.equal(check(join(ws, "AGENTS.md"), { origin: "repository" }).ok, false);
  });

  it("chat mode does not refuse what the rules allow (the mode is about calls)", () => {
    const { check } = checkFor(ws, { mode: "chat" });
    assert.equal(check(join(ws, "notes.md"), { origin: "repository" }).ok, true);
  });
});

describe("readChecked: reads the file that was judged, not one swapped in after", () => {
  let root: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-readchecked-")));
    mkdirSync(join(root, ".git"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("reads a checked file, and refuses one replaced by a link or another file after the check", () => {
    const { check } = checkFor(root);
    const file = join(root, "AGENTS.md");
    writeFileSync(file, "rules\n");
    writeFileSync(join(root, ".env"), "SECRET=1\n");
    // Made now, so it holds an inode of its own (a file made after an unlink may reuse the freed one).
    writeFileSync(join(root, "other"), "SECRET=2\n");
    const verdict = check(file, { origin: "repository" });
    assert.ok(verdict.ok);
    assert.deepEqual(readChecked(verdict, 1000), { text: "rules\n" });

    unlinkSync(file);
    symlinkSync(join(root, ".env"), file);
    assert.match(JSON.stringify(readChecked(verdict, 1000)), /became a link after it was checked/);

    unlinkSync(file);
    renameSync(join(root, "other"), file);
    assert.match(JSON.stringify(readChecked(verdict, 1000)), /changed after it was checked/);
  });

  it("gives the size of a file over the limit", () => {
    const { check } = checkFor(root);
    writeFileSync(join(root, "big.md"), "x".repeat(50));
    const verdict = check(join(root, "big.md"), { origin: "repository" });
    assert.ok(verdict.ok);
    assert.deepEqual(readChecked(verdict, 10), { tooBig: 50 });
  });
});

describe("referenceReader: config's {file:} references under the run's rules", () => {
  let root: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-refreader-")));
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".env"), "SECRET=hunter2\n");
    writeFileSync(join(root, "key.txt"), "sk-key\n");
    writeFileSync(join(root, "prompt.md"), "Review.\n");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a repository's {file:.env} is refused; its plain file is read", () => {
    const read = referenceReader(checkFor(root).check);
    const where = { layer: "project" as const, key: ["agent", "a", "prompt"] };
    assert.match(JSON.stringify(read(join(root, ".env"), where)), /refused.*nobody approved it/);
    assert.deepEqual(read(join(root, "prompt.md"), where), { value: "Review.\n" });
  });

  it("your own config reads what the rules ask about, not what they deny — but for keys bosun uses itself", () => {
    const read = referenceReader(checkFor(root, { flags: { deny: ["read:**/key.txt"] } }).check);
    assert.deepEqual(read(join(root, ".env"), { layer: "global", key: ["agent", "a", "prompt"] }), {
      value: "SECRET=hunter2\n",
    });
    assert.match(
      JSON.stringify(read(join(root, "key.txt"), { layer: "global", key: ["agent", "a", "prompt"] })),
      /deny/,
    );
    assert.deepEqual(read(join(root, "key.txt"), { layer: "global", key: ["provider", "p", "apiKey"] }), {
      value: "sk-key\n",
    });
    assert.match(
      JSON.stringify(read(join(root, "key.txt"), { layer: "project", key: ["provider", "p", "apiKey"] })),
      /deny/,
      "a repository's credential key gets no such exception",
    );
  });
});
