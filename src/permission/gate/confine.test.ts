import assert from "node:assert/strict";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CallDescription } from "../../contracts/requests.js";
import { defaultRules } from "../rules/defaults.js";
import { MODES } from "../rules/modes.js";
import { type Rule, rulesFromConfig } from "../rules/rules.js";
import { type AuthorityContext, authorize } from "./authorize.js";
import {
  type ConfineDeps,
  confinementFor,
  guardHardLinks,
  maskingFor,
  mayReadFound,
  protectedOriginal,
  writableFor,
} from "./confine.js";

describe("confinement: what a command may write and see (seat exec.sandbox)", () => {
  let root: string;
  let ws: string;
  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-confine-")));
    ws = join(root, "ws");
    mkdirSync(join(ws, "docs"), { recursive: true });
    writeFileSync(join(ws, "notes.md"), "notes\n");
    writeFileSync(join(ws, ".env"), "TOKEN=1\n");
    writeFileSync(join(ws, "docs", "a.md"), "a\n");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  function deps(
    user: Record<string, unknown> = {},
    options: { auto?: boolean; sandbox?: "on" | "off" } = {},
  ): ConfineDeps {
    const layers: Rule[][] = [
      defaultRules(),
      MODES.approve.preset,
      rulesFromConfig(user, { layer: "global", file: "/u/bosun.json" }),
    ];
    const authority: AuthorityContext = {
      rules: layers,
      mode: { name: "approve", holder: "code" },
      cwd: ws,
      workspace: ws,
      home: join(root, "home"),
    };
    return {
      authority,
      policy: { rules: [], files: [] },
      auto: options.auto ?? false,
      sandbox: options.sandbox ?? "on",
      visible: [ws],
    };
  }
  const shell = (command: string, more: CallDescription["requests"] = []): CallDescription => ({
    requests: [{ action: "shell", resource: command, readOnly: true }, ...more],
  });

  it("writableFor: each file that exists, the folder of one that does not, nothing for a missing folder", () => {
    assert.deepEqual(
      writableFor([join(ws, "notes.md"), join(ws, "docs", "new.md"), join(ws, "gone", "x.md")]),
      [join(ws, "docs"), join(ws, "notes.md")].sort(),
    );
    // A path inside another writable one adds nothing.
    assert.deepEqual(writableFor([join(ws, "docs", "a.md"), join(ws, "docs", "new.md")]), [join(ws, "docs")]);
  });

  it("a proven command that writes one allowed file gets that file writable, nothing else", async () => {
    const verdict = await confinementFor(
      "proof",
      shell("echo x > notes.md", [{ action: "edit", resource: join(ws, "notes.md") }]),
      deps({ edit: { "notes.md": "allow" } }),
    );
    assert.equal(verdict.answer, "writes-named");
    assert.equal(verdict.confine?.kind, "sealed");
    assert.deepEqual(verdict.confine?.writable, [join(ws, "notes.md")]);
    assert.deepEqual(verdict.confine?.masked, [join(ws, ".env")]);
    const plain = await confinementFor("proof", shell("ls"), deps());
    assert.equal(plain.answer, "read-only");
    assert.equal(plain.confine?.writable, undefined);
  });

  it("an allowed command runs masked: protected files empty, but not the ones approved to read or allowed to write", async () => {
    const masked = await maskingFor(shell("cat *"), deps());
    assert.equal(masked.answer, "masked");
    assert.equal(masked.confine?.kind, "masked");
    assert.deepEqual(masked.confine?.masked, [join(ws, ".env")]);
    const approved = await maskingFor(shell("cat .env", [{ action: "read", resource: join(ws, ".env") }]), deps(), [
      join(ws, ".env"),
    ]);
    assert.equal(approved.confine?.masked, undefined);
    const written = await maskingFor(
      shell("echo A=1 >> .env", [{ action: "edit", resource: join(ws, ".env") }]),
      deps(),
    );
    assert.equal(written.confine?.masked, undefined);
    // A deny is never lifted: approving a read of the folder (`grep -r .`) or a write of the file leaves it masked.
    const denying = deps({ read: { "**/.env": "deny" } });
    const folder = await maskingFor(shell("grep -r x ."), denying, [ws], true);
    assert.deepEqual(folder.confine?.masked, [join(ws, ".env")]);
    const writeDenied = await maskingFor(
      shell("echo A=1 >> .env", [{ action: "edit", resource: join(ws, ".env") }]),
      denying,
    );
    assert.deepEqual(writeDenied.confine?.masked, [join(ws, ".env")]);
    const sudo = await maskingFor(shell("sudo make install"), deps());
    assert.equal(sudo.answer, "none");
    assert.match(sudo.reasons[0]?.detail ?? "", /sudo/);
    const off = await maskingFor(shell("cat *"), deps({}, { sandbox: "off" }));
    assert.equal(off.answer, "none");
    assert.equal(off.holder, "config");
  });

  describe("a second name (a hard link) of a protected file is that file", () => {
    let link: string;
    before(() => {
      link = join(ws, "docs", "notes.txt");
      linkSync(join(ws, ".env"), link);
    });
    after(() => rmSync(link, { force: true }));

    it("is found, and only for files with more than one name", () => {
      assert.equal(protectedOriginal(deps(), link), join(ws, ".env"));
      assert.equal(protectedOriginal(deps(), join(ws, "docs", "a.md")), undefined);
    });

    it("a read of it gets the protected file's answer: deny when the rules deny .env, ask when they ask", () => {
      const read = { requests: [{ action: "read" as const, resource: link }] };
      const denyingDeps = deps({ read: { "**/.env": "deny" } });
      const denied = guardHardLinks(authorize(read, denyingDeps.authority), denyingDeps);
      assert.equal(denied.answer, "deny");
      assert.match(denied.reasons.find((r) => r.decisive)?.detail ?? "", /another name \(a hard link\) of .*\.env/);
      const asking = deps();
      assert.equal(guardHardLinks(authorize(read, asking.authority), asking).answer, "ask");
    });

    it("a tool that finds it (grep over a folder) does not show it, --auto included, when .env is denied", () => {
      assert.equal(mayReadFound(deps({ read: { "**/.env": "deny" } }, { auto: true }), link), false);
      assert.equal(mayReadFound(deps(), link), false);
      assert.equal(mayReadFound(deps({}, { auto: true }), link), true, "--auto says yes to what asks");
    });

    it("a command that would run sealed or masked while a denied file has other names is denied", async () => {
      const denying = deps({ read: { "**/.env": "deny" } });
      assert.equal((await confinementFor("proof", shell("grep -r x docs"), denying)).answer, "denied");
      assert.equal((await maskingFor(shell("grep -r x docs"), denying)).answer, "denied");
      assert.equal((await maskingFor(shell("grep -r x docs"), denying, [], true)).answer, "denied");
      // An asked-about one: unavailable (the caller asks), or unmasked once a person approved the call.
      assert.equal((await confinementFor("proof", shell("grep -r x docs"), deps())).answer, "unavailable");
      assert.equal((await maskingFor(shell("grep -r x docs"), deps(), [], true)).answer, "none");
    });
  });
});
