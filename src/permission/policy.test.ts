import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadPolicy, policyDenials, SYSTEM_POLICY_FILE } from "./policy.js";

describe("loadPolicy and policyDenials (call.policy)", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bosun-policy-")));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads deny rules from BOSUN_POLICY with their file and line, besides the system file", () => {
    const path = file(
      "policy.json",
      '{\n  // the admin\n  "permission": {\n    "shell": { "git push *": "deny" },\n    "edit": { "/etc/**": "deny" }\n  }\n}\n',
    );
    const policy = loadPolicy({ BOSUN_POLICY: path }, dir);
    assert.deepEqual(policy.files.at(-1), path);
    assert.deepEqual(
      policy.rules.map((r) => [r.action, r.pattern, r.effect, r.source.layer, r.source.line]),
      [
        ["shell", "git push *", "deny", "policy", 4],
        ["edit", "/etc/**", "deny", "policy", 5],
      ],
    );
    assert.equal(SYSTEM_POLICY_FILE, "/etc/bosun/policy.json");
  });

  it("refuses a policy it cannot trust: missing, broken, granting, unknown keys", () => {
    assert.throws(
      () => loadPolicy({ BOSUN_POLICY: join(dir, "nope.json") }, dir),
      /BOSUN_POLICY points to .*nope\.json, which does not exist/,
    );
    assert.throws(
      () => loadPolicy({ BOSUN_POLICY: file("broken.json", "{ permission: ") }, dir),
      /broken\.json:1:\d+: syntax error/,
    );
    assert.throws(
      () => loadPolicy({ BOSUN_POLICY: file("grant.json", '{"permission": {"shell": {"*": "allow"}}}') }, dir),
      /policy rules may only deny .*policy never grants/,
    );
    assert.throws(
      () => loadPolicy({ BOSUN_POLICY: file("keys.json", '{"mode": "auto"}') }, dir),
      /keys\.json:1: unknown key "mode"/,
    );
  });

  it("denies what a policy rule covers; a path not known before the call runs is covered by any rule of its action", () => {
    const policy = loadPolicy(
      { BOSUN_POLICY: file("p.json", '{"permission": {"edit": {"/etc/**": "deny"}, "shell": {"curl *": "deny"}}}') },
      dir,
    );
    const ctx = { workspace: "/w", home: "/h" };
    const hits = policyDenials(
      [
        { action: "edit", resource: "/etc/hosts" },
        { action: "edit", resource: "/w/a" },
        { action: "edit", resource: "*" },
        { action: "shell", resource: "curl -s example.com" },
        { action: "shell", resource: "ls" },
      ],
      policy.rules,
      ctx,
    );
    assert.deepEqual(
      hits.map((h) => `${h.request.action}:${h.request.resource} by ${h.rule.pattern}`),
      ["edit:/etc/hosts by /etc/**", "edit:* by /etc/**", "shell:curl -s example.com by curl *"],
    );
  });
});
