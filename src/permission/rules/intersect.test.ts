import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../../test/support/random.js";
import type { Action, Request } from "../../contracts/requests.js";
import { combine, type EvaluateOptions, evaluate, STRICTNESS, stricter } from "./evaluate.js";
import { evaluateAuthority, evaluateIntersection, type Intersection, intersect } from "./intersect.js";
import { type Effect, LAYERS, type Layer, type Rule, rulesFromConfig } from "./rules.js";

const options: EvaluateOptions = { workspace: "/ws", home: "/home/u" };
const req = (action: Action, resource: string): Request => ({ action, resource });

let counter = 0;
function rule(layer: Layer, action: Action, pattern: string, effect: Effect): Rule {
  counter++;
  return { action, pattern, effect, source: { layer, key: `k${counter}` } };
}

/** A read-only parent (like the plan agent) and a permissive delegate (like a general agent). */
const plan: Rule[][] = [
  rulesFromConfig({ read: "allow", edit: "ask", shell: "ask" }, { layer: "default" }),
  rulesFromConfig(
    { edit: "deny", shell: { "*": "deny", "git status *": "allow", "ls *": "allow" } },
    {
      layer: "agent",
      keyPath: ["agent", "plan", "permission"],
    },
  ),
];
const general: Rule[][] = [
  rulesFromConfig(
    { read: "allow", edit: "allow", shell: "allow", web: "allow" },
    { layer: "agent", keyPath: ["agent", "general", "permission"] },
  ),
];

describe("intersect", () => {
  it("keeps a read-only parent read-only in its delegate", () => {
    const delegate = intersect(plan, general);
    const cases: Array<[Request, Effect]> = [
      [req("edit", "/ws/src/a.ts"), "deny"],
      [req("shell", "rm -rf src"), "deny"],
      [req("shell", "git status"), "allow"],
      [req("read", "/ws/src/a.ts"), "allow"],
      [req("web", "example.com"), "ask"], // the parent has no web rule: ask
    ];
    for (const [request, expected] of cases) {
      assert.equal(evaluateIntersection(delegate, [request], options).effect, expected, request.resource);
    }
  });

  it("lets the delegate be stricter than its parent", () => {
    const child = [rulesFromConfig({ read: { "*": "allow", "**/.env*": "deny" } }, { layer: "agent" })];
    const delegate = intersect(general, child);
    assert.equal(evaluateIntersection(delegate, [req("read", "/ws/.env")], options).effect, "deny");
    assert.equal(evaluateIntersection(delegate, [req("read", "/ws/a.ts")], options).effect, "allow");
  });

  it("gives the delegate's saved approvals no power beyond the parent", () => {
    const parent = [[rule("default", "edit", "*", "ask")]];
    const child = [[rule("default", "edit", "*", "allow")], [rule("saved", "edit", "*", "allow")]];
    assert.equal(evaluateIntersection(intersect(parent, child), [req("edit", "/ws/a")], options).effect, "ask");
  });

  it("is deny whenever either side denies, ask when either asks", () => {
    const EFFECTS: Effect[] = ["allow", "ask", "deny"];
    for (const p of EFFECTS) {
      for (const c of EFFECTS) {
        const delegate = intersect([[rule("project", "shell", "*", p)]], [[rule("project", "shell", "*", c)]]);
        assert.equal(
          evaluateIntersection(delegate, [req("shell", "x")], options).effect,
          stricter(p, c),
          `${p} ∩ ${c}`,
        );
      }
    }
  });

  it("applies policy to every side", () => {
    const policy = [rule("policy", "shell", "curl *", "deny")];
    const delegate = intersect(general, general);
    assert.equal(evaluateIntersection(delegate, [req("shell", "curl x")], { ...options, policy }).effect, "deny");
  });

  it("names the stricter side in the reasons, labelled, the parent first on a tie", () => {
    const delegate = intersect(plan, general);
    const edit = evaluateIntersection(delegate, [req("edit", "/ws/a.ts")], options);
    assert.equal(edit.reasons[0]?.decisive, true);
    assert.match(edit.reasons[0]?.detail ?? "", /^parent: deny — agent rule edit "\*" → deny/);
    assert.equal(edit.reasons[0]?.key, "agent.plan.permission.edit");
    assert.match(edit.reasons[1]?.detail ?? "", /^delegate: allow/);
    assert.equal(edit.reasons[1]?.decisive, undefined);
    assert.equal(edit.perRequest[0]?.rule?.source.key, "agent.plan.permission.edit");

    const read = evaluateIntersection(delegate, [req("read", "/ws/a.ts")], options);
    assert.match(read.reasons[0]?.detail ?? "", /^parent: allow/);
    assert.equal(read.perRequest[0]?.rule?.source.key, "permission.read");
  });

  it("takes custom labels", () => {
    const delegate = intersect(plan, general, { parent: "plan", child: "general" });
    assert.deepEqual(
      delegate.sets.map((s) => s.label),
      ["plan", "general"],
    );
    const result = evaluateIntersection(delegate, [req("edit", "/ws/a")], options);
    assert.match(result.reasons[0]?.detail ?? "", /^plan: deny/);
  });

  it("nests: a delegate of a delegate keeps every ancestor's constraints", () => {
    const first = intersect(plan, general, { parent: "plan", child: "general" });
    const second = intersect(first, general, { child: "grandchild" });
    assert.deepEqual(
      second.sets.map((s) => s.label),
      ["plan", "general", "grandchild"],
    );
    assert.equal(evaluateIntersection(second, [req("edit", "/ws/a")], options).effect, "deny");
    const other = intersect(plan, intersect(general, general));
    assert.equal(other.sets.length, 3);
  });

  it("evaluateAuthority evaluates plain layers and intersections alike", () => {
    const requests = [req("edit", "/ws/a"), req("shell", "ls")];
    assert.deepEqual(evaluateAuthority(plan, requests, options), evaluate(requests, plan, options));
    assert.equal(evaluateAuthority(intersect(plan, general), requests, options).effect, "deny");
  });

  it("answers ask for no requests, like evaluate", () => {
    assert.equal(evaluateIntersection(intersect(general, general), [], options).effect, "ask");
  });

  it("refuses an empty intersection", () => {
    assert.throws(() => evaluateIntersection({ sets: [] }, [req("shell", "x")], options), TypeError);
  });
});

const random = seededRandom;

describe("intersect: never more authority than the parent (property)", () => {
  const rand = random(2024);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const PATTERNS: Record<string, string[]> = {
    shell: ["*", "git *", "git status *", "git push*", "rm *", "ls", "npm test *"],
    edit: ["*", "src/**", "**/.env*", "/etc/**", "*.ts", "src/*"],
    read: ["*", "**/.env*", "~/.ssh/**", "/etc/**"],
    web: ["*", "*.github.com", "example.com"],
    mcp: ["*", "github/*", "fs/read_*"],
  };
  const RESOURCES: Record<string, string[]> = {
    shell: ["git status", "git push", "rm -rf x", "ls", "npm test", "cat a"],
    edit: ["/ws/src/a.ts", "/ws/.env", "/etc/passwd", "/ws/a.ts", "/ws/src/x/y.js"],
    read: ["/ws/src/a.ts", "/ws/.env", "/home/u/.ssh/id", "/etc/hosts"],
    web: ["api.github.com", "example.com", "evil.net"],
    mcp: ["github/create_issue", "fs/read_file", "fs/write_file"],
  };
  const actions = Object.keys(PATTERNS) as Action[];
  const randomLayers = (): Rule[][] =>
    Array.from({ length: Math.floor(rand() * 4) }, () =>
      Array.from({ length: Math.floor(rand() * 5) }, () => {
        const action = pick(actions);
        return rule(pick(LAYERS), action, pick(PATTERNS[action] ?? ["*"]), pick(["allow", "ask", "deny"] as const));
      }),
    );
  const randomRequests = (): Request[] =>
    Array.from({ length: Math.floor(rand() * 4) }, () => {
      const action = pick(actions);
      return req(action, pick(RESOURCES[action] ?? ["x"]));
    });

  it("for 3000 random parents, children and requests, each request gets the stricter effect", () => {
    let lifted = 0;
    for (let n = 0; n < 3000; n++) {
      const parent = randomLayers();
      const child = randomLayers();
      const requests = randomRequests();
      const policy = rand() < 0.2 ? [rule("policy", "shell", pick(PATTERNS.shell ?? ["*"]), "deny")] : [];
      const opts = { ...options, policy };
      const p = evaluate(requests, parent, opts);
      const c = evaluate(requests, child, opts);
      const d = evaluateIntersection(intersect(parent, child), requests, opts);
      for (const [i, request] of requests.entries()) {
        const pe = p.perRequest[i]?.effect as Effect;
        const ce = c.perRequest[i]?.effect as Effect;
        const de = d.perRequest[i]?.effect as Effect;
        assert.equal(de, stricter(pe, ce), JSON.stringify({ request, parent, child }));
        assert.ok(STRICTNESS[de] >= STRICTNESS[pe], "never more authority than the parent");
        assert.ok(STRICTNESS[de] >= STRICTNESS[ce], "never more authority than its own rules");
        if (STRICTNESS[ce] < STRICTNESS[pe]) lifted++;
      }
      assert.equal(d.effect, combine(d.perRequest.map((x) => x.effect)));
      assert.ok(STRICTNESS[d.effect] >= STRICTNESS[p.effect] || requests.length === 0);
      assert.ok(STRICTNESS[d.effect] >= STRICTNESS[c.effect] || requests.length === 0);
    }
    // The cases must include children that, alone, would have had more authority.
    assert.ok(lifted > 100, `only ${lifted} cases where the child was looser`);
  });

  it("is associative and commutative in effect for 1000 random triples", () => {
    for (let n = 0; n < 1000; n++) {
      const [a, b, c] = [randomLayers(), randomLayers(), randomLayers()];
      const requests = randomRequests();
      const effects = (x: Intersection) => evaluateIntersection(x, requests, options).perRequest.map((r) => r.effect);
      const left = effects(intersect(intersect(a, b), c));
      assert.deepEqual(effects(intersect(a, intersect(b, c))), left);
      assert.deepEqual(effects(intersect(c, intersect(b, a))), left);
    }
  });
});
