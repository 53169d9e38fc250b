import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { seededRandom } from "../../../test/support/random.js";
import type { Action, Request } from "../../contracts/requests.js";
import { evaluate } from "./evaluate.js";
import { loadPolicy, policyDenials, SYSTEM_POLICY_FILE } from "./policy.js";
import { type Effect, type Rule, rulesFromConfig } from "./rules.js";

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

describe("policy is matched in one place: the gate's call.policy and the evaluator agree", () => {
  const ctx = { workspace: "/w", home: "/h" };
  const PATTERNS: Record<string, string[]> = {
    edit: ["*", "/etc/**", "**/.env", "src/**"],
    read: ["*", "~/.ssh/**", "/proc/**/environ"],
    shell: ["*", "curl *", "git push*"],
  };
  const RESOURCES: Record<string, string[]> = {
    edit: ["*", "/etc/hosts", "/w/.env", "/w/src/a.ts", "/w/b"],
    read: ["*", "/h/.ssh/id", "/proc/1/environ", "/w/a"],
    shell: ["curl x", "git push", "ls"],
  };
  const actions = Object.keys(PATTERNS) as Action[];

  it("for 2000 random policies, rules and requests: a request the policy covers is denied by both, and only those", () => {
    const rand = seededRandom(14);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
    let covered = 0;
    for (let n = 0; n < 2000; n++) {
      const policy: Rule[] = Array.from({ length: Math.floor(rand() * 3) }, () => {
        const action = pick(actions);
        return rulesFromConfig(
          { [action]: { [pick(PATTERNS[action] ?? ["*"])]: "deny" } },
          { layer: "policy" },
        )[0] as Rule;
      });
      const configured: Rule[] = Array.from({ length: Math.floor(rand() * 4) }, () => {
        const action = pick(actions);
        const effect = pick(["allow", "ask", "deny"] as Effect[]);
        return rulesFromConfig(
          { [action]: { [pick(PATTERNS[action] ?? ["*"])]: effect } },
          { layer: "global" },
        )[0] as Rule;
      });
      const action = pick(actions);
      const request: Request = { action, resource: pick(RESOURCES[action] ?? ["x"]) };
      const hits = policyDenials([request], policy, ctx);
      const evaluated = evaluate([request], [configured], { ...ctx, policy }).perRequest[0];
      const why = JSON.stringify({ request, policy, configured });
      if (hits[0]) {
        covered++;
        assert.equal(evaluated?.effect, "deny", why);
        assert.equal(evaluated?.rule?.source.layer, "policy", why);
        assert.equal(evaluated?.rule, hits[0].rule, why);
      } else {
        assert.notEqual(evaluated?.rule?.source.layer, "policy", why);
      }
    }
    assert.ok(covered > 200, `only ${covered} requests the policy covered`);
  });
});
